"""Watching a recorded game (ewar/watch.py): the table at any moment is the table the player
saw then, jumping is the same as playing there, marks tell every slap, and nothing changes."""

from __future__ import annotations

import json

import pytest

from ewar.errors import ReplayError
from ewar.game import Game
from ewar.replay import Replay
from ewar.watch import Watch, watch
from tools.harness.players import HumanLikePlayer, play


def finished_game(seed: int = 11, median_ms: int = 520) -> Game:
    return play(Game(seed), HumanLikePlayer(median_ms, seed))


class TestTimeline:
    def test_marks_every_slap_with_who_and_how_quickly(self) -> None:
        game = finished_game()
        events = [dict(e) for e in Replay.of(game).play().take_events()]
        shown = Watch(Replay.of(game))
        slaps = [m for m in shown.marks if m["type"] == "slap_won"]
        assert slaps == [
            {k: e[k] for k in ("t", "type", "seat", "pattern", "reaction_ms")}
            for e in events
            if e["type"] == "slap_won"
        ]
        assert slaps, "a game of this length has slaps to mark"
        assert {m["seat"] for m in slaps} >= {"south"}

    def test_wrong_slaps_carry_their_reason(self) -> None:
        # a player who slaps near misses often: some of its slaps are wrong
        game = play(Game(5), HumanLikePlayer(480, 5, near_miss=0.6))
        wrong = [m for m in Watch(Replay.of(game)).marks if m["type"] == "wrong_slap"]
        assert wrong and all(m["reason"] for m in wrong)
        assert "cards" not in wrong[0]

    def test_the_timeline_ends_with_the_result(self) -> None:
        game = finished_game()
        shown = Watch(Replay.of(game))
        last = shown.marks[-1]
        assert last["type"] == "game_over" and last["t"] == shown.duration_ms
        assert shown.duration_ms == game.outcome.duration_ms
        assert last["score"] == game.outcome.score.total
        assert shown.timeline()["seed"] == game.seed and shown.timeline()["marks"] == shown.marks


class TestPlayingBack:
    def test_playing_forward_tells_the_same_events_as_the_game(self) -> None:
        game = finished_game(seed=23)
        original = Replay.of(game).play().take_events()
        shown, told = Watch(Replay.of(game)), []
        for moment in range(0, game.outcome.duration_ms + 2000, 997):
            told += shown.frame(moment)["events"]
        assert told == original

    def test_the_end_is_the_games_end(self) -> None:
        game = finished_game(seed=29)
        end = Watch(Replay.of(game)).frame(10**9)["view"]
        assert end["over"] and end["result"] == game.outcome.to_dict()

    def test_a_jump_back_shows_what_playing_there_shows(self) -> None:
        game = finished_game(seed=31)
        record = Replay.of(game)
        middle = game.outcome.duration_ms // 2
        straight = Watch(record).frame(middle)["view"]
        shown = Watch(record)
        shown.frame(game.outcome.duration_ms)
        jumped = shown.seek(middle)
        assert jumped == {"view": straight, "events": []}
        assert shown.clock == middle
        # and on from there, as if never jumped
        assert shown.frame(middle + 3000)["view"] == Watch(record).frame(middle + 3000)["view"]

    def test_a_frame_before_the_clock_is_a_jump(self) -> None:
        game = finished_game(seed=37)
        shown = Watch(Replay.of(game))
        shown.frame(20_000)
        assert shown.frame(5_000) == Watch(Replay.of(game)).seek(5_000)

    def test_a_moment_inside_the_game_shows_the_table_the_player_saw(self) -> None:
        game, player, seen = Game(41), HumanLikePlayer(600, 41), {}
        actions_seen = [0]

        def keep(at: Game) -> None:
            # after a step of time (not an action), the view is what showed until the next step
            if len(at.actions) == actions_seen[0]:
                seen.setdefault(at.clock, at.view())
            actions_seen[0] = len(at.actions)

        play(game, player, after_each=keep)
        shown = Watch(Replay.of(game))
        checked = 0
        for clock, view in sorted(seen.items()):
            if clock < game.outcome.duration_ms and clock % 7 == 0:
                assert shown.frame(clock)["view"] == view
                checked += 1
        assert checked > 5


class TestNothingChanges:
    def test_the_record_is_untouched(self) -> None:
        game = finished_game(seed=43)
        text = Replay.of(game).to_json()
        shown = watch(text)
        shown.frame(shown.duration_ms)
        shown.seek(0)
        assert Replay.of(game).to_json() == text
        assert shown.record.to_json() == text


class TestRefused:
    def test_an_unfinished_game(self) -> None:
        game = Game(3)
        game.advance_to(1)
        with pytest.raises(ReplayError, match="finished"):
            watch(Replay.of(game).to_json())

    def test_a_malformed_record(self) -> None:
        with pytest.raises(ReplayError):
            watch("{not json")
        with pytest.raises(ReplayError):
            watch(json.dumps({"engine": "0.0.1", "actions": []}))

    @pytest.mark.parametrize("moment", ["10", 1.5, True, None])
    def test_a_moment_that_is_not_whole_milliseconds(self, moment) -> None:
        shown = Watch(Replay.of(finished_game(seed=47)))
        with pytest.raises(ReplayError, match="milliseconds"):
            shown.frame(moment)
