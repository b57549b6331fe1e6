"""``python -m ewar verify REPLAY.json``: replays a record and prints the verify JSON; a
bad record exits non-zero with a clear reason."""

from __future__ import annotations

import json

import pytest
from support import WEST, make_deal, run_python

from ewar import __version__
from ewar.bridge import judge_daily
from ewar.game import Game
from ewar.replay import Replay
from tools.harness.players import HumanLikePlayer, play, play_simulated_human


def won_game() -> Game:
    game = play_simulated_human(Game(2026, speed="slow"), reaction_ms=200, flip_ms=250)
    assert game.outcome.won
    return game


def verify_file(tmp_path, content: str | bytes):
    path = tmp_path / "replay.json"
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content)
    return run_python("-m", "ewar", "verify", str(path))


def record(game: Game) -> dict:
    return Replay.of(game).to_dict()


def refused(out, *words: str) -> dict:
    assert out.returncode != 0
    answer = json.loads(out.stdout)
    assert answer["ok"] is False and answer["error"]["code"]
    for word in words:
        assert word in answer["error"]["message"]
    return answer


class TestAGoodReplay:
    """A good record prints its result JSON and exits 0."""

    def test_a_won_game(self, tmp_path):
        game = won_game()
        out = verify_file(tmp_path, Replay.of(game).to_json())
        assert out.returncode == 0, out.stderr
        answer = json.loads(out.stdout)
        outcome = game.outcome
        assert answer["ok"] is True and answer["finished"] is True
        assert answer["result"]["won"] is True and answer["result"]["reason"] == "won"
        assert answer["result"]["score"] == outcome.score.total
        assert answer["result"]["duration_ms"] == outcome.duration_ms
        assert answer["seed"] == 2026 and answer["speed"] == "slow"
        assert answer["engine_version"] == __version__

    def test_a_daily_game(self, tmp_path):
        game = play_simulated_human(Game.daily("2026-11-30"), reaction_ms=200, flip_ms=250)
        out = verify_file(tmp_path, Replay.of(game).to_json())
        assert out.returncode == 0, out.stderr
        answer = json.loads(out.stdout)
        assert answer["mode"] == "daily" and answer["date"] == "2026-11-30"
        assert answer["result"]["score"] == game.outcome.score.total

    def test_an_unfinished_game_is_reported_as_such(self, tmp_path):
        data = record(won_game())
        # stop just before one of the human's flips: the game then waits for the human
        cut = next(i for i, (_, action) in enumerate(data["actions"]) if i > 2 and action == "f")
        data["actions"] = data["actions"][:cut]
        out = verify_file(tmp_path, json.dumps(data))
        assert out.returncode == 0, out.stderr
        answer = json.loads(out.stdout)
        assert answer["ok"] is True and answer["finished"] is False and answer["result"] is None


class TestABadReplay:
    """A bad record exits non-zero and says why."""

    def test_actions_out_of_time_order(self, tmp_path):
        data = record(won_game())
        data["actions"][2], data["actions"][3] = data["actions"][3], data["actions"][2]
        assert data["actions"][2][0] > data["actions"][3][0]
        refused(verify_file(tmp_path, json.dumps(data)), "out of time order")

    def test_a_flip_when_it_was_not_the_humans_turn(self, tmp_path):
        seed = next(s for s in range(100) if Game(s).deal.first == WEST)
        data = Replay(
            seed=seed,
            mode="practice",
            speed="normal",
            lenient=False,
            date=None,
            actions=((1, "f"),),
        ).to_dict()
        answer = refused(verify_file(tmp_path, json.dumps(data)), "west")
        assert "flip" in answer["error"]["message"] and "1 ms" in answer["error"]["message"]

    def test_an_action_after_the_end(self, tmp_path):
        game = won_game()
        data = record(game)
        data["actions"].append([game.outcome.duration_ms + 1000, "s"])
        refused(verify_file(tmp_path, json.dumps(data)), "over")

    @pytest.mark.parametrize("engine", ["0.9.0", "1.0.0", "2.0.1", "", None])
    def test_an_unknown_engine_version(self, tmp_path, engine):
        data = record(won_game())
        data["engine"] = engine
        refused(verify_file(tmp_path, json.dumps(data)), "engine")

    @pytest.mark.parametrize("version", [0, 2, "1", True, None])
    def test_an_unknown_format_version(self, tmp_path, version):
        data = record(won_game())
        data["format"] = version
        refused(verify_file(tmp_path, json.dumps(data)), "format")

    @pytest.mark.parametrize(
        "garbage",
        [b"\xff\xfe\x00\x81garbage", b"", b"{", b"[1, 2]", b"null", "é".encode("latin-1")],
    )
    def test_garbage_bytes(self, tmp_path, garbage):
        refused(verify_file(tmp_path, garbage))

    def test_a_missing_file(self, tmp_path):
        out = run_python("-m", "ewar", "verify", str(tmp_path / "nowhere.json"))
        answer = refused(out)
        assert "nowhere.json" in answer["error"]["message"]

    @pytest.mark.parametrize(
        "field, value",
        [
            ("seed", "42"),
            ("seed", True),
            ("mode", "ranked"),
            ("speed", "ludicrous"),
            ("lenient", "no"),
            ("actions", [[10, "x"]]),
            ("actions", [[1.5, "f"]]),
            ("date", "2026-02-30"),
        ],
    )
    def test_bad_fields(self, tmp_path, field, value):
        data = record(won_game())
        data[field] = value
        if field == "date":
            data["mode"] = "daily"
        refused(verify_file(tmp_path, json.dumps(data)))

    def test_unknown_or_missing_fields(self, tmp_path):
        data = record(won_game())
        data["cheat"] = True
        refused(verify_file(tmp_path, json.dumps(data)), "cheat")
        data = record(won_game())
        del data["seed"]
        refused(verify_file(tmp_path, json.dumps(data)), "seed")

    def test_a_lenient_daily_game(self, tmp_path):
        game = play_simulated_human(Game.daily("2026-11-30"), reaction_ms=200, flip_ms=250)
        data = record(game)
        data["lenient"] = True
        refused(verify_file(tmp_path, json.dumps(data)))


class TestNotTheDeal:
    """A record holds only the seed: a constructed deal cannot be smuggled in."""

    def test_the_replay_rebuilds_the_seeded_deal(self):
        game = Game(5, deal_override=make_deal("2C", "3D", "4H", "5S"))
        assert Replay.of(game).game().deal == Game(5).deal


class TestJudgingADailyScore:
    """``--date D [--score S]`` prints the score judge's verdict: the same JSON the scores
    function gets from ``bridge.judge_daily`` for the same record."""

    @pytest.fixture(scope="class")
    def daily(self) -> Game:
        return play(Game.daily("2026-11-30"), HumanLikePlayer(330, seed=7))

    def judged(self, tmp_path, game: Game, *options: str):
        path = tmp_path / "replay.json"
        path.write_text(Replay.of(game).to_json())
        return run_python("-m", "ewar", "verify", str(path), *options)

    def test_an_accepted_record_prints_the_bridge_verdict(self, tmp_path, daily):
        score = daily.outcome.score.total
        out = self.judged(tmp_path, daily, "--date", "2026-11-30", "--score", str(score))
        assert out.returncode == 0, out.stderr
        bridge = judge_daily(Replay.of(daily).to_json(), "2026-11-30", score)
        assert json.loads(out.stdout) == json.loads(bridge)
        assert json.loads(out.stdout)["ok"] is True

    @pytest.mark.parametrize(
        "options, code",
        [
            (("--date", "2026-12-01"), "date_mismatch"),
            (("--date", "2026-11-30", "--score", "1"), "score_mismatch"),
        ],
    )
    def test_a_refused_record_prints_the_same_refusal(self, tmp_path, daily, options, code):
        out = self.judged(tmp_path, daily, *options)
        assert out.returncode == 1
        answer = json.loads(out.stdout)
        assert answer["error"]["code"] == code
        date, score = options[1], int(options[3]) if len(options) > 2 else None
        assert answer == json.loads(judge_daily(Replay.of(daily).to_json(), date, score))

    def test_a_score_without_a_date_is_a_usage_error(self, tmp_path, daily):
        out = self.judged(tmp_path, daily, "--score", "1500")
        assert out.returncode == 2 and "--score needs --date" in out.stderr
