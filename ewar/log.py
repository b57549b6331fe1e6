"""The table's log: one small named record per thing that happened at the table, each with
the ``kind`` the page's event of it carries (``events.py`` turns them into events). Slotted, not
frozen: a game writes thousands, and a frozen dataclass costs four times as much to make."""

from __future__ import annotations

from dataclasses import make_dataclass
from typing import ClassVar


def record(name: str, kind: str, doc: str, **fields: object) -> type:
    """A slotted dataclass ``name`` with the typed ``fields`` in order and the class attribute
    ``kind``: each record below is one call, so the nine read as the table they are."""
    return make_dataclass(
        name,
        [*fields.items(), ("kind", ClassVar[str], kind)],
        slots=True,
        namespace={"__doc__": doc, "__module__": __name__},
    )


# fmt: off
Flip = record("Flip", "flip", "``seat`` flipped ``card`` onto the pile.", seat=int, card=int)
PayCard = record(
    "PayCard", "pay_card", "``seat`` flipped pay card ``card``: ``payer`` owes ``owed`` cards.",
    seat=int, card=int, owed=int, payer=int,
)
ChallengePassed = record(
    "ChallengePassed", "challenge_passed",
    "The payer ``seat`` ran out: ``to`` pays the ``left`` cards still owed.", seat=int, to=int, left=int,
)
PileTaken = record(
    "PileTaken", "pile_taken", "``seat`` took the pile of ``cards`` cards, ``how``: "
    '``"slap"``, ``"challenge"``...', seat=int, cards=int, how=str,
)
SlapWon = record(
    "SlapWon", "slap_won", "``seat`` slapped ``pattern`` (a Double or a Sandwich) and wins the pile.",
    seat=int, pattern=str,
)
WrongSlap = record(
    "WrongSlap", "wrong_slap",
    "``seat`` slapped with no pattern on top: ``card`` burned, or None when it had none.",
    seat=int, card=int | None,
)
PlayerOut = record(
    "PlayerOut", "player_out", "``seat`` has no cards left (it may still slap its way back).", seat=int
)
PlayerBack = record(
    "PlayerBack", "player_back", "``seat`` had no cards and took a pile: it plays again.", seat=int
)
PlayerEliminated = record("PlayerEliminated", "player_eliminated", "``seat`` is out for good.", seat=int)
# fmt: on

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
