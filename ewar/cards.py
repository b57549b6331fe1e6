"""Cards: a card is an int 0..51 (rank * 4 + suit), or 52 and 53 for the red and black Jokers of
the Jokers house rule (rank index 13, no suit); text forms like "10H" and "JKR" round-trip."""

from __future__ import annotations

from .errors import InvalidCardError

RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUITS = ("C", "D", "H", "S")
DECK_SIZE = 52

_RANK_INDEX = {name: index for index, name in enumerate(RANKS)}
_SUIT_INDEX = {name: index for index, name in enumerate(SUITS)}
JOKERS = (52, 53)  # only in a deck with the Jokers house rule (house_rules.py)
_JOKER_NAMES = ("JKR", "JKB")
_NAMES = tuple(rank + suit for rank in RANKS for suit in SUITS) + _JOKER_NAMES

# How many cards the next player must pay for each rank (0: not a pay card).
PAY_VALUE_BY_RANK = (0,) * 9 + (1, 2, 3, 4)
PAY_VALUE = tuple(PAY_VALUE_BY_RANK[card >> 2] for card in range(DECK_SIZE)) + (0,) * len(JOKERS)


def rank_of(card: int) -> int:
    """The rank index of a card: 0 for a two up to 12 for an ace (13 for a Joker)."""
    return card >> 2


def card_name(card: int) -> str:
    """The text form of a card, e.g. ``card_name(parse_card("QS")) == "QS"``."""
    return _NAMES[card]


def parse_card(text: str) -> int:
    """Parse a card such as "7H" or "10s" into its int form.

    >>> card_name(parse_card("10s"))
    '10S'
    """
    if not isinstance(text, str) or len(text) < 2:
        raise InvalidCardError(f"not a card: {text!r}")
    if text.upper() in _JOKER_NAMES:
        return JOKERS[_JOKER_NAMES.index(text.upper())]
    rank, suit = text[:-1].upper(), text[-1].upper()
    if rank not in _RANK_INDEX or suit not in _SUIT_INDEX:
        raise InvalidCardError(f"not a card: {text!r}")
    return _RANK_INDEX[rank] * 4 + _SUIT_INDEX[suit]


def full_deck(jokers: bool = False) -> list[int]:
    """The 52 cards in a fixed order (twos first, clubs first), then the Jokers if asked."""
    return list(range(DECK_SIZE)) + (list(JOKERS) if jokers else [])
