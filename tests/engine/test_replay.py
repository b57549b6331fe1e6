"""Replays: a game exports as a compact JSON record and imports back into the
identical game; a tampered or impossible record is refused with its reason."""

import json

import pytest

from ewar import __version__
from ewar.bridge import verify as bridge_verify
from ewar.errors import ReplayError
from ewar.game import TIME_LIMIT_MS, Ending, Game
from ewar.replay import Replay, verify
from tools.harness.players import ExactPlayer, play_simulated_human


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


def _ended_by(reason: Ending) -> Game:
    """A real game (its deal from its seed, so a record can rebuild it) that ends by ``reason``."""
    if reason == Ending.RESIGNED:
        game = Game(12, speed="normal")
        game.resign(4_321)
        return game
    if reason == Ending.TIME_LIMIT:
        # a daily played sharply until the human leads on their turn, then left alone: the game
        # waits for their flip until the one-hour limit ends it, and they win as the leader
        game = Game.daily("2026-11-30")
        player = ExactPlayer(reaction_ms=260, flip_ms=350)
        while not game.over:
            counts = [len(pack) for pack in game.table.packs]
            if game.human_must_flip and counts[0] > max(counts[1:]):
                break
            plan = player.plan(game)
            upcoming = game.next_event_time()
            if plan is not None and (upcoming is None or plan[0] <= upcoming):
                game.act(plan[0], plan[1], atomic=False)
                player.acted(game, plan[1])
            else:
                game.advance_to(upcoming + 1)
        assert game.human_must_flip, "the sharp player should lead on a turn of theirs"
        game.advance_to(TIME_LIMIT_MS + 1)
        return game
    if reason == Ending.ELIMINATED:
        # slaps wrongly whenever nothing shows: burns every card, then a wrong slap with none
        game = Game(5, speed="fast")
        while not game.over:
            if game.human_must_flip:
                game.flip(game.clock + 300)
            elif game.table.pattern() is None and game.table.collector is None:
                game.slap(game.clock + 1)
            else:
                game.advance_to(game.clock + 400)
        return game
    reaction = {Ending.WON: 240, Ending.CPU_WON: 2_000}[reason]
    return play_simulated_human(Game(31, speed="fast"), reaction_ms=reaction)


@pytest.mark.parametrize("reason", list(Ending))
def test_a_record_replays_to_the_same_ending(reason):
    """Every way a game ends comes back from its record, the one-hour limit included (issue 30)."""
    game = _ended_by(reason)
    assert game.outcome.reason == reason
    record = Replay.from_json(Replay.of(game).to_json())
    again = record.play()
    assert again.outcome == game.outcome
    report = verify(record)
    assert report["finished"] is True and report["result"] == game.outcome.to_dict()


def test_only_a_game_that_ran_to_the_limit_says_so():
    game = _ended_by(Ending.TIME_LIMIT)
    data = json.loads(Replay.of(game).to_json())
    assert data["to_limit"] is True
    assert "to_limit" not in json.loads(Replay.of(_ended_by(Ending.RESIGNED)).to_json())
    cut = dict(data, actions=data["actions"][:-1])
    del cut["to_limit"]
    assert verify(Replay.from_dict(cut))["finished"] is False  # cut short, it waits for the human
    with pytest.raises(ReplayError, match="to_limit is written only when true"):
        Replay.from_dict(dict(data, to_limit=False))
    resigned = json.loads(Replay.of(_ended_by(Ending.RESIGNED)).to_json())
    with pytest.raises(ReplayError, match="ran to the time limit, but it ended"):
        Replay.from_dict(dict(resigned, to_limit=True)).play()
