"""Record the dailies as published: each edition's rules and every date's deal (seed), in
tests/engine/data/editions.json, which tests/engine/test_editions.py holds the engine to for every
date that may have begun. Run it after ``tools/steady_dailies.py`` or a new edition; it refuses to
record a change to a date that may have begun (today UTC and the next ``LEAD_DAYS``).

    python -m tools.published_dailies
"""

from __future__ import annotations

import datetime
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT)]

RECORD = ROOT / "tests" / "engine" / "data" / "editions.json"
FIRST = datetime.date(2026, 11, 1)  # the record's first date: a month before the first deal table
# A change merged today may ship on a later day: the dates to come that it must leave alone too.
LEAD_DAYS = 2


def begun_through(now: datetime.datetime | None = None) -> str:
    """The last date that may have begun by the time a change made ``now`` ships."""
    now = now or datetime.datetime.now(datetime.UTC)
    return (now.date() + datetime.timedelta(days=LEAD_DAYS)).isoformat()


def edition_fields(edition) -> dict:
    return {
        "engine": edition.engine,
        "starts": edition.starts,
        "form_permille": edition.form_permille,
        "covered_too_late": edition.covered_too_late,
    }


def current_record() -> dict:
    """The record the engine makes now: its editions and each date's seed through its tables."""
    from ewar.deal import daily_seed
    from ewar.editions import EDITIONS

    last = max(
        datetime.date.fromisoformat(e.deals.first) + datetime.timedelta(len(e.deals.choices) - 1)
        for e in EDITIONS
    )
    dates = [(FIRST + datetime.timedelta(d)).isoformat() for d in range((last - FIRST).days + 1)]
    return {
        "why": "The dailies as published (tools/published_dailies.py): a date that may have begun "
        "keeps its edition's rules and its deal for good (tests/engine/test_editions.py).",
        "editions": [edition_fields(edition) for edition in EDITIONS],
        "daily_seeds": {date: daily_seed(date) for date in dates},
    }


def changed_begun(old: dict, new: dict, through: str) -> list[str]:
    """What ``new`` changes of ``old`` for the editions and dates begun by ``through``."""
    changes = []
    old_editions = {e["starts"]: e for e in old["editions"]}
    new_editions = {e["starts"]: e for e in new["editions"]}
    for starts in sorted(old_editions.keys() | new_editions.keys()):
        if starts <= through and old_editions.get(starts) != new_editions.get(starts):
            changes.append(f"the edition from {starts}")
    for date, seed in old["daily_seeds"].items():
        if date <= through and new["daily_seeds"].get(date) != seed:
            changes.append(f"the deal of {date}")
    return changes


def main() -> int:
    new = current_record()
    if RECORD.exists():
        changes = changed_begun(json.loads(RECORD.read_text()), new, begun_through())
        if changes:
            print("refused, a daily that may have begun would change: " + ", ".join(changes))
            return 1
    RECORD.write_text(json.dumps(new, indent=1) + "\n")
    print(f"recorded {len(new['editions'])} editions, {len(new['daily_seeds'])} dates")
    return 0


if __name__ == "__main__":
    sys.exit(main())
