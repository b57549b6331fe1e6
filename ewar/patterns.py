"""Patterns on the pile through time: when each Double or Sandwich showed and how it ended,
and why a wrong slap was wrong. The game feeds it; the page and the score judge read it."""

from __future__ import annotations

from dataclasses import dataclass

from .cards import card_name
from .deal import SEATS
from .table import Table

LATE_MS = 1500  # a wrong slap this soon after a pattern ended was aimed at that pattern
# A slap this soon after the pattern it was aimed at went (another player's valid slap took it, or
# the next card covered it) is only too late, never wrong: a person cannot stop a tap already under
# way (stopping takes ~200-250 ms, the stop-signal reaction time) and the screen and touch add
# ~50 ms before the change is even seen. docs/rules.md ("Too late is not wrong").
TOO_LATE_WINDOW_MS = 300

SLAPPED, COVERED, TAKEN, GAME_OVER = "slapped", "covered", "taken", "game_over"
NO_PATTERN, TOO_LATE, BURNED_CARDS, EMPTY_PILE = (
    "no_pattern",
    "too_late",
    "burned_cards",
    "empty_pile",
)


@dataclass(frozen=True)
class PatternWindow:
    """One Double or Sandwich on top of the pile, from the flip that made it to its end:
    ``slapped`` (by ``ended_by``), ``covered`` (``ended_by`` flipped a card on it), ``taken``
    (``ended_by`` took the pile after a challenge or a last card) or ``game_over``."""

    pattern: str
    shown_at: int
    shown_by: int
    ended_at: int
    end: str
    ended_by: int | None
    cover: int | None = None  # the card that covered it (``covered`` only)


class PatternLog:
    """The windows of one game so far, oldest first, and the one on top now (if any)."""

    __slots__ = ("covered_too_late", "current", "windows")

    def __init__(self, *, covered_too_late: bool = True) -> None:
        self.windows: list[PatternWindow] = []
        self.current: tuple[str, int, int] | None = None  # (pattern, shown_at, shown_by)
        # a slap just after the card that covered its pattern is only too late (editions.py: not
        # in the dailies of the 3.1.0 edition, where it is a wrong slap)
        self.covered_too_late = covered_too_late

    def __deepcopy__(self, memo: dict) -> PatternLog:
        # windows never change once closed: a copy of the list is a full copy (refused
        # actions restore a saved game, so this keeps saving cheap)
        twin = PatternLog(covered_too_late=self.covered_too_late)
        twin.windows, twin.current = list(self.windows), self.current
        return twin

    def after_flip(self, when: int, seat: int, table: Table) -> None:
        """``seat`` has just flipped: the pattern under the card is covered, a new one may show."""
        self.end(when, COVERED, seat, cover=table.pile[-1])
        pattern = table.pattern()
        if pattern:
            self.current = (pattern, when, seat)

    def end(self, when: int, how: str, seat: int | None, *, cover: int | None = None) -> None:
        """The pattern on top (if any) ends at ``when`` (``cover``: the card that covered it)."""
        if self.current is not None:
            pattern, shown_at, shown_by = self.current
            self.windows.append(PatternWindow(pattern, shown_at, shown_by, when, how, seat, cover))
            self.current = None

    def too_late_for(self, when: int, seat: int, table: Table) -> PatternWindow | None:
        """The pattern a slap of ``seat`` at ``when`` on ``table`` came just too late for, if any:
        one that went at most ``TOO_LATE_WINDOW_MS`` before, nothing having shown since, taken by
        another player's valid slap or (``covered_too_late``) covered by the card still on top;
        else None."""
        last = self.windows[-1] if self.windows else None
        if self.current is not None or last is None or when - last.ended_at > TOO_LATE_WINDOW_MS:
            return None
        if last.end == SLAPPED and last.ended_by != seat:
            return last
        if (
            self.covered_too_late
            and last.end == COVERED
            and table.pile
            and table.pile[-1] == last.cover
        ):
            return last
        return None

    def why_wrong(self, when: int, table: Table) -> dict:
        """The reason of a wrong slap at ``when`` on ``table`` (before its burn), as event fields.

        Only what the table shows is named: the face-up cards, never a burned one.
        """
        face_up = table.face_up()
        why = {"cards": [card_name(card) for card in face_up[-3:]]}
        last = self.windows[-1] if self.windows else None
        if last is not None and last.end != GAME_OVER and when - last.ended_at <= LATE_MS:
            reason = COVERED if last.end == COVERED else TOO_LATE
            by = None if last.ended_by is None else SEATS[last.ended_by]
            why.update(reason=reason, pattern=last.pattern, by=by, ms=when - last.ended_at)
        elif not table.pile:
            why["reason"] = EMPTY_PILE
        elif table.burned and len(face_up) < 2:
            why["reason"] = BURNED_CARDS
        else:
            why["reason"] = NO_PATTERN
            if table.house:  # no pattern of any rule in play: the page says house rules included
                why["house_rules"] = True
        return why
