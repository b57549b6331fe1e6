"""Time (docs/rules.md "Time", "Slapping", "Pay cards and challenges"): slaps are settled in time order
to the millisecond, exact ties go to the human then clockwise from South, and the pile of a
won challenge can still be slapped during the pause before it is taken.

The engine's clock: ``advance_to(t)`` applies everything scheduled strictly before ``t``,
and a human action at ``t`` happens before anything scheduled at ``t``."""

from __future__ import annotations

import pytest
from support import EAST, NORTH, SEAT_NAMES, SOUTH, WEST, events_of, make_game, run_until, scheduled

from ewar.errors import NotYourTurnError
from ewar.patterns import TOO_LATE_WINDOW_MS

SEARCH = range(3000)


def double_after_west(seed: int, speed: str = "normal"):
    """South flips 5C at 0 ms, then West's 5D makes a Double; returned one ms after it."""
    game = make_game(
        "5C 9C 8C 2C", "5D 2D 3D", "4H 6H 7H", "10S 6S 4S", first=SOUTH, seed=seed, speed=speed
    )
    game.flip(0)
    run_until(game, lambda g: g.table.pattern() is not None)
    return game


def find(make, wanted):
    """The first game over the searched seeds for which ``wanted(game)`` holds."""
    for seed in SEARCH:
        game = make(seed)
        if wanted(game):
            return game
    raise AssertionError("no seed gives the situation this test needs")


def first_cpu_slap(game) -> tuple[int, int]:
    return min(scheduled(game, "slap"))


def slap_before_next_flip(game) -> bool:
    slaps, flips = scheduled(game, "slap"), scheduled(game, "flip")
    return bool(slaps) and min(slaps)[0] < min(flips)[0]


def winner_of_the_slap(game) -> str:
    won = events_of(game.take_events(), "slap_won")
    assert len(won) == 1
    return won[0]["seat"]


class TestTheClock:
    """A happening scheduled at t shows from t + 1; nothing happens in between."""

    def test_a_computer_flip_shows_one_ms_after_its_time(self):
        game = make_game("2C", "3D", "4H", "5S", first=WEST)
        due = game.next_event_time()
        assert game.view()["wake_at"] == due + 1
        game.advance_to(due)
        assert game.view()["pile"]["size"] == 0
        game.advance_to(due + 1)
        flips = events_of(game.take_events(), "flip")
        assert flips == [{"t": due, "type": "flip", "seat": "west", "card": "3D"}]

    def test_the_clock_is_where_it_was_advanced(self):
        game = make_game("2C", "3D", "4H", "5S", first=SOUTH)
        game.advance_to(12_345)
        assert game.clock == 12_345 and game.view()["clock"] == 12_345


class TestSlapsInTimeOrder:
    """Slaps are settled in time order, to the millisecond: the first valid one wins."""

    def test_the_earliest_computer_slap_wins(self):
        game = find(double_after_west, slap_before_next_flip)
        when, seat = first_cpu_slap(game)
        game.advance_to(when + 1)
        assert winner_of_the_slap(game) == SEAT_NAMES[seat]

    def test_the_human_one_ms_before_the_computer_wins(self):
        game = find(double_after_west, slap_before_next_flip)
        when, _ = first_cpu_slap(game)
        game.slap(when - 1)
        assert winner_of_the_slap(game) == "south"

    def test_the_human_one_ms_after_the_computer_is_too_late(self):
        game = find(double_after_west, slap_before_next_flip)
        when, seat = first_cpu_slap(game)
        game.slap(when + 1)
        events = game.take_events()
        assert [e["seat"] for e in events_of(events, "slap_won")] == [SEAT_NAMES[seat]]
        (late,) = events_of(events, "late_slap")  # too late for the pile: no cost
        assert late["seat"] == "south" and late["ms"] == 1 and not events_of(events, "wrong_slap")

    def test_later_computer_slaps_on_the_same_cards_do_not_happen(self):
        game = find(
            double_after_west, lambda g: slap_before_next_flip(g) and len(scheduled(g, "slap")) == 3
        )
        when, _ = first_cpu_slap(game)
        game.advance_to(when + 1)
        assert scheduled(game, "slap") == []


class TestExactTies:
    """Exact ties go to the human, then clockwise from South."""

    def test_a_human_slap_at_the_same_ms_as_a_computer_slap_wins(self):
        game = find(double_after_west, slap_before_next_flip)
        when, seat = first_cpu_slap(game)
        game.slap(when)  # the computer's slap is due at this very ms
        assert winner_of_the_slap(game) == "south"
        view = game.view()
        assert view["turn"] == "south" and view["seats"][SOUTH]["cards"] == 3 + 2
        assert view["seats"][seat]["cards"] == len(game.deal.packs[seat]) - (seat == WEST)

    @pytest.mark.parametrize("speed", ["fast", "normal"])
    def test_computer_slaps_at_the_same_ms_go_clockwise_from_south(self, speed):
        def tied(game):
            slaps = sorted(scheduled(game, "slap"))
            return slap_before_next_flip(game) and len(slaps) >= 2 and slaps[0][0] == slaps[1][0]

        game = find(lambda seed: double_after_west(seed, speed), tied)
        when = first_cpu_slap(game)[0]
        tied_seats = {seat for t, seat in scheduled(game, "slap") if t == when}
        game.advance_to(when + 1)
        clockwise_first = min(tied_seats, key=lambda seat: [SOUTH, WEST, NORTH, EAST].index(seat))
        assert winner_of_the_slap(game) == SEAT_NAMES[clockwise_first]

    def test_a_human_slap_at_the_ms_of_a_burying_flip_still_sees_the_pattern(self):
        game = find(
            lambda seed: double_after_west(seed, "slow"), lambda g: not slap_before_next_flip(g)
        )
        ((flip_at, _),) = scheduled(game, "flip")
        game.slap(flip_at)
        assert winner_of_the_slap(game) == "south"

    def test_a_human_slap_just_after_a_burying_flip_is_too_late(self):
        game = find(
            lambda seed: double_after_west(seed, "slow"), lambda g: not slap_before_next_flip(g)
        )
        ((flip_at, _),) = scheduled(game, "flip")
        game.slap(flip_at + 1)
        events = game.take_events()
        assert events_of(events, "slap_won") == [] and events_of(events, "wrong_slap") == []
        assert events_of(events, "late_slap")[-1]["reason"] == "covered"

    def test_a_human_slap_after_the_window_of_a_burying_flip_is_wrong(self):
        game = find(
            lambda seed: double_after_west(seed, "slow"), lambda g: not slap_before_next_flip(g)
        )
        ((flip_at, _),) = scheduled(game, "flip")
        game.slap(flip_at + TOO_LATE_WINDOW_MS + 1)
        events = game.take_events()
        assert events_of(events, "slap_won") == []
        assert events_of(events, "wrong_slap")[-1]["seat"] == "south"


def sandwich_in_the_pause(seed: int, speed: str = "normal"):
    """West 9D, North's jack, East pays 9S: a Sandwich while North waits to take the pile."""
    game = make_game(
        "2C 3C 4C", "9D 5D 6D", "JH 7H 8H", "9S 10S 2S", first=WEST, seed=seed, speed=speed
    )
    run_until(game, lambda g: g.table.collector is not None)
    return game


class TestTheCollectionPause:
    """After a won challenge the challenger takes the pile after a short pause; during the
    pause the pile can still be slapped, and a valid slap wins it."""

    def test_the_pile_waits_and_shows_who_will_take_it(self):
        game = sandwich_in_the_pause(1)
        view = game.view()
        assert view["collecting"]["by"] == "north" and view["turn"] is None
        assert view["pile"]["top"] == ["9D", "JH", "9S"]
        assert scheduled(game, "flip") == []  # nobody flips during the pause

    def test_the_human_slapping_during_the_pause_wins_the_pile(self):
        game = sandwich_in_the_pause(1)
        east_paid_at = game.last_flip_ms  # the card that made the Sandwich
        game.slap(game.clock)
        events = game.take_events()
        assert events_of(events, "slap_won")[0] == {
            "t": game.clock,
            "type": "slap_won",
            "seat": "south",
            "pattern": "sandwich",
            "reaction_ms": game.clock - east_paid_at,
        }
        view = game.view()
        assert view["collecting"] is None and view["seats"][0]["cards"] == 6
        assert view["your_turn"] and scheduled(game, "collect") == []

    def test_a_computer_slapping_during_the_pause_wins_the_pile(self):
        game = find(sandwich_in_the_pause, lambda g: scheduled(g, "slap") != [])
        when, seat = first_cpu_slap(game)
        ((collect_at, _),) = scheduled(game, "collect")
        assert when < collect_at
        game.advance_to(collect_at + 1)
        events = game.take_events()
        assert [e["seat"] for e in events_of(events, "slap_won")] == [SEAT_NAMES[seat]]
        assert [e["how"] for e in events_of(events, "pile_taken")] == ["slap"]

    def test_a_slap_in_the_last_ms_of_the_pause_still_wins(self):
        game = find(
            lambda seed: sandwich_in_the_pause(seed, "slow"), lambda g: scheduled(g, "slap") == []
        )
        ((collect_at, _),) = scheduled(game, "collect")
        game.slap(collect_at)
        assert winner_of_the_slap(game) == "south"

    def test_a_slap_after_the_pause_is_too_late(self):
        game = find(
            lambda seed: sandwich_in_the_pause(seed, "slow"), lambda g: scheduled(g, "slap") == []
        )
        ((collect_at, _),) = scheduled(game, "collect")
        game.slap(collect_at + 1)
        events = game.take_events()
        assert [(e["seat"], e["how"]) for e in events_of(events, "pile_taken")] == [
            ("north", "challenge")
        ]
        assert events_of(events, "wrong_slap")[-1]["seat"] == "south"

    def test_the_human_cannot_flip_during_the_pause(self):
        game = make_game("JC 2C 3C", "4D 5D", "6H", "7S", first=SOUTH)
        game.flip(0)  # South's jack: West pays one card
        run_until(game, lambda g: g.table.collector is not None)
        with pytest.raises(NotYourTurnError) as caught:
            game.flip(game.clock)  # even the challenger waits for the pause to end
        assert "south" in str(caught.value) and "pile" in str(caught.value)
        ((collect_at, _),) = scheduled(game, "collect")
        game.flip(collect_at + 1)  # then the challenger flips next
        assert game.view()["pile"]["top"] == ["2C"]
