"""Computer players (docs/rules.md "The computer players"): they flip after a short human-like delay,
slap with a reaction delay and a chance to miss, now and then slap wrongly on a near miss;
the speed setting changes how fast and how reliably they slap; daily games are at normal
speed."""

from __future__ import annotations

import statistics

import pytest
from support import EAST, NORTH, SOUTH, WEST, make_game, run_until, scheduled

from ewar import cpu
from ewar.errors import InvalidModeError, InvalidSpeedError
from ewar.game import CPU_SEATS, Game

SEEDS = range(300)


def after_west_flips(seed: int, speed: str, west_card: str):
    """South flips 5C at 0 ms; returned one ms after West flips ``west_card`` on it."""
    game = make_game(
        "5C 9C 8C 2C",
        f"{west_card} 2D 3D",
        "4H 6H 7H",
        "10S 6S 4S",
        first=SOUTH,
        seed=seed,
        speed=speed,
    )
    game.flip(0)
    run_until(game, lambda g: len(g.table.pile) == 2)
    return game


def reactions(speed: str, west_card: str = "5D") -> tuple[list[int], float]:
    """Slap delays after the card, and the share of chances not taken, over many seeds."""
    delays, chances = [], 0
    for seed in SEEDS:
        game = after_west_flips(seed, speed, west_card)
        delays += [when - game.last_flip_ms for when, _ in scheduled(game, "slap")]
        chances += 3
    return delays, 1 - len(delays) / chances


class TestFlipping:
    """They flip after a short human-like delay when it is their turn or they pay."""

    def test_flip_delays_are_short_but_not_instant(self):
        for seed in range(100):
            game = after_west_flips(seed, "normal", "7D")
            ((when, seat),) = scheduled(game, "flip")
            assert seat == 2 and 250 <= when - game.last_flip_ms <= 1500

    def test_they_flip_when_they_pay(self):
        game = make_game("KC 2C", "3D 4D 5D", "6H", "7S", first=SOUTH)
        game.flip(0)
        run_until(game, lambda g: g.table.collector is not None)
        assert [e["seat"] for e in game.take_events() if e["type"] == "flip"] == [
            "south",
            "west",
            "west",
            "west",
        ]


class TestSlapping:
    """They slap valid patterns after a reaction delay, and sometimes miss them."""

    def test_they_react_after_a_delay(self):
        delays, _ = reactions("normal")
        assert min(delays) >= 150  # no computer slaps faster than a quick human

    def test_they_sometimes_miss(self):
        _, missed = reactions("normal")
        assert 0 < missed < 0.5

    def test_they_now_and_then_slap_a_near_miss(self):
        delays, declined = reactions("normal", west_card="6D")  # 5C then 6D: a near miss
        assert delays and declined > 0.8

    def test_they_never_slap_when_nothing_is_near(self):
        delays, _ = reactions("normal", west_card="10D")  # 5C then 10D
        assert delays == []


class TestSpeedSetting:
    """Slow, normal and fast change how fast and how reliably they slap."""

    def test_faster_settings_slap_sooner(self):
        means = [statistics.mean(reactions(speed)[0]) for speed in ("slow", "normal", "fast")]
        assert means[0] > means[1] > means[2]

    def test_faster_settings_miss_less(self):
        misses = [reactions(speed)[1] for speed in ("slow", "normal", "fast")]
        assert misses[0] > misses[1] > misses[2]

    @pytest.mark.parametrize("speed", ["turbo", "", None, "Normal"])
    def test_unknown_speeds_are_refused(self, speed):
        with pytest.raises(InvalidSpeedError):
            Game(1, speed=speed)


def seat_reactions(speed: str, west_card: str = "5D") -> dict[int, list[int]]:
    """Each computer player's slap delays after the card, over many seeds."""
    delays = {seat: [] for seat in CPU_SEATS}
    for seed in SEEDS:
        game = after_west_flips(seed, speed, west_card)
        for when, seat in scheduled(game, "slap"):
            delays[seat].append(when - game.last_flip_ms)
    return delays


class TestPersonalities:
    """West is eager and error-prone, North steady, East dreamy."""

    def test_west_is_quickest_and_east_slowest(self):
        for speed in cpu.SPEEDS:
            delays = seat_reactions(speed)
            medians = [statistics.median(delays[seat]) for seat in CPU_SEATS]
            assert medians[0] < medians[1] < medians[2], speed

    def test_north_misses_least(self):
        delays = seat_reactions("normal")
        assert len(delays[NORTH]) > len(delays[WEST]) and len(delays[NORTH]) > len(delays[EAST])

    def test_west_slaps_near_misses_most(self):
        wrong = seat_reactions("normal", west_card="6D")
        assert len(wrong[WEST]) > len(wrong[NORTH]) and len(wrong[WEST]) > len(wrong[EAST])


class TestForm:
    """Each game the computer players have a form, drawn from the seed, that scales their
    slap reactions from sharp (0.7) to sleepy (1.3)."""

    def test_the_seed_sets_the_form_and_forms_vary(self):
        forms = [Game(seed).form for seed in range(400)]
        assert forms == [Game(seed).form for seed in range(400)]
        low, high = cpu.FORM_PERMILLE
        assert all(low <= form <= high for form in forms)
        assert min(forms) < 760 and max(forms) > 1240

    def test_the_form_scales_every_slap(self):
        for seed in SEEDS:
            game = after_west_flips(seed, "normal", "5D")
            for when, seat in scheduled(game, "slap"):
                temper = cpu.TABLES["normal"][seat - 1]
                delay = when - game.last_flip_ms
                quickest = temper.quickest_ms * game.form // 1000
                slowest = (temper.quickest_ms + 2 * temper.spread_ms - 2) * game.form // 1000
                assert quickest <= delay <= slowest


class TestTypicalSlap:
    """The typical slap each speed quotes (the page compares the player's reactions with it)
    is the median computer slap delay of its tables."""

    @pytest.mark.parametrize("speed", cpu.SPEEDS)
    def test_the_quoted_figure_is_the_tables_median(self, speed):
        assert cpu.TYPICAL_SLAP_MS[speed] == cpu.slap_median(speed)

    def test_it_matches_what_the_players_do(self):
        for speed in cpu.SPEEDS:
            delays = [d for seat in seat_reactions(speed).values() for d in seat]
            assert abs(statistics.median(delays) - cpu.TYPICAL_SLAP_MS[speed]) < 40, speed

    def test_slower_speeds_slap_later(self):
        typical = cpu.TYPICAL_SLAP_MS
        assert typical["slow"] > typical["normal"] > typical["fast"]


class TestDailySpeed:
    """Daily games are always at normal speed."""

    def test_the_daily_game_is_at_normal_speed(self):
        assert Game.daily("2026-11-30").view()["speed"] == "normal"

    @pytest.mark.parametrize("speed", ["slow", "fast"])
    def test_a_daily_game_at_another_speed_is_refused(self, speed):
        with pytest.raises(InvalidModeError):
            Game(0, mode="daily", date="2026-11-30", speed=speed)
