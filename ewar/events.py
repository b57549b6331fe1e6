"""The page's events: each entry of the table's log as a JSON-ready dict with its time.

Only what a player at the table could see goes out: a burned card is face down, so a
wrong slap says whether a card was burned, never which.
"""

from __future__ import annotations

from .cards import card_name
from .deal import SEATS


def event_of(entry: tuple, when: int, details: dict | None = None) -> dict:
    """The event of one log entry at ``when``; ``details`` adds fields the table cannot know
    (a slap's reaction time, a wrong slap's reason)."""
    kind, seat = entry[0], SEATS[entry[1]]
    event = {"t": when, "type": kind}
    if kind == "challenge_passed":
        event.update({"from": seat, "to": SEATS[entry[2]], "left": entry[3]})
        return event
    event["seat"] = seat
    if kind == "flip":
        event["card"] = card_name(entry[2])
    elif kind == "pay_card":
        event.update({"card": card_name(entry[2]), "owed": entry[3], "payer": SEATS[entry[4]]})
    elif kind == "slap_won":
        event["pattern"] = entry[2]
    elif kind == "wrong_slap":
        event.update({"burned": entry[2] is not None, "out_of_cards": entry[2] is None})
    elif kind == "pile_taken":
        event.update({"cards": entry[2], "how": entry[3]})
    # player_out, player_back and player_eliminated carry only their seat
    if details:
        event.update(details)
    return event
