"""Cards, seeds and the deal: "One standard 52-card deck, shuffled by the game's seed and
dealt out completely, 13 cards each, one at a time clockwise. Same seed → same deal, same
first player." Daily: "one deal per UTC calendar day, the same for everyone"."""

from __future__ import annotations

import datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st
from support import run_python

from ewar.cards import DECK_SIZE, card_name, parse_card
from ewar.deal import MAX_SEED, check_seed, daily_seed, deal
from ewar.errors import EwarError, InvalidCardError, InvalidSeedError
from ewar.game import Game
from ewar.rng import Rng

RANK_TEXT = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
SUIT_TEXT = ["C", "D", "H", "S"]
EVERY_CARD_TEXT = [rank + suit for rank in RANK_TEXT for suit in SUIT_TEXT]


class TestCardText:
    """A card's text form is rank + suit ("10H", "QS", "7C") and round-trips."""

    def test_the_deck_has_52_distinct_text_forms(self):
        assert sorted(card_name(card) for card in range(DECK_SIZE)) == sorted(EVERY_CARD_TEXT)

    @pytest.mark.parametrize("text", EVERY_CARD_TEXT)
    def test_text_round_trips(self, text):
        assert card_name(parse_card(text)) == text

    @pytest.mark.parametrize("text", ["10s", "qs", "ah", "7c"])
    def test_lower_case_is_read(self, text):
        assert card_name(parse_card(text)) == text.upper()

    def test_ranks_are_ordered_two_to_ace(self):
        ranked = [parse_card(rank + "C") for rank in RANK_TEXT]
        assert ranked == sorted(ranked)


class TestCardParseErrors:
    """Anything that is not a card raises InvalidCardError (a ValueError) naming the input."""

    @pytest.mark.parametrize(
        "text",
        [
            "",
            "H",
            "1H",
            "11H",
            "0S",
            "1OH",
            "7X",
            "10",
            "HH",
            " 7H",
            "7H ",
            "7 H",
            "10HH",
            "T♠",
            "٧H",
        ],
    )
    def test_bad_text_is_refused(self, text):
        with pytest.raises(InvalidCardError) as caught:
            parse_card(text)
        assert repr(text) in str(caught.value)

    @pytest.mark.parametrize("value", [None, 7, b"7H", ["7", "H"]])
    def test_non_text_is_refused(self, value):
        with pytest.raises(InvalidCardError):
            parse_card(value)

    def test_the_error_is_a_narrow_value_error(self):
        assert issubclass(InvalidCardError, EwarError)
        assert issubclass(InvalidCardError, ValueError)


def splitmix64(state: int):
    """SplitMix64 as defined by Steele, Lea & Flood (2014) / Vigna's splitmix64.c."""
    mask = 2**64 - 1
    while True:
        state = (state + 0x9E3779B97F4A7C15) & mask
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        yield z ^ (z >> 31)


class TestRng:
    """The engine's generator is SplitMix64: the sequence is fixed by its definition."""

    def test_reference_matches_the_published_vector(self):
        # First outputs of splitmix64 seeded with 1234567 (the classic test vector).
        reference = splitmix64(1234567)
        assert [next(reference) for _ in range(5)] == [
            6457827717110365317,
            3203168211198807973,
            9817491932198370423,
            4593380528125082431,
            16408922859458223821,
        ]

    def test_engine_gives_the_published_vector(self):
        rng = Rng(1234567)
        assert [rng.next64() for _ in range(5)] == [
            6457827717110365317,
            3203168211198807973,
            9817491932198370423,
            4593380528125082431,
            16408922859458223821,
        ]

    @given(st.integers(min_value=0, max_value=2**64 - 1))
    def test_engine_follows_the_definition_from_any_state(self, state):
        rng, reference = Rng(state), splitmix64(state)
        assert [rng.next64() for _ in range(4)] == [next(reference) for _ in range(4)]

    @given(st.integers(min_value=0, max_value=2**64 - 1), st.integers(min_value=1, max_value=10**6))
    def test_below_stays_in_range(self, state, n):
        rng = Rng(state)
        assert all(0 <= rng.below(n) < n for _ in range(5))

    def test_below_refuses_an_empty_range(self):
        with pytest.raises(ValueError):
            Rng(1).below(0)

    def test_shuffle_is_a_permutation(self):
        items = list(range(52))
        Rng(99).shuffle(items)
        assert sorted(items) == list(range(52)) and items != list(range(52))

    @pytest.mark.parametrize("seed", [0, -1, 2**200, -(2**200), MAX_SEED])
    def test_any_integer_seeds_a_generator(self, seed):
        a, b = Rng.from_seed(seed), Rng.from_seed(seed)
        assert [a.next64() for _ in range(3)] == [b.next64() for _ in range(3)]

    def test_seed_generators_do_not_depend_on_python_hashing(self):
        # A fresh interpreter (new PYTHONHASHSEED) must draw the same numbers.
        code = "from ewar.rng import Rng; r = Rng.from_seed(-42); print(r.next64(), r.next64())"
        out = run_python("-c", code, hashseed="12345").stdout
        rng = Rng.from_seed(-42)
        assert out.split() == [str(rng.next64()), str(rng.next64())]


class _UnshuffledRng:
    """A stand-in generator that leaves the deck in order and picks seat ``first``."""

    def __init__(self, first: int) -> None:
        self.first = first

    def shuffle(self, items: list) -> None:
        pass

    def below(self, n: int) -> int:
        return self.first


class TestDeal:
    """The whole deck is dealt, 13 each, one card at a time clockwise from South."""

    def test_an_unshuffled_deck_is_dealt_one_card_at_a_time_clockwise_from_south(self):
        # The fixed deck order is 2C 2D 2H 2S 3C ...: dealing one at a time from South
        # gives South every club, West every diamond, North every heart, East every spade.
        dealt = deal(_UnshuffledRng(first=2))
        for seat, suit in enumerate(SUIT_TEXT):
            assert [card_name(c) for c in dealt.packs[seat]] == [r + suit for r in RANK_TEXT]
        assert dealt.first == 2

    @pytest.mark.parametrize("seed", [0, 1, 7, 123456789, 2**40, MAX_SEED])
    def test_every_card_is_dealt_once_13_each(self, seed):
        packs = Game(seed).deal.packs
        assert [len(pack) for pack in packs] == [13, 13, 13, 13]
        assert sorted(card for pack in packs for card in pack) == list(range(52))

    @pytest.mark.parametrize("seed", [0, 42, 2**40, MAX_SEED])
    def test_same_seed_gives_same_deal_and_first_player(self, seed):
        assert Game(seed).deal == Game(seed).deal
        assert Game(seed).table.turn == Game(seed).deal.first

    def test_different_seeds_give_different_deals(self):
        deals = {Game(seed).deal.packs for seed in range(200)}
        assert len(deals) == 200

    def test_the_seed_picks_every_seat_as_first_player_sometimes(self):
        firsts = {Game(seed).deal.first for seed in range(200)}
        assert firsts == {0, 1, 2, 3}

    def test_the_deal_does_not_depend_on_python_hashing(self):
        code = "from ewar.game import Game; print(Game(2026).deal)"
        out = run_python("-c", code, hashseed="777").stdout
        assert out.strip() == str(Game(2026).deal)


class TestSeeds:
    """Any integer is a seed (negative, huge); anything else, a bool included, is refused."""

    @pytest.mark.parametrize("seed", [0, 1, 2**32, MAX_SEED])
    def test_a_seed_a_javascript_number_holds_starts_a_game(self, seed):
        game = Game(seed)
        assert game.seed == seed and game.view()["seed"] == seed

    @pytest.mark.parametrize("seed", [-1, -(2**100), MAX_SEED + 1, 2**53, 10**30])
    def test_seeds_beyond_what_the_page_and_records_carry_are_refused(self, seed):
        with pytest.raises(InvalidSeedError, match="from 0 to 2\\*\\*53 - 1"):
            check_seed(seed)
        with pytest.raises(InvalidSeedError):
            Game(seed)

    @pytest.mark.parametrize("seed", [True, False, 1.0, "42", None])
    def test_non_int_seeds_are_refused(self, seed):
        with pytest.raises(InvalidSeedError):
            check_seed(seed)
        with pytest.raises(InvalidSeedError):
            Game(seed)


class TestDailySeed:
    """One deal per UTC calendar day, the same for everyone."""

    def test_a_date_always_gives_the_same_seed(self):
        assert daily_seed("2026-11-30") == daily_seed("2026-11-30")

    def test_the_daily_seed_is_the_same_in_a_fresh_interpreter(self):
        code = "from ewar.deal import daily_seed; print(daily_seed('2026-11-30'))"
        out = run_python("-c", code, hashseed="1").stdout
        assert int(out) == daily_seed("2026-11-30")

    def test_every_day_of_a_leap_year_has_its_own_seed(self):
        start = datetime.date(2028, 1, 1)
        days = [(start + datetime.timedelta(days=n)).isoformat() for n in range(366)]
        assert len({daily_seed(day) for day in days}) == 366

    def test_every_day_of_a_year_has_its_own_deal(self):
        start = datetime.date(2026, 1, 1)
        days = [(start + datetime.timedelta(days=n)).isoformat() for n in range(365)]
        assert len({Game.daily(day).deal.packs for day in days}) == 365

    @pytest.mark.parametrize("date", ["2026-11-30", "2000-02-29", "1970-01-01", "9999-12-31"])
    def test_the_seed_survives_a_javascript_number(self, date):
        assert 0 <= daily_seed(date) < 2**53

    def test_the_daily_game_plays_the_daily_seed(self):
        game = Game.daily("2026-11-30")
        assert game.seed == daily_seed("2026-11-30")
        assert game.deal == Game(daily_seed("2026-11-30")).deal

    @pytest.mark.parametrize(
        "date",
        [
            "2026-02-30",
            "2026/11/30",
            20261130,
            "",
            "2026-13-01",
            "2026-11-31",
            "2025-02-29",
            "26-11-30",
            "2026-1-30",
            "2026-11-30T00:00",
            " 2026-11-30",
            "2026-11-30\n",
            "２０２６-１１-３０",
            None,
        ],
    )
    def test_invalid_dates_are_refused(self, date):
        with pytest.raises(InvalidSeedError):
            daily_seed(date)
        with pytest.raises(InvalidSeedError):
            Game.daily(date)
