"""Pay cards and challenges (docs/rules.md "Pay cards and challenges"): Ace, King, Queen and
Jack make the next player with cards pay 4, 3, 2 or 1 cards; a paid pay card passes the
challenge on; a completed payment gives the challenger the pile after a pause."""

from __future__ import annotations

import pytest
from support import (
    EAST,
    NORTH,
    SOUTH,
    WEST,
    events_of,
    make_game,
    make_table,
    names,
    run_until,
    scheduled,
)

from ewar.game import COLLECT_PAUSE_MS
from ewar.log import ChallengePassed, PayCard

NUMBERS = "2D 3D 4D 5D 6D 7D 8D 9D"


def payer_flips(table, payer) -> int:
    """How many cards ``payer`` flips before the challenge is settled."""
    count = 0
    while table.turn == payer:
        table.flip()
        count += 1
    return count


class TestPayCardValues:
    """Ace 4, King 3, Queen 2, Jack 1: the next player flips up to that many cards."""

    @pytest.mark.parametrize("pay_card, owed", [("AC", 4), ("KC", 3), ("QC", 2), ("JC", 1)])
    def test_the_next_player_pays_the_value_of_the_pay_card(self, pay_card, owed):
        table = make_table(pay_card + " 2C", NUMBERS, "2H 3H", "2S 3S")
        table.flip()
        assert table.turn == WEST and table.challenger == SOUTH and table.owed == owed
        assert payer_flips(table, WEST) == owed
        assert table.collector == SOUTH

    @pytest.mark.parametrize("number", ["2C", "5C", "9C", "10C"])
    def test_a_number_card_makes_nobody_pay(self, number):
        table = make_table(number + " 2C", NUMBERS, "2H 3H", "2S 3S")
        table.flip()
        assert table.challenger is None and table.turn == WEST
        table.flip()
        assert table.turn == NORTH  # no payment: the turn simply moves on

    def test_the_payer_is_the_next_player_with_cards(self):
        table = make_table("KC 2C", "", "", NUMBERS)
        table.flip()
        assert table.turn == EAST and table.owed == 3

    def test_a_pay_card_is_logged_with_what_is_owed_and_by_whom(self):
        table = make_table("QC", NUMBERS)
        table.flip()
        assert PayCard(SOUTH, table.pile[-1], 2, WEST) in table.log


class TestNewPayCardDuringPayment:
    """A paid pay card stops the payment; the next player with cards pays for it."""

    def test_payment_stops_at_a_new_pay_card(self):
        table = make_table("AC 2C", "3D JD 4D 5D", "2H 3H 4H", "2S 3S")
        table.flip()  # South: ace, West owes 4
        table.flip()  # West pays 3D
        table.flip()  # West pays JD: a new pay card
        assert names(table.packs[WEST]) == ["4D", "5D"]  # the other two owed are not paid
        assert table.challenger == WEST and table.owed == 1 and table.turn == NORTH

    def test_the_last_pay_card_wins_the_pile(self):
        table = make_table("AC 2C", "QD 4D", "2H KH 4H", "2S 3S 4S 5S")
        table.flip()  # South ace → West pays
        table.flip()  # West queen → North pays 2
        table.flip()  # North 2H
        table.flip()  # North king → East pays 3
        assert payer_flips(table, EAST) == 3
        assert table.collector == NORTH

    def test_the_challenge_can_come_back_round_to_the_first_challenger(self):
        table = make_table("JC 2C 3C", "JD", "", "")
        table.flip()  # South jack → West pays 1
        table.flip()  # West jack (last card) → South pays 1
        assert table.challenger == WEST and table.turn == SOUTH and table.owed == 1
        table.flip()
        assert table.collector == WEST


class TestChallengerTakesThePile:
    """All paid without a pay card: the challenger takes the whole pile after a short
    pause, and then flips next."""

    def test_nobody_flips_while_the_pile_waits_for_the_challenger(self):
        table = make_table("QC 2C", "3D 4D 5D", "2H", "2S")
        table.flip()
        table.flip()
        table.flip()
        assert table.collector == SOUTH and table.turn is None

    def test_the_challenger_takes_the_pile_and_flips_next(self):
        table = make_table("QC 2C", "3D 4D 5D", "2H", "2S")
        for _ in range(3):
            table.flip()
        table.take_pile(table.collector, "challenge")
        assert names(table.packs[SOUTH]) == ["2C", "QC", "3D", "4D"]
        assert table.pile == [] and table.turn == SOUTH and table.challenger is None

    def test_in_the_game_the_pile_is_taken_after_a_pause(self):
        game = make_game("JC 9C 8C", "3D 4D", "5H 6H", "7S 2S", first=SOUTH)
        game.flip(10)  # South's jack: West pays one card
        run_until(game, lambda g: g.table.collector is not None)
        paid_at = game.last_flip_ms
        view = game.view()
        assert view["collecting"]["by"] == "south" and view["turn"] is None
        assert view["pile"]["size"] == 2
        ((collect_at, _),) = scheduled(game, "collect")
        assert collect_at > paid_at  # a pause, not at once
        game.advance_to(collect_at)  # the pause is not over yet
        assert game.view()["pile"]["size"] == 2
        game.advance_to(collect_at + 1)
        events = game.take_events()
        taken = events_of(events, "pile_taken")
        assert taken[-1]["seat"] == "south" and taken[-1]["how"] == "challenge"
        assert taken[-1]["cards"] == 2
        view = game.view()
        assert view["pile"]["size"] == 0 and view["turn"] == "south" and view["your_turn"]

    def test_the_pause_is_the_documented_length(self):
        game = make_game("JC 9C 8C", "3D 4D", "5H 6H", "7S 2S", first=SOUTH)
        game.flip(10)
        run_until(game, lambda g: g.table.collector is not None)
        assert game.view()["collecting"]["at"] == game.last_flip_ms + COLLECT_PAUSE_MS


class TestPayerRunsOut:
    """If the payer runs out mid-payment, the next player with cards pays the chances
    still owed; if that would be the challenger, the challenger takes the pile."""

    def test_the_next_player_pays_what_is_still_owed(self):
        table = make_table("2C", "AD 2D", "3H", "4S 5S 6S 7S")
        table.flip()  # South 2C
        table.flip()  # West ace: North owes 4
        table.flip()  # North pays its only card
        assert table.turn == EAST and table.owed == 3 and table.challenger == WEST
        assert ChallengePassed(NORTH, EAST, 3) in table.log
        assert payer_flips(table, EAST) == 3
        assert table.collector == WEST

    def test_players_with_no_cards_are_skipped_for_paying(self):
        table = make_table("4C 5C 6C", "KD 2D", "3H", "")
        table.flip()  # South
        table.flip()  # West king: North owes 3
        table.flip()  # North runs out: East has no cards, South pays on
        assert table.turn == SOUTH and table.owed == 2
        assert payer_flips(table, SOUTH) == 2
        assert table.collector == WEST

    def test_if_the_next_payer_would_be_the_challenger_the_challenger_takes_the_pile(self):
        table = make_table("", "QD 2D", "3H", "", first=WEST)
        table.flip()  # West queen: North owes 2
        table.flip()  # North's only card; next with cards is West, the challenger
        assert table.collector == WEST and table.turn is None

    def test_a_payer_out_of_cards_after_the_last_chance_just_loses(self):
        table = make_table("", "JD 2D", "3H", "4S", first=WEST)
        table.flip()
        table.flip()  # North pays its last card, which was the only one owed
        assert table.collector == WEST


class TestNobodyLeftWithACard:
    """Every card in the pile: it goes, after the pause, to the challenger if a challenge
    is in progress, otherwise to the player who flipped the last card."""

    def test_during_a_challenge_the_pile_goes_to_the_challenger(self):
        table = make_table("AC", "2D", "", "")
        table.flip()  # South ace, West owes 4
        table.flip()  # West pays its only card; nobody has a card left
        assert table.collector == SOUTH and table.turn is None

    def test_without_a_challenge_the_pile_goes_to_the_last_flipper(self):
        table = make_table("5C", "6D", "", "")
        table.flip()
        table.flip()
        assert table.collector == WEST and table.turn is None

    def test_a_pay_card_flipped_as_the_very_last_card_wins_its_own_pile(self):
        table = make_table("5C", "KD", "", "")
        table.flip()
        table.flip()
        assert table.collector == WEST

    def test_in_the_game_the_last_flipper_takes_the_pile_after_the_pause(self):
        game = make_game("5C", "6D", "", "", first=SOUTH)
        game.flip(0)
        run_until(game, lambda g: g.over or g.table.pile == [])
        taken = events_of(game.take_events(), "pile_taken")
        assert taken[0]["seat"] == "west" and taken[0]["how"] == "last_card"
