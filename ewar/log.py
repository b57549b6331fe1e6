"""The table's log: one small named record per thing that happened at the table, each with
the ``kind`` the page's event of it carries (``events.py`` turns them into events). Slotted, not
frozen: a game writes thousands, and a frozen dataclass costs four times as much to make."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar


@dataclass(slots=True)
class Flip:
    """``seat`` flipped ``card`` onto the pile."""

    kind: ClassVar[str] = "flip"
    seat: int
    card: int


@dataclass(slots=True)
class PayCard:
    """``seat`` flipped pay card ``card``: ``payer`` owes ``owed`` cards."""

    kind: ClassVar[str] = "pay_card"
    seat: int
    card: int
    owed: int
    payer: int


@dataclass(slots=True)
class ChallengePassed:
    """The payer ``seat`` ran out: ``to`` pays the ``left`` cards still owed."""

    kind: ClassVar[str] = "challenge_passed"
    seat: int
    to: int
    left: int


@dataclass(slots=True)
class PileTaken:
    """``seat`` took the pile of ``cards`` cards, ``how``: ``"slap"``, ``"challenge"``..."""

    kind: ClassVar[str] = "pile_taken"
    seat: int
    cards: int
    how: str


@dataclass(slots=True)
class SlapWon:
    """``seat`` slapped ``pattern`` (a Double or a Sandwich) and wins the pile."""

    kind: ClassVar[str] = "slap_won"
    seat: int
    pattern: str


@dataclass(slots=True)
class WrongSlap:
    """``seat`` slapped with no pattern on top: ``card`` burned, or None when it had none."""

    kind: ClassVar[str] = "wrong_slap"
    seat: int
    card: int | None


@dataclass(slots=True)
class PlayerOut:
    """``seat`` has no cards left (it may still slap its way back)."""

    kind: ClassVar[str] = "player_out"
    seat: int


@dataclass(slots=True)
class PlayerBack:
    """``seat`` had no cards and took a pile: it plays again."""

    kind: ClassVar[str] = "player_back"
    seat: int


@dataclass(slots=True)
class PlayerEliminated:
    """``seat`` is out for good."""

    kind: ClassVar[str] = "player_eliminated"
    seat: int


LogEntry = (
    Flip
    | PayCard
    | ChallengePassed
    | PileTaken
    | SlapWon
    | WrongSlap
    | PlayerOut
    | PlayerBack
    | PlayerEliminated
)
