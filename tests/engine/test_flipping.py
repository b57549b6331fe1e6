"""Flipping: "The player whose turn it is flips the top card of their pack face up onto the
centre pile. Without a challenge in progress, the turn then passes clockwise to the next
player who still has cards. Players with no cards are skipped"."""

from __future__ import annotations

import pytest
from support import EAST, NORTH, SOUTH, WEST, make_game, make_table, names


class TestWhoFlipsFirst:
    """The seed (or the deal) picks who flips first."""

    @pytest.mark.parametrize("first", [SOUTH, WEST, NORTH, EAST])
    def test_the_first_player_has_the_turn(self, first):
        table = make_table("2C", "3D", "4H", "5S", first=first)
        assert table.turn == first


class TestFlipOntoThePile:
    """The top card of the pack goes face up on top of the pile."""

    def test_the_top_card_of_the_pack_is_flipped(self):
        table = make_table("7C 8C 9C", "2D 3D 4D")
        assert names([table.flip()]) == ["7C"]
        assert names(table.packs[SOUTH]) == ["8C", "9C"]
        assert names(table.pile) == ["7C"]

    def test_each_card_lands_on_top_of_the_last(self):
        table = make_table("2C 6C", "3D 7D", "4H 8H", "5S 9S")
        for _ in range(6):
            table.flip()
        assert names(table.pile) == ["2C", "3D", "4H", "5S", "6C", "7D"]
        assert names(table.face_up()) == names(table.pile)


class TestTurnOrder:
    """Clockwise is South → West → North → East → South."""

    def test_turn_passes_clockwise_from_south(self):
        table = make_table("2C 6C", "3D 7D", "4H 8H", "5S 9S")
        seen = []
        for _ in range(5):
            seen.append(table.turn)
            table.flip()
        assert seen == [SOUTH, WEST, NORTH, EAST, SOUTH]

    def test_turn_passes_clockwise_from_east_back_to_south(self):
        table = make_table("2C", "3D", "4H", "5S 9S", first=EAST)
        table.flip()
        assert table.turn == SOUTH

    @pytest.mark.parametrize("empty", [WEST, NORTH, EAST])
    def test_a_player_with_no_cards_is_skipped(self, empty):
        packs = ["2C 6C", "3D 7D", "4H 8H", "5S 9S"]
        packs[empty] = ""
        table = make_table(*packs)
        order = []
        for _ in range(4):
            order.append(table.turn)
            table.flip()
        assert empty not in order
        assert order == [seat for seat in (SOUTH, WEST, NORTH, EAST) if seat != empty] + [SOUTH]

    def test_several_players_with_no_cards_are_skipped(self):
        table = make_table("2C 6C", "", "", "5S 9S")
        table.flip()
        assert table.turn == EAST
        table.flip()
        assert table.turn == SOUTH

    def test_a_player_who_flips_their_last_card_is_skipped_afterwards(self):
        table = make_table("2C 6C 8C", "3D", "4H 9H", "5S 9S")
        for _ in range(4):
            table.flip()
        assert table.status(WEST) == "out"
        table.flip()  # South
        assert table.turn == NORTH

    def test_the_only_player_with_cards_flips_again(self):
        table = make_table("2C 3C 4C", "", "", "")
        table.flip()
        assert table.turn == SOUTH


class TestFlipInTheGame:
    """In the real-time game the human flips on their turn, the computers after a delay."""

    def test_the_human_flips_on_their_turn_and_the_turn_moves_on(self):
        game = make_game("2C 6C", "3D 7D", "4H 8H", "5S 9S", first=SOUTH)
        assert game.view()["your_turn"] is True
        game.flip(100)
        view = game.view()
        assert view["pile"]["top"] == ["2C"] and view["turn"] == "west"
        assert view["your_turn"] is False

    def test_computer_players_flip_in_clockwise_order_after_a_delay(self):
        game = make_game("2C 6C", "3D 7D", "4H 8H", "5S 9S", first=WEST)
        game.advance_to(1)
        assert game.view()["pile"]["size"] == 0  # not instantly
        flips = []
        while len(flips) < 3:
            game.advance_to(game.next_event_time() + 1)
            flips += [e for e in game.take_events() if e["type"] == "flip"]
        assert [(e["seat"], e["card"]) for e in flips] == [
            ("west", "3D"),
            ("north", "4H"),
            ("east", "5S"),
        ]
        assert all(e["t"] > 0 for e in flips)
        assert game.view()["your_turn"] is True
