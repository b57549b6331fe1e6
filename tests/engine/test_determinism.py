"""Determinism (docs/rules.md "The computer players"): "The same seed and the same human actions give
the same computer reactions, on every machine and in every browser". How often the page asks
for a frame must not matter either."""

from __future__ import annotations

import hashlib
import json
import random

import pytest
from support import run_python

from ewar.game import Game
from ewar.replay import Replay
from tools.harness.players import play_simulated_human


def simulated(seed: int, speed: str = "normal") -> Game:
    return play_simulated_human(Game(seed, speed=speed), reaction_ms=300, flip_ms=350)


def all_events(game: Game) -> list[dict]:
    return game.take_events()


def replay_with_frames(seed: int, speed: str, actions, frames: random.Random) -> tuple:
    """Play the same actions, asking for frames at random moments in between."""
    game, events = Game(seed, speed=speed), []
    for time_ms, action in actions:
        while game.clock < time_ms and frames.random() < 0.9:
            game.advance_to(min(time_ms, game.clock + frames.choice([1, 1, 3, 17, 250, 4000])))
            events += game.take_events()
            random.random()  # stir the global generator: the engine must not use it
        getattr(game, "flip" if action == "f" else "slap")(time_ms)
        events += game.take_events()
    while not game.over:
        game.advance_to(game.next_event_time() + 1)
        events += game.take_events()
    return events, game.view()


class TestSameInputsSameGame:
    """The same seed and the same human actions give the same game."""

    @pytest.mark.parametrize("seed", [0, 7, 2026])
    def test_two_runs_are_identical(self, seed):
        a, b = simulated(seed), simulated(seed)
        assert a.actions == b.actions
        assert all_events(a) == all_events(b) and a.view() == b.view()

    @pytest.mark.parametrize("seed, speed", [(1, "normal"), (5, "fast"), (9, "slow")])
    def test_how_often_frames_are_asked_for_does_not_matter(self, seed, speed):
        reference = simulated(seed, speed)
        expected_events, expected_view = all_events(reference), reference.view()
        for pattern in range(3):
            events, view = replay_with_frames(
                seed, speed, reference.actions, random.Random(pattern)
            )
            assert events == expected_events
            assert view == expected_view

    def test_a_replay_rebuilds_the_same_game(self):
        game = simulated(11)
        rebuilt = Replay.from_json(Replay.of(game).to_json()).play()
        assert rebuilt.view() == game.view() and rebuilt.outcome == game.outcome

    def test_a_fresh_interpreter_plays_the_same_game(self):
        code = (
            "import hashlib, json; from ewar.game import Game; "
            "from tools.harness.players import play_simulated_human; "
            "g = play_simulated_human(Game(4242, speed='fast'), reaction_ms=300, "
            "flip_ms=350); print(hashlib.sha256(json.dumps(g.take_events()).encode())"
            ".hexdigest())"
        )
        local = hashlib.sha256(json.dumps(all_events(simulated(4242, "fast"))).encode())
        for hashseed in ("1", "98765"):
            out = run_python("-c", code, hashseed=hashseed)
            assert out.returncode == 0, out.stderr
            assert out.stdout.strip() == local.hexdigest()

    def test_different_seeds_give_different_computer_reactions(self):
        assert all_events(simulated(1)) != all_events(simulated(2))
