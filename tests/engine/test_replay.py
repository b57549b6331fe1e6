"""Replays: a game exports as a compact JSON record and imports back into the
identical game; a tampered or impossible record is refused with its reason."""

import json

import pytest
from players import play_simulated_human

from ewar import __version__
from ewar.bridge import verify as bridge_verify
from ewar.errors import ReplayError
from ewar.game import Game
from ewar.replay import Replay, verify


@pytest.fixture(scope="module")
def finished() -> Game:
    return play_simulated_human(Game(31, speed="fast"), reaction_ms=240)


class TestRoundTrip:
    def test_json_round_trip_gives_the_same_record(self, finished):
        record = Replay.of(finished)
        assert Replay.from_json(record.to_json()) == record
        assert eval(repr(record), {"Replay": Replay}) == record  # repr pastes back

    def test_the_record_names_format_engine_seed_and_settings(self, finished):
        data = json.loads(Replay.of(finished).to_json())
        assert data["format"] == 1 and data["engine"] == __version__
        assert (data["seed"], data["mode"], data["speed"], data["lenient"]) == (
            31,
            "practice",
            "fast",
            False,
        )
        assert data["actions"] == [[t, a] for t, a in finished.actions]

    def test_an_imported_record_rebuilds_the_identical_game(self, finished):
        again = Replay.from_json(Replay.of(finished).to_json()).play()
        assert again.outcome == finished.outcome
        assert again.view() == finished.view()

    def test_an_unfinished_game_replays_to_where_it_waits_for_the_human(self):
        game = Game(8, speed="normal")
        game.advance_to(20_000)
        report = verify(Replay.of(game))
        assert report["finished"] is False and report["result"] is None

    def test_verify_reports_the_score_duration_and_wrong_slaps(self, finished):
        report = verify(Replay.of(finished))
        assert report["finished"] is True
        assert report["result"]["score"] == finished.outcome.score.total
        assert report["result"]["duration_ms"] == finished.outcome.duration_ms
        assert report["wrong_slaps"] == finished.wrong_slaps
        assert report["min_reaction_ms"] == finished.fastest_slap_ms


class TestRefusedRecords:
    def mutate(self, finished, **changes) -> str:
        data = json.loads(Replay.of(finished).to_json())
        data.update(changes)
        return json.dumps(data)

    @pytest.mark.parametrize(
        "changes, reason",
        [
            ({"engine": "0.9.0"}, "engine"),
            ({"format": 2}, "format"),
            ({"seed": "31"}, "seed"),
            ({"speed": "warp"}, "speed"),
            ({"mode": "tournament"}, "mode"),
            ({"lenient": 1}, "lenient"),
            ({"actions": [[5, "f"], [4, "s"]]}, "out of time order"),
            ({"actions": [[5, "x"]]}, "action 0"),
            ({"actions": [[True, "f"]]}, "action 0"),
            ({"extra": 1}, "unknown"),
        ],
    )
    def test_a_tampered_field_is_refused_with_its_reason(self, finished, changes, reason):
        with pytest.raises(ReplayError, match=reason):
            Replay.from_json(self.mutate(finished, **changes))

    def test_a_flip_when_it_was_not_the_humans_turn_is_refused(self):
        game = Game(2, speed="normal")
        turn_not_south = next(
            t
            for t in range(0, 30_000, 10)
            if (game.advance_to(t) or True) and not game.human_must_flip
        )
        record = Replay(
            seed=2,
            mode="practice",
            speed="normal",
            lenient=False,
            date=None,
            actions=((turn_not_south, "f"),),
        )
        with pytest.raises(ReplayError, match="action 0 .*turn"):
            record.play()

    def test_a_daily_record_for_another_seed_is_refused(self):
        with pytest.raises(ReplayError, match="not the daily deal"):
            Replay(seed=1, mode="daily", speed="normal", lenient=False, date="2026-11-30").play()

    def test_a_daily_record_at_another_speed_is_refused(self):
        seed = Game.daily("2026-11-30").seed
        with pytest.raises(ReplayError, match="normal speed"):
            Replay(seed=seed, mode="daily", speed="fast", lenient=False, date="2026-11-30").play()

    @pytest.mark.parametrize(
        "garbage", ["", "[]", "{", "null", "\x00\xff", "1e999", '{"format":1}']
    )
    def test_garbage_gets_a_json_error_answer_from_the_bridge(self, garbage):
        answer = json.loads(bridge_verify(garbage))
        assert answer["ok"] is False and answer["error"]["code"] == "invalid_replay"
        assert answer["error"]["message"]
