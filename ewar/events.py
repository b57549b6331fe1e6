"""The page's events: each entry of the table's log as a JSON-ready dict with its time.

Only what a player at the table could see goes out: a burned card is face down, so a
wrong slap says whether a card was burned, never which.
"""

from __future__ import annotations

from .cards import card_name
from .deal import SEATS
from .log import ChallengePassed, Flip, LogEntry, PayCard, PileTaken, SlapWon, WrongSlap


def event_of(entry: LogEntry, when: int, details: dict | None = None) -> dict:
    """The event of one log entry at ``when``; ``details`` adds fields the table cannot know
    (a slap's reaction time, a wrong slap's reason)."""
    event = {"t": when, "type": entry.kind}
    if isinstance(entry, ChallengePassed):
        event.update({"from": SEATS[entry.seat], "to": SEATS[entry.to], "left": entry.left})
        return event
    event["seat"] = SEATS[entry.seat]
    if isinstance(entry, Flip):
        event["card"] = card_name(entry.card)
    elif isinstance(entry, PayCard):
        event.update(
            {"card": card_name(entry.card), "owed": entry.owed, "payer": SEATS[entry.payer]}
        )
    elif isinstance(entry, SlapWon):
        event["pattern"] = entry.pattern
    elif isinstance(entry, WrongSlap):
        event.update({"burned": entry.card is not None, "out_of_cards": entry.card is None})
    elif isinstance(entry, PileTaken):
        event.update({"cards": entry.cards, "how": entry.how})
    # player_out, player_back and player_eliminated carry only their seat
    if details:
        event.update(details)
    return event
