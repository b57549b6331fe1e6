"""CPU speeds for real people (issue 11): a human-like player (tools/harness/players.py) wins about
half its games at 850 ms against slow, 600 ms against normal and 430 ms against fast, and the
curve is gentle. Bands on a fixed sample of deals (the benchmark plays 1,000 a point:
benchmarks/cpu_speeds.py)."""

from __future__ import annotations

import functools

import pytest

from ewar.game import Game
from tools.harness.players import play_human_like

SAMPLE = range(80)
HALF_POINTS = {"slow": 850, "normal": 600, "fast": 430}


@functools.cache
def win_share(speed: str, median_ms: int) -> float:
    wins = sum(
        play_human_like(Game(seed, speed=speed), median_ms, seed * 7919 + median_ms).outcome.won
        for seed in SAMPLE
    )
    return wins / len(SAMPLE)


@pytest.mark.parametrize("speed", HALF_POINTS)
def test_a_player_at_the_speeds_half_point_wins_about_half(speed):
    assert 0.3 <= win_share(speed, HALF_POINTS[speed]) <= 0.7


@pytest.mark.parametrize("speed", HALF_POINTS)
def test_quicker_players_win_more_and_slower_ones_less(speed):
    half = HALF_POINTS[speed]
    assert win_share(speed, half - 150) >= 0.65
    assert win_share(speed, half + 150) <= 0.35


def test_the_daily_speed_is_gentle_at_both_ends():
    """At normal, a sharp 450 ms player still loses some games and a 750 ms one wins some."""
    assert win_share("normal", 450) <= 0.95
    assert win_share("normal", 750) >= 0.05
