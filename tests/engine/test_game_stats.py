"""End-of-game statistics in the result (issue 13): the human's cards won, burns, slap-backs
and reactions (count, median, best) and the CPU speed those reactions match."""

from __future__ import annotations

import pytest
from support import SOUTH, WEST, events_of, make_game, run_until

from ewar import cpu
from ewar.game import Game
from ewar.stats import matching_speed, median_ms
from tools.harness.players import play_simulated_human


def south(events: list[dict], kind: str) -> list[dict]:
    return [event for event in events_of(events, kind) if event["seat"] == "south"]


class TestStatsOfAGame:
    @pytest.mark.parametrize(
        "seed, speed, reaction", [(2, "normal", 330), (6, "fast", 260), (11, "slow", 420)]
    )
    def test_they_add_up_what_the_events_said(self, seed, speed, reaction):
        game = play_simulated_human(Game(seed, speed=speed), reaction_ms=reaction)
        events = game.take_events()
        stats = game.view()["result"]["stats"]
        taken = south(events, "pile_taken")
        assert stats["cards_won"] == sum(event["cards"] for event in taken)
        assert stats["piles_won"] == len(taken)
        assert stats["burns"] == sum(event["burned"] for event in south(events, "wrong_slap"))
        reactions = [event["reaction_ms"] for event in south(events, "slap_won")]
        summary = stats["reactions"]
        assert summary["count"] == len(reactions) == game.table.slaps_won[SOUTH] > 0
        assert summary["best_ms"] == min(reactions) and summary["median_ms"] == median_ms(reactions)
        assert reaction - 1 <= summary["median_ms"] <= reaction  # the exact player's own time
        assert summary["speed"] == matching_speed(summary["median_ms"])
        assert summary["speed_slap_ms"] == cpu.TYPICAL_SLAP_MS[summary["speed"]]

    def test_a_slap_back_is_counted(self):
        game = make_game("", "7D 2D", "7H 4H", "5S 6S", first=WEST)
        run_until(game, lambda g: g.table.pattern() is not None)
        game.slap(game.clock)
        game.resign(game.clock + 1)
        stats = game.view()["result"]["stats"]
        assert stats["slap_backs"] == 1 and stats["cards_won"] == 2 and stats["burns"] == 0

    def test_a_pile_taken_back_after_a_challenge_is_not_a_slap_back(self):
        # South's last card is a jack: West pays 2D, South takes the pile and is back in
        game = make_game("JC", "2D 3D", "4H", "5S", first=SOUTH)
        game.flip(0)
        run_until(game, lambda g: g.table.packs[SOUTH])
        game.resign(game.clock)
        stats = game.view()["result"]["stats"]
        assert stats["slap_backs"] == 0 and stats["cards_won"] == 2 and stats["piles_won"] == 1

    def test_no_valid_slap_no_reaction_figures(self):
        game = make_game("2C 3C", "4D", "5H", "6S")
        game.slap(0)
        game.resign(1)
        stats = game.view()["result"]["stats"]
        assert stats["burns"] == 1
        assert stats["reactions"] == {
            "count": 0,
            "median_ms": None,
            "best_ms": None,
            "speed": None,
            "speed_slap_ms": None,
        }


class TestMedian:
    @pytest.mark.parametrize(
        "values, median",
        [
            ([], None),
            ([5], 5),
            ([9, 1, 5], 5),
            ([1, 2], 1),
            ([1, 4], 2),
            ([400, 300, 200, 100], 250),
        ],
    )
    def test_whole_milliseconds_rounded_down(self, values, median):
        assert median_ms(values) == median


class TestMatchingSpeed:
    def test_each_speed_matches_its_own_typical_slap(self):
        for speed in cpu.SPEEDS:
            assert matching_speed(cpu.TYPICAL_SLAP_MS[speed]) == speed

    def test_slower_and_faster_than_every_speed(self):
        assert matching_speed(5000) == "slow" and matching_speed(50) == "fast"
