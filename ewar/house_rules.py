"""House rules: the extra slap patterns a practice game may add to Doubles and Sandwiches.

Each rule is a name a game, its record and the page carry; ``HouseRules`` is a chosen set of
them, which the table consults after the standard patterns (``Table.pattern``). Only face-up
cards ever count: the burned cards under the pile are face down. The rule book is
docs/rules.md ("House rules"); a daily game never has any (``game.py``, ``judge.py``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .cards import JOKERS, RANKS, rank_of
from .errors import InvalidModeError

TOP_AND_BOTTOM = "top_and_bottom"
TENS = "tens"
FOUR_IN_A_ROW = "four_in_a_row"
MARRIAGE = "marriage"
DIVORCE = "divorce"
JOKERS_RULE = "jokers"
# Every house rule, in the order the menu lists them and a record names them. A rule's name is
# also the name of the pattern it adds (a slap_won event's ``pattern``).
HOUSE_RULES = (TOP_AND_BOTTOM, TENS, FOUR_IN_A_ROW, MARRIAGE, DIVORCE, JOKERS_RULE)
# When the top shows several patterns at once, the slap names the first of these that shows
# (after Double and Sandwich, which always come first): a slap takes the pile all the same.
_PRECEDENCE = (JOKERS_RULE, MARRIAGE, DIVORCE, TENS, FOUR_IN_A_ROW, TOP_AND_BOTTOM)

_KING, _QUEEN, _JACK = RANKS.index("K"), RANKS.index("Q"), RANKS.index("J")
_ACE, _TEN = RANKS.index("A"), RANKS.index("10")
_RUN_RANKS = len(RANKS)  # Four-in-a-row counts ranks in a circle: K-A-2 wraps (docs/rules.md)
_JOKER_RANK = rank_of(JOKERS[0])


def ten_value(rank: int) -> int | None:
    """What a rank counts for Tens: 2-10 their number, an Ace one; J, Q, K and a Joker nothing.

    >>> ten_value(RANKS.index("A")), ten_value(RANKS.index("7")), ten_value(RANKS.index("Q"))
    (1, 7, None)
    """
    if rank == _ACE:
        return 1
    if rank <= _TEN:
        return rank + 2
    return None


def _tens(a: int, b: int) -> bool:
    first, second = ten_value(a), ten_value(b)
    return first is not None and second is not None and first + second == 10


def _royal_pair(a: int, b: int) -> bool:
    return {a, b} == {_KING, _QUEEN}


def _run_step(a: int, b: int) -> int | None:
    """+1 when ``b`` is the rank after ``a`` (K-A-2 wrapping), -1 when before, else None."""
    if _JOKER_RANK in (a, b):
        return None
    step = (b - a) % _RUN_RANKS
    return 1 if step == 1 else -1 if step == _RUN_RANKS - 1 else None


def _in_a_row(ranks: Sequence[int]) -> bool:
    steps = {_run_step(a, b) for a, b in zip(ranks, ranks[1:])}
    return len(steps) == 1 and None not in steps


class HouseRules:
    """A chosen set of house rules (possibly none), checked and in the canonical order.

    >>> HouseRules(["tens", "marriage"]).names
    ('tens', 'marriage')
    >>> bool(HouseRules(()))
    False
    """

    __slots__ = ("_on", "names")

    def __init__(self, names: Iterable[str] | None = ()) -> None:
        self.names = check_house_rules(names)
        self._on = tuple(name for name in _PRECEDENCE if name in self.names)

    def __bool__(self) -> bool:
        return bool(self.names)

    def __repr__(self) -> str:
        return f"HouseRules({list(self.names)!r})"

    @property
    def jokers(self) -> bool:
        """True when the deck has its two Jokers (54 cards)."""
        return JOKERS_RULE in self.names

    def pattern(self, pile: Sequence[int], burned: int) -> str | None:
        """The house pattern the face-up top of ``pile`` (bottom to top, its lowest ``burned``
        cards face down) shows, or None. Standard patterns are the table's to find first."""
        up = len(pile) - burned
        if up < 1:
            return None
        top = rank_of(pile[-1])
        for name in self._on:
            if name == JOKERS_RULE:
                if top == _JOKER_RANK:
                    return name
            elif up < 2:
                return None
            elif name == MARRIAGE:
                if _royal_pair(top, rank_of(pile[-2])):
                    return name
            elif name == DIVORCE:
                if up >= 3 and _royal_pair(top, rank_of(pile[-3])):
                    return name
            elif name == TENS:
                if _tens(top, rank_of(pile[-2])) or (up >= 3 and _tens(top, rank_of(pile[-3]))):
                    return name
            elif name == FOUR_IN_A_ROW:
                if up >= 4 and _in_a_row([rank_of(card) for card in pile[-4:]]):
                    return name
            elif name == TOP_AND_BOTTOM and up >= 2 and top == rank_of(pile[burned]):
                return name
        return None

    def near_miss(self, pile: Sequence[int], burned: int) -> bool:
        """True when the top nearly shows one of these patterns (a tempting wrong slap): two
        cards adding to nine or eleven for Tens, a King or Queen beside a Jack for Marriage and
        Divorce, a top one rank from the bottom card. (Three in a row for Four-in-a-row is already
        a standard near miss: ranks one apart.)"""
        up = len(pile) - burned
        if up < 2:
            return False
        top = rank_of(pile[-1])
        under = [rank_of(card) for card in pile[max(burned, len(pile) - 3) : -1]]
        for name in self._on:
            if name == TENS:
                value = ten_value(top)
                if value is not None and any(
                    (ten_value(rank) or 0) + value in (9, 11) for rank in under
                ):
                    return True
            elif name in (MARRIAGE, DIVORCE):
                nearby = under[-1:] if name == MARRIAGE else under[-2:-1]
                if top in (_KING, _QUEEN) and _JACK in nearby:
                    return True
            elif name == TOP_AND_BOTTOM and up >= 3:
                bottom = rank_of(pile[burned])
                if _JOKER_RANK not in (top, bottom) and _run_step(bottom, top) is not None:
                    return True
        return False


def check_house_rules(names: Iterable[str] | None) -> tuple[str, ...]:
    """``names`` as a tuple in the canonical order (``HOUSE_RULES``); raises InvalidModeError
    for anything but a list of distinct known rule names. None is no house rule."""
    if names is None:
        return ()
    if isinstance(names, str) or not isinstance(names, Iterable):
        raise InvalidModeError(f"house rules are a list of rule names, not {names!r}")
    names = list(names)
    unknown = [name for name in names if name not in HOUSE_RULES]
    if unknown:
        raise InvalidModeError(f"unknown house rule {unknown[0]!r}; expected some of {HOUSE_RULES}")
    if len(set(names)) != len(names):
        raise InvalidModeError(f"a house rule is named twice in {names!r}")
    return tuple(name for name in HOUSE_RULES if name in names)
