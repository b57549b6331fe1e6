"""Taking a pile: "A won pile goes under the winner's pack in the order it was played: the
card that went onto the pile first is the first of them to come out again. Burned cards
lie under the pile, so they come first"."""

from __future__ import annotations

from support import EAST, NORTH, SOUTH, WEST, events_of, make_game, make_table, names, run_until


class TestPlayedOrder:
    """The first card played onto the pile is the first of them to come out again."""

    def test_a_slapped_pile_goes_under_the_pack_first_played_first(self):
        table = make_table("3C 2C", "4D KD", "5H 6H", "5S 7S")
        for _ in range(4):
            table.flip()
        table.slap(WEST)
        assert names(table.packs[WEST]) == ["KD", "3C", "4D", "5H", "5S"]

    def test_a_won_challenge_goes_under_the_challengers_pack_first_played_first(self):
        table = make_table("2C QC 9C", "3D 4D 5D", "7H", "8S")
        for _ in range(7):
            table.flip()  # 2C 3D 7H 8S QC (South's queen), then West pays 4D 5D
        assert table.collector == SOUTH
        table.take_pile(SOUTH, "challenge")
        assert names(table.packs[SOUTH]) == ["9C", "2C", "3D", "7H", "8S", "QC", "4D", "5D"]

    def test_the_first_card_played_is_the_next_to_come_out(self):
        table = make_table("3C 2C", "4D", "5H", "5S")
        for _ in range(4):
            table.flip()
        table.slap(NORTH)  # North's pack was empty: the pile is all it has
        assert names([table.flip()]) == ["3C"]


class TestBurnedCardsComeFirst:
    """Burned cards lie under the pile, so they come out first."""

    def test_a_burned_card_comes_before_the_played_cards(self):
        table = make_table("3C 2C", "9D 4D", "5H 6H", "5S 7S")
        table.slap(WEST)  # West burns 9D on the empty pile
        for _ in range(4):
            table.flip()  # 3C 4D 5H 5S
        table.slap(EAST)
        assert names(table.packs[EAST]) == ["7S", "9D", "3C", "4D", "5H", "5S"]

    def test_every_burned_card_comes_before_every_played_card(self):
        table = make_table("3C 2C", "9D 4D", "10H 5H 6H", "5S 7S")
        table.slap(WEST)  # burns 9D
        table.flip()  # 3C
        table.slap(NORTH)  # burns 10H
        table.flip()  # 4D
        table.flip()  # 5H
        table.flip()  # 5S
        table.slap(SOUTH)
        taken = names(table.packs[SOUTH])[1:]
        assert sorted(taken[:2]) == ["10H", "9D"]
        assert taken[2:] == ["3C", "4D", "5H", "5S"]


class TestTakingInTheGame:
    """The game reports the pile taken and the winner's pack grows by its size."""

    def test_pile_taken_reports_the_number_of_cards(self):
        game = make_game("3C 2C 8C", "9D 4D", "5H 6H", "5S 7S", first=SOUTH)
        game.slap(0)  # South burns 3C on the empty pile
        game.flip(1)  # 2C
        run_until(game, lambda g: g.table.pattern() is not None or g.over)
        # West 9D, North 5H, East 5S: a Double; the human slaps at once
        game.slap(game.clock)
        taken = events_of(game.take_events(), "pile_taken")
        assert taken == [
            {"t": game.clock, "type": "pile_taken", "seat": "south", "cards": 5, "how": "slap"}
        ]
        assert game.view()["seats"][0]["cards"] == 6
        assert names(game.table.packs[SOUTH]) == ["8C", "3C", "2C", "9D", "5H", "5S"]
