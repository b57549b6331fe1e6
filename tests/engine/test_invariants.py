"""Rules that hold at every moment of every game: cards are never made or lost, the turn
is always someone who can flip, and the table never gets stuck. Random packs and random
flips, slaps and collections drive the rules-only table."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st
from support import EAST, NORTH, SOUTH, WEST, make_table

from ewar.table import Table


def random_table(rng: random.Random) -> Table:
    deck = list(range(52))
    rng.shuffle(deck)
    deck = deck[: rng.choice([2, 4, 7, 12, 20, 52])]
    packs = [[], [], [], []]
    for card in deck:
        packs[rng.randrange(4)].append(card)
    first = rng.choice([seat for seat in range(4) if packs[seat]])
    return Table(packs, first, lenient=rng.random() < 0.5)


def check(table: Table) -> None:
    assert table.card_count() == table.total
    assert 0 <= table.burned <= len(table.pile)
    if table.winner is not None:
        assert len(table.packs[table.winner]) == table.total
        return
    if all(table.eliminated):  # the last seat slapped itself out: the game is over, nobody plays
        assert table.turn is None and table.collector is None
        return
    # never stuck: someone flips, or the pile waits for its taker
    assert (table.turn is None) != (table.collector is None)
    if table.turn is not None:
        assert table.packs[table.turn] and not table.eliminated[table.turn]
    if table.challenger is not None and table.turn is not None:
        assert table.turn != table.challenger and 1 <= table.owed <= 4
    for seat in range(4):
        if table.eliminated[seat]:
            assert not table.packs[seat]


def play_randomly(rng: random.Random, steps: int = 2000) -> None:
    table = random_table(rng)
    check(table)
    for _ in range(steps):
        if table.winner is not None:
            return
        choices = ["flip"] * 6 * (table.turn is not None)
        choices += ["take"] * 3 * (table.collector is not None) + ["slap"]
        action = rng.choice(choices)
        if action == "flip":
            table.flip()
        elif action == "take":
            table.take_pile(table.collector, "challenge")
        else:
            standing = [s for s in range(4) if not table.eliminated[s]]
            if not standing:  # the last seat slapped itself out: nobody is left to play
                return
            table.slap(rng.choice(standing))
        check(table)


class TestInvariants:
    """Cards are conserved, the turn is valid and the table never gets stuck."""

    @settings(max_examples=400, deadline=None)
    @given(st.integers(min_value=0, max_value=2**32))
    def test_random_play_keeps_every_invariant(self, seed):
        play_randomly(random.Random(seed))


class TestTheLastSeatStanding:
    """The pile's collector, with no cards, slaps wrongly when every other seat is eliminated:
    nobody is left to take the pile, and the game is over (the elimination once crashed here)."""

    def test_the_last_seat_slapping_wrongly_over_its_own_pile(self):
        table = make_table("AS", "3D", "", "", first=WEST)
        table.slap(NORTH)  # no cards, a wrong slap: eliminated
        table.slap(EAST)
        table.flip()  # West's last card
        table.slap(WEST)  # eliminated too
        table.flip()  # South's ace, nobody left to pay: South is to take the pile
        assert table.collector == SOUTH
        table.slap(SOUTH)  # no cards, no pattern: eliminated, and nobody is left
        assert all(table.eliminated[seat] for seat in (SOUTH, NORTH, EAST, WEST))
        assert table.collector is None and table.turn is None
        assert table.card_count() == table.total
