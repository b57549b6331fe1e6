"""What a slap's events tell the player (issue 13): a wrong slap says why it was wrong —
no pattern on top (naming the visible cards), too late (the pile was taken by a named seat
N ms earlier), covered (a card was flipped on the pattern N ms earlier), burned cards don't
count, an empty pile — and whether the slapper was out of cards; a won slap says how fast
it came after the card that made its pattern. No face-down card is ever named."""

from __future__ import annotations

import json

import pytest
from support import (
    EAST,
    NORTH,
    SOUTH,
    WEST,
    events_of,
    make_game,
    make_table,
    run_until,
    scheduled,
)

from ewar.deal import SEATS
from ewar.patterns import LATE_MS, TAKEN, TOO_LATE_WINDOW_MS, PatternLog, PatternWindow


def wrong_slap(game) -> dict:
    (event,) = events_of(game.take_events(), "wrong_slap")
    return event


def double_by_west(seed: int):
    """South flips 7C at 0 ms; returned one ms after West's 7D makes a Double on it."""
    game = make_game("7C 2C 3C", "7D 4D 5D", "8H 9H 10H", "JS QS KS", first=SOUTH, seed=seed)
    game.flip(0)
    run_until(game, lambda g: len(g.table.pile) == 2)
    game.take_events()
    return game


def double_by_east():
    """West 3D, North 5H, East 5S: a Double, and South must flip next."""
    game = make_game("2C 6C", "3D 7D", "5H 8H", "5S 9S", first=WEST)
    run_until(game, lambda g: len(g.table.pile) == 3)
    game.take_events()
    return game


class TestNoPatternOnTop:
    def test_the_visible_cards_are_named(self):
        game = make_game("2C 4C", "9D 5D", "3H", "6S", first=SOUTH)
        game.flip(0)
        run_until(game, lambda g: len(g.table.pile) == 2)
        game.take_events()
        game.slap(game.clock)
        event = wrong_slap(game)
        assert event["reason"] == "no_pattern" and event["cards"] == ["2C", "9D"]
        assert event["burned"] is True and event["out_of_cards"] is False

    def test_only_the_top_three_are_named(self):
        game = make_game("2C 6C", "3D 7D", "4H 8H", "9S 10S", first=SOUTH)
        game.flip(0)
        run_until(game, lambda g: len(g.table.pile) == 4)
        game.take_events()
        game.slap(game.clock)
        assert wrong_slap(game)["cards"] == ["3D", "4H", "9S"]


def beaten_by_a_computer(seed_range=range(100), cards=("7C 2C 3C", "7D 4D 5D")):
    """A game one ms after a computer player slapped West's Double first, and that slap's time
    and seat."""
    for seed in seed_range:
        game = make_game(*cards, "8H 9H 10H", "JS QS KS", first=SOUTH, seed=seed)
        game.flip(0)
        run_until(game, lambda g: len(g.table.pile) == 2)
        slaps = scheduled(game, "slap")
        if slaps:
            when, seat = min(slaps)
            game.advance_to(when + 1)
            game.take_events()
            return game, when, seat
    raise AssertionError("no computer player slapped the Double in 100 seeds")


class TestTooLate:
    """A slap within TOO_LATE_WINDOW_MS of another player's valid slap on the same pattern is too
    late, not wrong: nothing burned, no penalty, never an elimination."""

    @pytest.fixture(scope="class")
    def beaten(self):
        """A computer player slaps the Double first; the human slaps 12 ms later."""
        game, when, seat = beaten_by_a_computer()
        cards = game.table.card_count(), list(game.table.packs[SOUTH])
        game.slap(when + 12)
        return game, game.take_events(), seat, cards

    def test_it_names_who_was_first_and_by_how_much(self, beaten):
        _, events, seat, _ = beaten
        (event,) = events
        assert event == {
            "t": event["t"],
            "type": "late_slap",
            "seat": "south",
            "pattern": "double",
            "reason": "too_late",
            "by": SEATS[seat],
            "ms": 12,
        }

    def test_it_costs_nothing(self, beaten):
        game, _, _, (count, pack) = beaten
        assert game.wrong_slaps == 0 and game.late_slaps == 1
        assert list(game.table.packs[SOUTH]) == pack and game.table.burned == 0
        assert game.view()["wrong_slaps"] == 0 and game.table.card_count() == count

    def test_the_window_s_last_millisecond_is_still_too_late(self):
        game, when, _ = beaten_by_a_computer()
        game.slap(when + TOO_LATE_WINDOW_MS)
        assert [e["type"] for e in game.take_events()] == ["late_slap"]

    def test_after_the_window_it_is_a_wrong_slap_as_the_rule_book_has_it(self):
        game, when, seat = beaten_by_a_computer()
        game.slap(when + TOO_LATE_WINDOW_MS + 1)
        event = wrong_slap(game)
        assert event["reason"] == "too_late" and event["by"] == SEATS[seat]
        assert event["ms"] == TOO_LATE_WINDOW_MS + 1 and event["burned"] is True
        assert game.wrong_slaps == 1

    def test_with_no_cards_left_it_does_not_eliminate(self):
        # South's only card is flipped first: out of cards, then beaten to West's Double
        game, when, _ = beaten_by_a_computer(cards=("7C", "7D 4D 5D"))
        assert not game.table.packs[SOUTH]
        game.slap(when + 100)
        assert [e["type"] for e in game.take_events()] == ["late_slap"]
        assert not game.table.eliminated[SOUTH] and not game.over

    def test_with_no_cards_left_after_the_window_it_eliminates(self):
        game, when, _ = beaten_by_a_computer(cards=("7C", "7D 4D 5D"))
        game.slap(when + TOO_LATE_WINDOW_MS + 1)
        assert game.table.eliminated[SOUTH] and game.outcome.reason == "eliminated"

    def test_a_second_slap_after_your_own_won_slap_is_wrong(self):
        game = double_by_west(1)
        game.slap(game.last_flip_ms + 300)
        game.take_events()
        game.slap(game.clock + 20)
        event = wrong_slap(game)
        assert event["reason"] == "too_late" and event["by"] == "south"

    def test_a_slap_at_the_same_millisecond_is_not_late_but_wins(self):
        for seed in range(100):
            game = double_by_west(seed)
            if scheduled(game, "slap"):
                when, _ = min(scheduled(game, "slap"))
                game.slap(when)
                assert events_of(game.take_events(), "slap_won")[0]["seat"] == "south"
                return
        raise AssertionError("no computer player slapped the Double in 100 seeds")

    def test_a_pattern_taken_with_the_pile_after_a_challenge_is_too_late_as_well(self):
        log = PatternLog()
        log.windows.append(PatternWindow("sandwich", 100, EAST, 1100, TAKEN, NORTH))
        event = log.why_wrong(1150, make_table())
        assert event == {
            "cards": [],
            "reason": "too_late",
            "pattern": "sandwich",
            "by": "north",
            "ms": 50,
        }


def covered_by_west():
    """East flips 5S, South 5C (a Double nobody slaps), West's 9D covers it; North has no cards,
    East has no more, so South is to flip next. Returned one ms after the cover, with its time."""
    for seed in range(200):
        game = make_game("5C 2C 3C", "9D 4D 6D", "", "5S", first=EAST, seed=seed)
        run_until(game, lambda g: len(g.table.pile) == 1)
        game.flip(game.clock)
        if scheduled(game, "slap"):
            continue  # a computer player slaps the Double: try another seed
        run_until(game, lambda g: len(g.table.pile) == 3)
        game.take_events()
        return game, game.last_flip_ms
    raise AssertionError("no seed where the computer players all let the Double go")


class TestCovered:
    """A slap within TOO_LATE_WINDOW_MS of the card that covered the pattern it was aimed at (the
    pattern was on top just before that card) is too late, not wrong (issue 30)."""

    def covered(self):
        game = double_by_east()
        east_at = game.last_flip_ms
        game.flip(east_at + 1)  # the human covers the Double before anyone slaps it
        game.take_events()
        return game, east_at + 1

    def test_just_after_the_card_it_is_too_late_and_names_the_card(self):
        game, covered_at = self.covered()
        count, pack = game.table.card_count(), list(game.table.packs[SOUTH])
        game.slap(covered_at + 40)
        (event,) = game.take_events()
        assert event == {
            "t": covered_at + 40,
            "type": "late_slap",
            "seat": "south",
            "pattern": "double",
            "reason": "covered",
            "by": "south",
            "card": "2C",
            "ms": 40,
        }
        assert game.wrong_slaps == 0 and game.late_slaps == 1
        assert list(game.table.packs[SOUTH]) == pack and game.table.burned == 0
        assert game.table.card_count() == count

    def test_the_window_s_last_millisecond_is_still_too_late(self):
        game, covered_at = self.covered()
        game.slap(covered_at + TOO_LATE_WINDOW_MS)
        assert [e["type"] for e in game.take_events()] == ["late_slap"]

    def test_after_the_window_it_is_wrong_and_says_the_card_came_first(self):
        game, covered_at = self.covered()
        game.slap(covered_at + TOO_LATE_WINDOW_MS + 1)
        event = wrong_slap(game)
        assert event["reason"] == "covered" and event["by"] == "south"
        assert event["ms"] == TOO_LATE_WINDOW_MS + 1 and event["pattern"] == "double"
        assert event["cards"] == ["5H", "5S", "2C"]
        assert game.wrong_slaps == 1

    def test_with_no_cards_left_it_does_not_eliminate(self):
        # South's last card covers East's Double; a tap aimed at the Double lands 150 ms later
        game = make_game("2C", "3D 7D", "5H 8H", "5S 9S", first=WEST)
        run_until(game, lambda g: len(g.table.pile) == 3)
        covered_at = game.last_flip_ms + 1
        game.flip(covered_at)
        assert not game.table.packs[SOUTH]
        game.take_events()
        game.slap(covered_at + 150)
        assert [e["type"] for e in game.take_events()] == ["late_slap"]
        assert not game.table.eliminated[SOUTH] and not game.over

    def test_a_computer_player_s_card_covers_the_same(self):
        game, covered_at = covered_by_west()
        game.slap(covered_at + 100)
        (event,) = game.take_events()
        assert event["type"] == "late_slap" and event["reason"] == "covered"
        assert (event["by"], event["card"], event["ms"]) == ("west", "9D", 100)

    def test_once_another_card_is_on_top_it_is_wrong(self):
        game, covered_at = covered_by_west()
        game.flip(covered_at + 50)  # South's 2C on West's 9D, inside the window
        game.take_events()
        game.slap(covered_at + 100)
        event = wrong_slap(game)
        assert event["reason"] == "covered" and event["by"] == "west" and event["burned"]

    def test_long_after_the_pattern_ended_the_table_says_why(self):
        game, covered_at = self.covered()
        game.slap(covered_at + LATE_MS + 1)
        assert wrong_slap(game)["reason"] == "no_pattern"


class TestBurnedCardsDoNotCount:
    def test_a_pile_of_burned_cards_only(self):
        game = make_game("9C 2C 3C", "9D 5D", "3H", "6S", first=WEST)
        game.slap(0)  # South burns 9C
        game.take_events()
        game.slap(1)
        event = wrong_slap(game)
        assert event["reason"] == "burned_cards" and event["cards"] == []

    def test_one_card_on_a_burned_card_of_its_rank_does_not_say_which(self):
        game = make_game("9C 2C 3C", "9D 5D", "3H", "6S", first=WEST)
        game.slap(0)  # South burns 9C face down
        run_until(game, lambda g: len(g.table.pile) == 2)  # West flips 9D on top
        game.take_events()
        game.slap(game.clock)
        event = wrong_slap(game)
        assert event["reason"] == "burned_cards" and event["cards"] == ["9D"]
        assert "9C" not in json.dumps(event)


class TestOutOfCards:
    def test_a_wrong_slap_with_no_cards_says_so(self):
        game = make_game("", "3D 4D", "5H", "6S", first=WEST, lenient=True)
        game.slap(5)
        event = wrong_slap(game)
        assert event["out_of_cards"] is True and event["burned"] is False
        assert event["reason"] == "empty_pile"


class TestComputerWrongSlaps:
    def test_a_near_miss_slap_by_a_computer_player_says_no_pattern(self):
        for seed in range(400):
            game = make_game("5C 9C 8C 2C", "6D 2D 3D", "4H 6H 7H", "10S 6S 4S", seed=seed)
            game.flip(0)
            run_until(game, lambda g: len(g.table.pile) == 2)
            if scheduled(game, "slap"):
                when, seat = min(scheduled(game, "slap"))
                game.take_events()
                game.advance_to(when + 1)
                event = wrong_slap(game)
                assert event["seat"] == SEATS[seat] and event["reason"] == "no_pattern"
                assert event["cards"] == ["5C", "6D"]
                return
        raise AssertionError("no computer player slapped the near miss in 400 seeds")


class TestReactionOfAWonSlap:
    def test_the_human_slap_says_its_time_after_the_card(self):
        game = double_by_west(1)
        west_at = game.last_flip_ms
        game.slap(west_at + 237)
        (event,) = events_of(game.take_events(), "slap_won")
        assert event["seat"] == "south" and event["reaction_ms"] == 237

    def test_a_computer_slap_says_its_time_too(self):
        for seed in range(100):
            game = double_by_west(seed)
            if scheduled(game, "slap"):
                when, seat = min(scheduled(game, "slap"))
                game.advance_to(when + 1)
                (event,) = events_of(game.take_events(), "slap_won")
                assert event["seat"] == SEATS[seat]
                assert event["reaction_ms"] == when - game.last_flip_ms
                return
        raise AssertionError("no computer player slapped the Double in 100 seeds")

    def test_a_double_the_human_made_and_slapped_at_once(self):
        game = make_game("7C 2C", "3D 4D", "8H 9H", "7S 10S", first=EAST)
        run_until(game, lambda g: g.table.turn == SOUTH)
        east_at = game.last_flip_ms
        game.flip(east_at + 400)
        game.slap(east_at + 400)  # the human's own card made the Double: 0 ms after it
        (event,) = events_of(game.take_events(), "slap_won")
        assert event["reaction_ms"] == 0


def pattern_on_pattern(north_card: str, east: str = "JS QS"):
    """South 7C, West 7D (a Double), then North ``north_card`` on it before anyone slapped:
    the game just after North's flip, and West's and North's flip times."""
    for seed in range(200):
        game = make_game("7C 2C", "7D 4D", f"{north_card} 8H", east, first=SOUTH, seed=seed)
        game.flip(0)
        run_until(game, lambda g: len(g.table.pile) == 2)
        west_at = game.last_flip_ms
        run_until(game, lambda g: len(g.table.pile) != 2)
        if len(game.table.pile) == 3:  # nobody slapped the Double before North flipped
            game.take_events()
            return game, west_at, game.last_flip_ms
    raise AssertionError("North never flipped on the Double in 200 seeds")


class TestSlappableWithoutABreak:
    """A valid slap is timed from the moment a slappable pattern has been on top without a break:
    a tap aimed at one pattern may land just after a card made another."""

    def test_a_pattern_on_a_pattern_is_timed_from_the_first(self):
        game, west_at, north_at = pattern_on_pattern("7H")  # 7C 7D 7H: a Double, then another
        assert game.slappable_since == west_at
        game.slap(north_at + 30)
        (event,) = events_of(game.take_events(), "slap_won")
        assert event["seat"] == "south" and event["reaction_ms"] == north_at + 30 - west_at
        assert game.reactions == [north_at + 30 - west_at]

    def test_a_break_starts_the_time_again(self):
        # 7C 7D, then North's 2H covers the Double (nothing slappable), then East's 2S: a new
        # Double after a break, timed from its own card
        game, _, _ = pattern_on_pattern("2H", east="2S QS")
        assert game.slappable_since is None and game.table.pattern() is None
        run_until(game, lambda g: len(g.table.pile) == 4)
        east_at = game.last_flip_ms
        assert game.table.pattern() == "double" and game.slappable_since == east_at
        game.take_events()
        game.slap(east_at + 120)
        (event,) = events_of(game.take_events(), "slap_won")
        assert event["reaction_ms"] == 120
