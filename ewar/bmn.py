"""Beggar-My-Neighbour: the engine's pay-card rules for two players, with no slapping
and no clock, as one tight loop (long published deals run to millions of cards)."""

from __future__ import annotations

from collections import namedtuple

from .cards import PAY_VALUE_BY_RANK, RANKS
from .errors import InvalidCardError

FINISHED, LOOP = "finished", "loop"
# One-character tokens and their pay values ("10" is the one two-character token). No `re`, no dataclasses:
# `python -m ewar bmn` starts as quickly as a script with no imports (benchmarks/cli_startup.py).
_PAY_OF_TOKEN = {
    "-": 0,
    **{rank: PAY_VALUE_BY_RANK[index] for index, rank in enumerate(RANKS) if rank != "10"},
}


class BmnResult(namedtuple("BmnResult", "status cards tricks")):
    """How a Beggar-My-Neighbour deal ends: ``finished`` or ``loop``, cards played, tricks."""

    __slots__ = ()

    def to_dict(self) -> dict:
        return {"status": self.status, "cards": self.cards, "tricks": self.tricks}

    def to_json(self) -> str:
        """``json.dumps(self.to_dict())``, without importing json (the command line's start-up)."""
        return f'{{"status": "{self.status}", "cards": {self.cards:d}, "tricks": {self.tricks:d}}}'


def parse_pack(text: str) -> list[int]:
    """A pack, top card first, as pay values (0 for a number card).

    Tokens are ``2``-``10``, ``J``, ``Q``, ``K``, ``A`` or ``-`` (any number card),
    separated by spaces or run together: ``parse_pack("K-10 A") == [3, 0, 0, 4]``.
    """
    if not isinstance(text, str):
        raise InvalidCardError("a pack is a string of card tokens")
    values = []
    for word in text.split():
        position = 0
        while position < len(word):
            if word.startswith("10", position):
                values.append(0)
                position += 2
                continue
            value = _PAY_OF_TOKEN.get(word[position].upper())
            if value is None:
                raise InvalidCardError(f"not a card token at {word[position:]!r} in {word!r}")
            values.append(value)
            position += 1
    return values


def play(pack_a: list[int], pack_b: list[int]) -> BmnResult:
    """Play a deal to its end; A flips first.

    The game ends as soon as one player holds every card: when a pile is taken and the
    other player has no cards, or when the player due to play or pay has none (the other
    then takes the pile as a last trick). A position (both packs, number cards alike,
    and who leads) seen before at the start of a trick is a loop.

    >>> play(parse_pack("- - J"), parse_pack("- - -"))
    BmnResult(status='finished', cards=6, tricks=1)
    """
    # Packs are bytes (pay values 0-4), sliced as each card is played: quicker in CPython than a deque (1.26 against
    # 1.56 ms on the longest published deal, in-process), and the position at a trick's start is the packs themselves,
    # with nothing to convert. The pile is a bytearray added to a pack as it is, and its length counts the trick's
    # cards (no count kept per card).
    packs = [bytes(pack_a), bytes(pack_b)]
    leader = cards = tricks = 0
    seen = set()
    while True:
        position = (packs[0], packs[1], leader)
        if position in seen:
            return BmnResult(LOOP, cards, tricks)
        seen.add(position)
        pile = bytearray()
        turn, owed, challenger = leader, 0, -1
        while True:
            pack = packs[turn]
            if not pack:
                return BmnResult(FINISHED, cards + len(pile), tricks + 1)
            value = pack[0]
            packs[turn] = pack[1:]
            pile.append(value)
            if value:
                challenger, owed, turn = turn, value, 1 - turn
            elif challenger >= 0:
                owed -= 1
                if not owed:
                    break
            else:
                turn = 1 - turn
        cards += len(pile)
        packs[challenger] += pile
        tricks += 1
        if not packs[1 - challenger]:
            return BmnResult(FINISHED, cards, tricks)
        leader = challenger
