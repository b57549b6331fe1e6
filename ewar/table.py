"""The rules of the table with no clock: packs, the pile, turns, challenges and slaps.

The real-time game (``game.py``) decides *when* things happen; this module decides
*what* they do. Beggar-My-Neighbour (``bmn.py``) drives the same table with two seats.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable

from .cards import PAY_VALUE, rank_of
from .errors import IllegalActionError
from .house_rules import HouseRules
from .log import (
    ChallengePassed,
    Flip,
    LogEntry,
    PayCard,
    PileTaken,
    PlayerBack,
    PlayerEliminated,
    PlayerOut,
    SlapWon,
    WrongSlap,
)

PLAYING, OUT, ELIMINATED = "playing", "out", "eliminated"
DOUBLE, SANDWICH = "double", "sandwich"
STRIKES_LENIENT = 3


class Table:
    """Packs, pile and turn state of one game; methods apply one rule each.

    Seats are numbered clockwise from 0. Packs are deques with the top card on the
    left. The pile is a list from bottom to top whose lowest ``burned`` cards are the
    face-down burned cards. ``log`` collects what happened (``log.py``'s records) for the caller.
    """

    __slots__ = (
        "burned",
        "challenge_value",
        "challenger",
        "collector",
        "eliminated",
        "house",
        "last_player",
        "lenient",
        "log",
        "owed",
        "packs",
        "pile",
        "slaps_won",
        "strikes",
        "total",
        "turn",
        "winner",
    )

    def __init__(
        self,
        packs: Iterable[Iterable[int]],
        first: int,
        *,
        lenient: bool = False,
        house: HouseRules | None = None,
    ):
        self.packs = [deque(pack) for pack in packs]
        self.total = sum(len(pack) for pack in self.packs)
        self.pile: list[int] = []
        self.burned = 0
        self.turn: int | None = first if self.packs[first] else self.next_with_cards(first)
        self.challenger: int | None = None
        self.owed = 0
        self.challenge_value = 0  # what the challenger's pay card asked for
        self.collector: int | None = None  # who takes the pile once the pause is over
        self.last_player: int | None = None  # last seat to put a card on the pile
        self.eliminated = [False] * len(self.packs)
        self.strikes = [0] * len(self.packs)
        self.slaps_won = [0] * len(self.packs)
        self.lenient = lenient
        self.house = house or None  # the house rules' extra patterns (house_rules.py), if any
        self.winner: int | None = None
        self.log: list[LogEntry] = []

    # -- reading ---------------------------------------------------------------

    def status(self, seat: int) -> str:
        """``playing``, ``out`` (no cards, may slap back in) or ``eliminated``."""
        if self.eliminated[seat]:
            return ELIMINATED
        return PLAYING if self.packs[seat] else OUT

    def face_up(self) -> list[int]:
        """The face-up cards of the pile, bottom to top (burned cards excluded)."""
        return self.pile[self.burned :]

    def pattern(self) -> str | None:
        """``double`` or ``sandwich`` if the face-up top of the pile shows one, else the house
        rules' pattern if any shows (a house rule's name)."""
        pile, up = self.pile, len(self.pile) - self.burned
        if up >= 2 and rank_of(pile[-1]) == rank_of(pile[-2]):
            return DOUBLE
        if up >= 3 and rank_of(pile[-1]) == rank_of(pile[-3]):
            return SANDWICH
        return self.house.pattern(pile, self.burned) if self.house else None

    def near_miss(self) -> bool:
        """True when the top nearly shows a pattern (ranks one apart): a tempting wrong slap."""
        pile, up = self.pile, len(self.pile) - self.burned
        if up < 2 or self.pattern():
            return False
        top = rank_of(pile[-1])
        if abs(top - rank_of(pile[-2])) == 1:
            return True
        if up >= 3 and abs(top - rank_of(pile[-3])) == 1:
            return True
        return bool(self.house) and self.house.near_miss(pile, self.burned)

    def next_with_cards(self, seat: int) -> int | None:
        """The next seat clockwise after ``seat`` that has cards (``seat`` itself last)."""
        count = len(self.packs)
        for step in range(1, count + 1):
            candidate = (seat + step) % count
            if self.packs[candidate]:
                return candidate
        return None

    # -- flipping and paying ---------------------------------------------------

    def flip(self) -> int:
        """The seat whose turn it is flips its top card; returns the card."""
        seat = self.turn
        assert seat is not None and self.packs[seat], "flip needs a seat with cards"
        card = self.packs[seat].popleft()
        self.pile.append(card)
        self.last_player = seat
        self.log.append(Flip(seat, card))
        if not self.packs[seat]:
            self.log.append(PlayerOut(seat))
        value = PAY_VALUE[card]
        if value:
            self._challenge(seat, value, card)
        elif self.challenger is not None:
            self.owed -= 1
            if self.owed == 0:
                self._collect(self.challenger)
            elif not self.packs[seat]:
                self.pass_payment(seat)
        else:
            following = self.next_with_cards(seat)
            if following is None:
                self._collect(seat)
            else:
                self.turn = following
        return card

    def _challenge(self, seat: int, value: int, card: int) -> None:
        self.challenger, self.owed, self.challenge_value = seat, value, value
        payer = self.next_with_cards(seat)
        if payer is None or payer == seat:
            self._collect(seat)
            return
        self.turn = payer
        self.log.append(PayCard(seat, card, value, payer))

    def pass_payment(self, seat: int) -> None:
        """The payer ``seat`` has run out: the next player with cards pays what is owed."""
        following = self.next_with_cards(seat)
        if following is None or following == self.challenger:
            self._collect(self.challenger)
            return
        self.turn = following
        self.log.append(ChallengePassed(seat, following, self.owed))

    def pass_turn(self, seat: int) -> None:
        """``seat`` was due to flip but has no cards left: the turn moves on."""
        if self.challenger is not None:
            self.pass_payment(seat)
            return
        following = self.next_with_cards(seat)
        if following is None:
            self._collect(self.last_player if self.last_player is not None else seat)
        else:
            self.turn = following

    def _collect(self, seat: int) -> None:
        """The pile goes to ``seat`` once the pause is over; nobody flips meanwhile."""
        self.turn = None
        self.collector = seat

    def take_pile(self, seat: int, how: str) -> None:
        """``seat`` takes the whole pile under its pack and flips next."""
        pack = self.packs[seat]
        came_back = not pack
        pack.extend(self.pile)
        self.log.append(PileTaken(seat, len(self.pile), how))
        if came_back:
            self.log.append(PlayerBack(seat))
        self.pile = []
        self.burned = 0
        self.challenger = None
        self.owed = 0
        self.collector = None
        self.last_player = None
        self.turn = seat
        if len(pack) == self.total:
            self.winner = seat
            self.turn = None

    # -- slapping ----------------------------------------------------------------

    def slap(self, seat: int) -> str | None:
        """``seat`` slaps: a valid slap takes the pile, a wrong one burns or eliminates.

        Returns the pattern slapped, or None for a wrong slap. Eliminated players never
        slap again: asking for it is a programming error.
        """
        if self.eliminated[seat]:
            raise IllegalActionError(f"seat {seat} is eliminated and never slaps again")
        pattern = self.pattern()
        if pattern:
            self.log.append(SlapWon(seat, pattern))
            self.slaps_won[seat] += 1
            self.take_pile(seat, "slap")
            return pattern
        pack = self.packs[seat]
        if pack:
            card = pack.popleft()
            self.pile.insert(0, card)
            self.burned += 1
            if self.last_player is None:
                self.last_player = seat
            self.log.append(WrongSlap(seat, card))
            if not pack:
                self.log.append(PlayerOut(seat))
                if self.turn == seat:
                    self.pass_turn(seat)
            return None
        self.log.append(WrongSlap(seat, None))
        self.strikes[seat] += 1
        if not self.lenient or self.strikes[seat] >= STRIKES_LENIENT:
            self._eliminate(seat)
        return None

    def _eliminate(self, seat: int) -> None:
        """``seat`` is out for good, and so is any claim it had on the pile: a challenge
        it made lapses (the payer's flips become an ordinary turn), and a pile it was
        about to take goes to the last player to flip, or else the next player clockwise
        still in the game; with nobody left in the game, to nobody (the game is over)."""
        self.eliminated[seat] = True
        self.log.append(PlayerEliminated(seat))
        if self.challenger == seat and self.collector is None:
            self.challenger, self.owed = None, 0
        if self.collector == seat:
            heir = self.last_player
            if heir is None or self.eliminated[heir]:
                heir = next(
                    (
                        s
                        for step in range(1, len(self.packs))
                        if not self.eliminated[s := (seat + step) % len(self.packs)]
                    ),
                    None,
                )
            self.collector = heir

    def card_count(self) -> int:
        """Cards in packs and pile together: always ``total``."""
        return len(self.pile) + sum(len(pack) for pack in self.packs)
