"""Daily editions: everything a daily depends on, looked up by the daily's date.

A deploy must change nobody's daily, so a rule, a CPU form or a deal table that a daily depends on
is never read straight from the newest code: each edition holds them, from the first date it
governs, and a daily plays by the edition of its date. An edition takes effect only on a date that
has not begun anywhere when it ships (docs/rules.md, "Daily editions"), and never changes once in
effect (tests/engine/test_editions.py keeps the record). Practice games play the newest edition.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from . import daily_deals, daily_deals_3


@dataclass(frozen=True)
class DealTable:
    """Which candidate deal (``deal.candidate_seed``) is each date's daily: one digit a date from
    ``first`` on; a date outside the table takes candidate 0."""

    first: str
    choices: str

    def candidate(self, date: str) -> int:
        index = (datetime.date.fromisoformat(date) - datetime.date.fromisoformat(self.first)).days
        return int(self.choices[index]) if 0 <= index < len(self.choices) else 0


@dataclass(frozen=True)
class Edition:
    """The rules of the dailies from ``starts`` (YYYY-MM-DD) until the next edition's first date.

    ``engine``: the engine version that brought it; ``form_permille``: the computer players' form
    in a daily (``cpu.daily_form``); ``covered_too_late``: a slap just after the card that covered
    its pattern is only too late (else it is wrong); ``deals``: the deal of each date.
    """

    engine: str
    starts: str
    form_permille: int
    covered_too_late: bool
    deals: DealTable


EDITIONS = (
    # Every date before the next edition, as engine 3.1.0 played them.
    Edition(
        engine="3.1.0",
        starts="0001-01-01",
        form_permille=1050,
        covered_too_late=False,
        deals=DealTable(daily_deals_3.FIRST_DATE, daily_deals_3.CHOICES),
    ),
    # Covered is too late (issue 30); the form and the deals chosen again for it.
    Edition(
        engine="4.0.0",
        starts="2026-12-08",
        form_permille=1040,
        covered_too_late=True,
        deals=DealTable(daily_deals.FIRST_DATE, daily_deals.CHOICES),
    ),
)
NEWEST = EDITIONS[-1]  # practice games play by it


def edition_of(date: str) -> Edition:
    """The edition that governs the daily of ``date`` (a checked YYYY-MM-DD date).

    >>> edition_of("2026-12-07").engine, edition_of("2026-12-08").engine
    ('3.1.0', '4.0.0')
    """
    found = EDITIONS[0]
    for edition in EDITIONS[1:]:
        if edition.starts <= date:
            found = edition
    return found
