"""Same seed and same timed human actions give the identical game, whatever the call
pattern: advancing in 1 ms steps, in big jumps or only at the human's actions."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from ewar.deal import MAX_SEED
from ewar.errors import IllegalActionError
from ewar.game import Game
from ewar.replay import Replay
from tools.harness.players import play_simulated_human

SPEEDS = st.sampled_from(["slow", "normal", "fast"])


def timed_actions(seed: int, count: int, horizon_ms: int) -> list[tuple[int, str]]:
    """Human actions at random times, mostly flips: some are refused, which is part of the test."""
    chooser = random.Random(seed)
    times = sorted(chooser.randrange(horizon_ms) for _ in range(count))
    return [(t, chooser.choice("ffs")) for t in times]


def run(game: Game, actions, stops, end: int = 200_000) -> list:
    """Apply ``actions`` while also advancing to every time in ``stops``, then to ``end``;
    record it all."""
    trace = []
    pending = sorted([(t, 1, a) for t, a in actions] + [(t, 0, None) for t in stops])
    for time_ms, kind, action in pending:
        if kind == 0:
            game.advance_to(time_ms)
            continue
        try:
            (game.flip if action == "f" else game.slap)(time_ms)
            trace.append((time_ms, action, "ok"))
        except IllegalActionError as error:
            trace.append((time_ms, action, error.code))
    game.advance_to(end)
    return [trace, game.take_events(), game.view(), game.rng.state]


def cumulative(jumps: list[int]) -> list[int]:
    stops, t = [], 0
    for jump in jumps:
        t += jump
        stops.append(t)
    return stops


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, MAX_SEED),
    speed=SPEEDS,
    action_seed=st.integers(0, 10**6),
    jumps=st.lists(st.integers(1, 5000), min_size=1, max_size=40),
)
def test_big_jumps_between_actions_do_not_change_the_game(seed, speed, action_seed, jumps):
    actions = timed_actions(action_seed, 300, 60_000)
    only_actions = run(Game(seed, speed=speed), actions, [])
    assert sum(result == "ok" for _, _, result in only_actions[0]) >= 10
    assert run(Game(seed, speed=speed), actions, cumulative(jumps)) == only_actions


@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, MAX_SEED), action_seed=st.integers(0, 10**6))
def test_one_millisecond_steps_match_advancing_only_at_actions(seed, action_seed):
    actions = timed_actions(action_seed, 20, 8_000)
    assert run(Game(seed), actions, range(1, 8_000)) == run(Game(seed), actions, [])


@settings(max_examples=15, deadline=None)
@given(
    seed=st.integers(0, MAX_SEED),
    speed=SPEEDS,
    jumps=st.lists(st.integers(1, 3000), min_size=1, max_size=30),
)
def test_a_whole_bot_game_replays_identically_with_any_granularity(seed, speed, jumps):
    original = play_simulated_human(Game(seed, speed=speed), reaction_ms=420)
    end = original.outcome.duration_ms + 1
    again = Game(seed, speed=speed)
    run(again, original.actions, [s for s in cumulative(jumps) if s < end], end=end)
    replayed = Replay.of(original).play()
    for game in (again, replayed):
        assert game.outcome == original.outcome
        assert game.view() == original.view()


def test_stirring_the_global_random_changes_nothing():
    def play(stir: bool):
        game = Game(2024, speed="normal")
        log = []
        for step in range(1, 400):
            if stir:
                random.seed(step)
                random.random()
            game.advance_to(step * 97)
            if game.human_must_flip:
                game.flip(game.clock)
            log.append((game.view(), game.take_events()))
        return log

    random.seed(1)
    first = play(stir=False)
    assert play(stir=True) == first
