"""Resume and resign (issue 13): a running game rebuilt from its saved record and clock is the
same game, now and from then on; giving up ends the game as a loss that replays and that the
score judge accepts."""

from __future__ import annotations

import json
import random

import pytest
from support import events_of, make_game

from ewar import bridge
from ewar.errors import GameOverError, ReplayError, TimeBeforeClockError
from ewar.game import Game
from ewar.replay import Replay
from tools.harness.players import play_simulated_human


def page_like(game: Game, actions, until_ms: int, frames: random.Random) -> list[dict]:
    """Apply the actions up to ``until_ms`` with frames at random moments, as a page would;
    then advance to ``until_ms``. Returns the events handed over."""
    events = []
    for time_ms, action in actions:
        if time_ms > until_ms:
            break
        while game.clock < time_ms and frames.random() < 0.7:
            game.advance_to(min(time_ms, game.clock + frames.choice([1, 16, 17, 250, 2000])))
            events += game.take_events()
        game.act(time_ms, action)
        events += game.take_events()
    game.advance_to(until_ms)
    return events + game.take_events()


def play_on(game: Game, actions, after_ms: int) -> list[dict]:
    """Apply the actions after ``after_ms``, then let the game run to its end."""
    for time_ms, action in actions:
        if time_ms > after_ms:
            game.act(time_ms, action)
    while not game.over:
        game.advance_to(game.next_event_time() + 1)
    return game.take_events()


def internals(game: Game) -> tuple:
    return (
        game.view(),
        game.rng.state,
        game._queue,
        game.reactions,
        game.patterns.windows,
        game.wrong_slaps,
        game.last_flip_ms,
        game.last_change_ms,
    )


class TestResume:
    """``bridge.resume(record, clock)`` gives back the same game at the same clock."""

    @pytest.mark.parametrize(
        "seed, speed, share", [(3, "normal", 0.3), (17, "fast", 0.6), (40, "slow", 0.9)]
    )
    def test_the_rebuilt_game_is_the_original_now_and_later(self, seed, speed, share):
        finished = play_simulated_human(Game(seed, speed=speed), reaction_ms=380, flip_ms=320)
        actions = finished.actions
        saved_at = int(finished.outcome.duration_ms * share) + 7  # not on an action's time
        original = Game(seed, speed=speed)
        page_like(original, actions, saved_at, random.Random(seed))
        record = Replay.of(original).to_json()

        session = bridge.resume(record, saved_at)
        resumed = session.game
        assert resumed.clock == original.clock == saved_at
        assert internals(resumed) == internals(original)
        assert resumed.take_events() == []  # what came before was shown already

        future = play_on(original, actions, saved_at)
        assert play_on(resumed, actions, saved_at) == future
        assert resumed.outcome == original.outcome == finished.outcome

    def test_through_the_bridge_the_page_sees_the_same_view_and_frames(self):
        session = bridge.new_game("daily", date="2026-11-30")
        time_ms = 0
        for _ in range(60):
            view = json.loads(session.frame(time_ms))["view"]
            if view["your_turn"]:
                session.flip(time_ms + 300)
            time_ms = max(time_ms + 300, view["wake_at"] or 0)
        resumed = bridge.resume(session.replay(), time_ms)
        assert resumed.view() == session.view()
        for later in (time_ms + 1, time_ms + 700, time_ms + 5000):
            assert resumed.frame(later) == session.frame(later)

    def test_a_finished_game_resumes_finished(self):
        finished = play_simulated_human(Game(5), reaction_ms=300)
        resumed = bridge.resume(Replay.of(finished).to_json(), finished.outcome.duration_ms + 99)
        assert resumed.game.outcome == finished.outcome
        assert json.loads(resumed.view())["over"] is True

    def test_a_clock_before_the_last_action_is_refused(self):
        finished = play_simulated_human(Game(5), reaction_ms=300)
        last = finished.actions[-1][0]
        with pytest.raises(TimeBeforeClockError):
            bridge.resume(Replay.of(finished).to_json(), last - 1)

    @pytest.mark.parametrize("text", ["", "{}", '{"engine": "0.1.0", "actions": []}'])
    def test_a_bad_record_is_refused(self, text):
        with pytest.raises(ReplayError):
            bridge.resume(text, 0)

    def test_a_whole_javascript_number_for_the_clock_is_fine(self):
        game = Game(8)
        game.advance_to(4000)
        resumed = bridge.resume(Replay.of(game).to_json(), 4000.0)
        assert resumed.game.clock == 4000


class TestResign:
    """The human gives up: the game is over, lost, with reason ``resigned``."""

    def test_it_ends_the_game_as_a_loss_scored_by_piles(self):
        game = play_simulated_human(Game(9), reaction_ms=250)  # to learn its actions
        half = [a for a in game.actions if a[0] < game.outcome.duration_ms // 2]
        again = Game(9)
        for time_ms, action in half:
            again.act(time_ms, action)
        resign_at = half[-1][0] + 50
        again.resign(resign_at)
        outcome = again.outcome
        assert outcome.won is False and outcome.reason == "resigned" and outcome.winner is None
        assert outcome.duration_ms == resign_at
        assert outcome.score.total == 25 * again.table.slaps_won[0]
        (over,) = events_of(again.take_events(), "game_over")
        assert over["reason"] == "resigned" and over["won"] is False
        assert again.actions[-1] == (resign_at, "r")

    def test_it_replays_and_nothing_may_follow_it(self):
        game = make_game("2C 3C", "4D", "5H", "6S")
        game.flip(10)
        game.resign(900)
        record = Replay.of(game)
        assert record.to_dict()["actions"] == [[10, "f"], [900, "r"]]
        replayed = Replay(
            seed=1, mode="practice", speed="normal", lenient=False, date=None, actions=((0, "r"),)
        ).play()
        assert replayed.outcome.reason == "resigned"
        with pytest.raises(ReplayError, match="action 1 .*over"):
            Replay(
                seed=1,
                mode="practice",
                speed="normal",
                lenient=False,
                date=None,
                actions=((0, "r"), (5, "s")),
            ).play()

    def test_after_the_end_it_is_refused_and_changes_nothing(self):
        game = make_game("2C 3C", "4D", "5H", "6S")
        game.resign(100)
        with pytest.raises(GameOverError):
            game.resign(200)
        assert game.actions == [(100, "r")] and game.clock == 100

    def test_a_resigned_daily_is_judged_like_any_loss(self):
        game = Game.daily("2026-11-30")
        game.advance_to(30_000)
        game.resign(30_000)
        answer = json.loads(bridge.judge_daily(Replay.of(game).to_json(), "2026-11-30", 0))
        assert answer["ok"] is True and answer["won"] is False and answer["reason"] == "resigned"

    def test_through_the_bridge(self):
        session = bridge.new_game("practice", seed=4)
        answer = json.loads(session.resign(1200))
        assert answer["ok"] is True and answer["view"]["over"] is True
        assert answer["view"]["result"]["reason"] == "resigned"
        assert [e["type"] for e in answer["events"]][-1] == "game_over"
        again = json.loads(session.resign(1300))
        assert again["ok"] is False and again["error"]["code"] == "game_over"
        assert json.loads(session.replay())["actions"] == [[1200, "r"]]
