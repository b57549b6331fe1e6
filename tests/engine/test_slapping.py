"""Slapping (docs/rules.md "Slapping"): a Double or a Sandwich of face-up cards on top wins the
whole pile for the first slapper; any other slap burns a card, or eliminates a player who
has none."""

from __future__ import annotations

import json

import pytest
from support import EAST, NORTH, SOUTH, WEST, cards, make_game, make_table, names

from ewar import bridge
from ewar.errors import EwarError, InvalidModeError, ReplayError
from ewar.game import Game
from ewar.log import PlayerBack, PlayerEliminated, WrongSlap
from ewar.replay import Replay


def table_with_pile(
    pile: str,
    *,
    south: str = "9S 10S",
    west: str = "9C 10C",
    north: str = "9D 10D",
    east: str = "9H 10H",
    burned: str = "",
    lenient: bool = False,
):
    """A table whose pile holds ``burned`` face down under ``pile`` face up (bottom → top)."""
    table = make_table(south, west, north, east, first=SOUTH, lenient=lenient)
    table.pile = cards(burned) + cards(pile)
    table.burned = len(cards(burned))
    table.last_player = EAST if pile else None
    table.total = table.card_count()
    return table


class TestDouble:
    """A Double: the top two cards have the same rank."""

    @pytest.mark.parametrize("rank", ["2", "7", "10", "J", "Q", "K", "A"])
    def test_two_cards_of_a_rank_on_top_are_a_double(self, rank):
        table = table_with_pile(f"3C {rank}H {rank}S")
        assert table.pattern() == "double"

    def test_a_double_made_by_flipping_can_be_slapped(self):
        table = make_table("7C 2C", "7D 3D", "4H 5H", "6S 8S")
        table.flip()
        table.flip()
        assert table.slap(NORTH) == "double"

    def test_a_double_of_pay_cards_during_payment_counts(self):
        table = make_table("QC 2C", "QD 3D", "4H 5H", "6S 8S")
        table.flip()
        table.flip()  # West pays with a queen: a new challenge and a Double
        assert table.slap(EAST) == "double"


class TestSandwich:
    """A Sandwich: the top card has the rank of the card two below it, one card between."""

    def test_a_sandwich_is_a_sandwich(self):
        assert table_with_pile("7C 2D 7H").pattern() == "sandwich"
        assert table_with_pile("9S 4S KC 2D KH").pattern() == "sandwich"

    def test_two_cards_between_is_not_a_sandwich(self):
        table = table_with_pile("7C 2D 3H 7S")
        assert table.pattern() is None

    def test_a_sandwich_made_by_flipping_can_be_slapped(self):
        table = make_table("7C 2C", "3D 4D", "7H 5H", "6S 8S")
        for _ in range(3):
            table.flip()
        assert table.slap(WEST) == "sandwich"


class TestWhatIsNotAPattern:
    """Anything else is a wrong slap: different ranks, an empty pile, a buried pattern."""

    @pytest.mark.parametrize("pile", ["", "7C", "7C 8C", "2C 3D 4H", "7C 8D 9H 7S"])
    def test_no_double_or_sandwich_on_top(self, pile):
        table = table_with_pile(pile)
        assert table.pattern() is None
        assert table.slap(NORTH) is None

    @pytest.mark.parametrize("pile", ["7C 7D 2H", "7C 2D 7H 3S", "5C 5D 9H 2S"])
    def test_a_buried_pattern_is_a_wrong_slap(self, pile):
        table = table_with_pile(pile)
        assert table.slap(NORTH) is None
        assert WrongSlap(NORTH, cards("9D")[0]) in table.log

    def test_a_pattern_stops_counting_once_a_card_is_flipped_on_it(self):
        table = make_table("7C 2C", "7D 3D", "4H 5H", "6S 8S")
        table.flip()
        table.flip()
        table.flip()  # North buries the Double
        assert table.slap(EAST) is None

    def test_an_empty_pile_is_a_wrong_slap(self):
        table = make_table("7C 2C", "7D 3D", "4H 5H", "6S 8S")
        assert table.slap(WEST) is None
        assert table.burned == 1 and names(table.pile) == ["7D"]


class TestBurnedCardsNeverCount:
    """Only face-up played cards count: burned cards are never part of a pattern."""

    def test_a_burned_card_under_a_matching_card_is_not_a_double(self):
        table = table_with_pile("7D", burned="7C")
        assert table.pattern() is None
        assert table.slap(WEST) is None

    def test_a_burned_card_two_below_is_not_a_sandwich(self):
        table = table_with_pile("2D 7H", burned="7C")
        assert table.pattern() is None

    def test_burned_cards_made_by_wrong_slaps_do_not_make_a_double(self):
        table = make_table("7C 2C", "7D 3D", "4H 5H", "6S 8S")
        table.slap(SOUTH)  # burns 7C under the (empty) pile
        table.flip()  # South's turn: 2C
        assert table.pattern() is None
        table = make_table("2C 9C", "7D 3D", "4H 5H", "6S 8S")
        table.slap(WEST)  # West burns 7D
        table.flip()  # South flips 2C on top
        table.slap(NORTH)  # North burns 4H
        assert names(table.face_up()) == ["2C"] and table.pattern() is None


class TestFirstValidSlapWins:
    """The first valid slap wins the whole pile, burned cards included, cancels any
    challenge in progress, and the slapper flips next."""

    def test_the_slapper_takes_the_whole_pile_burned_cards_included(self):
        table = table_with_pile("3C 7D 7H", burned="KS")
        table.slap(NORTH)
        assert sorted(names(list(table.packs[NORTH])[-4:])) == sorted(["KS", "3C", "7D", "7H"])
        assert table.pile == [] and table.burned == 0

    def test_the_slapper_flips_next(self):
        table = make_table("7C 2C", "7D 3D", "4H 5H", "6S 8S")
        table.flip()
        table.flip()
        table.slap(EAST)
        assert table.turn == EAST

    def test_a_slap_cancels_the_challenge_in_progress(self):
        table = make_table("KC 2C", "5D 5H 4D", "4H 6H", "6S 8S")
        table.flip()  # South king: West owes 3
        table.flip()
        table.flip()  # West: 5D 5H, a Double while paying
        table.slap(NORTH)
        assert table.challenger is None and table.owed == 0 and table.collector is None
        assert table.turn == NORTH

    def test_the_second_slap_on_the_same_cards_is_wrong(self):
        table = make_table("7C 2C", "7D 3D", "4H 5H", "6S 8S")
        table.flip()
        table.flip()
        assert table.slap(NORTH) == "double"
        assert table.slap(EAST) is None

    def test_a_slap_during_the_collection_pause_wins_the_pile(self):
        table = make_table("9C 2C", "JD 3D", "9H 5H", "6S 8S")
        table.flip()  # South 9C
        table.flip()  # West's jack
        table.flip()  # North pays 9H: West is about to take the pile, on a Sandwich
        assert table.collector == WEST
        assert table.slap(EAST) == "sandwich"
        assert table.collector is None and table.turn == EAST

    def test_slapping_counts_piles_won(self):
        table = table_with_pile("7C 7D")
        table.slap(SOUTH)
        assert table.slaps_won == [1, 0, 0, 0]


class TestWrongSlap:
    """A wrong slap: the slapper burns the top card of their pack, face down, under the pile."""

    def test_the_top_card_of_the_pack_goes_face_down_under_the_pile(self):
        table = table_with_pile("3C 4D", north="JD 2D")
        table.slap(NORTH)
        assert names(table.pile) == ["JD", "3C", "4D"]
        assert table.burned == 1 and names(table.face_up()) == ["3C", "4D"]
        assert names(table.packs[NORTH]) == ["2D"]

    def test_a_burned_pay_card_makes_nobody_pay(self):
        table = table_with_pile("3C 4D", north="AD 2D")
        table.slap(NORTH)
        assert table.challenger is None

    def test_each_burned_card_goes_under_the_pile(self):
        table = table_with_pile("3C 4D")
        table.slap(NORTH)
        table.slap(WEST)
        assert table.burned == 2 and names(table.face_up()) == ["3C", "4D"]
        assert set(names(table.pile[:2])) == {"9D", "9C"}

    def test_the_turn_does_not_change(self):
        table = make_table("7C 2C", "8D 3D", "4H 5H", "6S 8S")
        table.flip()
        table.slap(EAST)
        assert table.turn == WEST

    def test_burning_your_last_card_on_your_turn_passes_the_turn(self):
        table = make_table("7C 2C", "8D", "4H 5H", "6S 8S")
        table.flip()  # West's turn now
        table.slap(WEST)
        assert table.status(WEST) == "out" and table.turn == NORTH

    def test_burning_your_last_card_while_paying_passes_the_payment(self):
        table = make_table("QC 2C", "8D", "4H 5H", "6S 8S")
        table.flip()  # West owes 2
        table.slap(WEST)
        assert table.turn == NORTH and table.owed == 2 and table.challenger == SOUTH


class TestSlappingBackIn:
    """A player with no cards may still slap a valid pattern to win the pile and come back."""

    def test_a_player_with_no_cards_wins_the_pile_and_comes_back(self):
        table = table_with_pile("7C 7D", north="")
        assert table.status(NORTH) == "out"
        table.slap(NORTH)
        assert table.status(NORTH) == "playing" and len(table.packs[NORTH]) == 2
        assert PlayerBack(NORTH) in table.log and table.turn == NORTH


class TestElimination:
    """A player with no cards who slaps wrongly is eliminated at once and never plays or
    slaps again."""

    @pytest.mark.parametrize("pile", ["", "7C", "7C 8D", "7C 7D 2H"])
    def test_a_wrong_slap_with_no_cards_eliminates(self, pile):
        table = table_with_pile(pile, north="")
        size = len(table.pile)
        table.slap(NORTH)
        assert table.status(NORTH) == "eliminated"
        assert PlayerEliminated(NORTH) in table.log
        assert len(table.pile) == size  # nothing to burn

    def test_an_eliminated_player_is_skipped_for_flipping_and_paying(self):
        table = make_table("KC 2C 3C", "", "4H 5H 6H 7H", "", first=SOUTH)
        table.slap(WEST)  # West, with no cards, slaps the empty pile
        table.flip()
        assert table.turn == NORTH

    def test_an_eliminated_player_never_slaps_again(self):
        table = table_with_pile("3C 4D", north="")
        table.slap(NORTH)  # eliminated
        table.pile += cards("5S 5H")
        table.total = table.card_count()
        try:
            table.slap(NORTH)
        except EwarError:
            pass
        assert table.status(NORTH) == "eliminated" and not table.packs[NORTH]
        assert len(table.pile) == 4 and table.slaps_won[NORTH] == 0

    def test_an_eliminated_challenger_never_takes_the_pile(self):
        table = make_table("2C 3C", "QD", "4H 5H 6H", "7S 8S", first=WEST)
        table.flip()  # West's queen, its last card: North owes 2
        table.slap(WEST)  # West, with no cards, slaps wrongly: eliminated
        assert table.status(WEST) == "eliminated"
        assert table.challenger is None and table.turn == NORTH  # the challenge lapses
        table.flip()
        table.flip()  # North's flips are now an ordinary turn
        if table.collector is not None:
            table.take_pile(table.collector, "challenge")
        assert not table.packs[WEST] and table.turn != WEST

    def test_an_eliminated_player_never_takes_the_waiting_pile(self):
        table = make_table("2C 3C", "4D", "JH", "5S 6S", first=WEST)
        table.flip()  # West 4D
        table.flip()  # North's jack, its last card: East pays one
        table.flip()  # East 5S: North is to take the pile after the pause
        assert table.collector == NORTH
        table.slap(NORTH)  # North, with no cards, slaps wrongly: eliminated
        assert table.collector == EAST  # the claim passes to the last player to flip
        if table.collector is not None:
            table.take_pile(table.collector, "challenge")
        assert not table.packs[NORTH] and table.turn != NORTH


class TestLenientHouseRule:
    """Practice games may use the lenient house rule: a player with no cards is
    eliminated only at their third wrong slap. Daily games never use it."""

    def test_standard_rules_eliminate_at_the_first_wrong_slap(self):
        table = table_with_pile("3C 4D", north="", lenient=False)
        table.slap(NORTH)
        assert table.status(NORTH) == "eliminated"

    def test_lenient_rules_eliminate_at_the_third_wrong_slap(self):
        table = table_with_pile("3C 4D", north="", lenient=True)
        table.slap(NORTH)
        table.slap(NORTH)
        assert table.status(NORTH) == "out" and table.strikes[NORTH] == 2
        table.slap(NORTH)
        assert table.status(NORTH) == "eliminated" and table.strikes[NORTH] == 3

    def test_wrong_slaps_with_cards_burn_and_are_not_strikes(self):
        table = table_with_pile("3C 4D", north="2D", lenient=True)
        table.slap(NORTH)  # burns its last card
        table.slap(NORTH)
        table.slap(NORTH)
        assert table.status(NORTH) == "out" and table.strikes[NORTH] == 2

    def test_the_lenient_human_survives_two_wrong_slaps_in_a_game(self):
        game = make_game("", "2D 3D", "4H 5H", "6S 8S", first=WEST, lenient=True)
        game.slap(0)
        game.slap(0)
        assert not game.over and game.view()["seats"][0]["strikes"] == 2
        game.slap(0)
        assert game.over and game.outcome.reason == "eliminated"

    def test_a_daily_game_cannot_be_lenient(self):
        with pytest.raises(InvalidModeError):
            Game(0, mode="daily", date="2026-11-30", lenient=True)

    def test_the_bridge_plays_daily_games_with_standard_rules(self):
        session = bridge.new_game("daily", 1, "fast", True, "2026-11-30")
        view = json.loads(session.view())
        assert view["lenient"] is False and view["speed"] == "normal"

    def test_a_lenient_daily_replay_is_refused(self):
        record = Replay(
            seed=0, mode="daily", speed="normal", lenient=True, date="2026-11-30"
        ).to_json()
        with pytest.raises(ReplayError):
            Replay.from_json(record).play()
