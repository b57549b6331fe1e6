"""Seeds and deals: the daily seed of a UTC date, and the deal a seed makes."""

from __future__ import annotations

import datetime
import hashlib
import re
from dataclasses import dataclass

from .cards import card_name, full_deck
from .editions import edition_of
from .errors import InvalidSeedError
from .rng import Rng

SEATS = ("south", "west", "north", "east")
SOUTH = 0
MAX_SEED = (1 << 53) - 1  # seeds the page handles must survive a JavaScript number

_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
DAY_MS = 86_400_000
_EPOCH = datetime.date(1970, 1, 1)
# A daily may be sent for the leaderboard on its own UTC day and the next
# (web/common/contract.js SUBMISSION_DAYS, which tests/function/contract.test.mjs checks against
# this): its deal is not practice until then.
SUBMISSION_DAYS = 2
# Dailies still to come whose deals are no practice either: tomorrow's, and on to a month ahead.
LOCK_AHEAD_DAYS = 31


def check_date(date: str) -> str:
    """Return ``date`` if it is a real calendar date written YYYY-MM-DD, else raise."""
    if not isinstance(date, str) or not _DATE.fullmatch(date):
        raise InvalidSeedError(f"not a YYYY-MM-DD date: {date!r}")
    try:
        datetime.date.fromisoformat(date)
    except ValueError as error:
        raise InvalidSeedError(f"not a calendar date: {date!r}") from error
    return date


def candidate_seed(date: str, candidate: int) -> int:
    """The seed of one of a UTC date's candidate deals (0 is the date's first).

    >>> candidate_seed("2026-11-30", 0) != candidate_seed("2026-11-30", 1)
    True
    """
    salt = f":{candidate}" if candidate else ""
    digest = hashlib.sha256(f"ewar-daily:{check_date(date)}{salt}".encode()).digest()
    return int.from_bytes(digest[:8], "big") & MAX_SEED


def daily_seed(date: str) -> int:
    """The seed of the daily deal of a UTC date, the same for everyone: the date's candidate deal
    that its edition's deal table names (``editions.py``; steady dailies: chosen so that every
    date is about as hard).

    >>> daily_seed("2026-11-30") == daily_seed("2026-11-30") != daily_seed("2026-12-01")
    True
    """
    return candidate_seed(date, edition_of(check_date(date)).deals.candidate(date))


def day_start_ms(date: str) -> int:
    """The Unix epoch time in ms at which the UTC day ``date`` (YYYY-MM-DD) begins."""
    return (datetime.date.fromisoformat(check_date(date)) - _EPOCH).days * DAY_MS


def open_daily_of(seed: int, now_ms: int) -> tuple[str, int] | None:
    """If ``seed`` is the deal of a daily that can still be sent for the leaderboard at
    ``now_ms`` (epoch ms), or of a daily still to come (up to ``LOCK_AHEAD_DAYS`` ahead: no
    rehearsal of tomorrow's deal either), that daily's date and the epoch ms when it can no longer
    be sent (from then on its deal is anyone's to practise); else None.

    >>> open_daily_of(daily_seed("2026-11-30"), day_start_ms("2026-12-01") + 5)
    ('2026-11-30', 1796169600000)
    >>> open_daily_of(daily_seed("2026-12-02"), day_start_ms("2026-12-01") + 5)
    ('2026-12-02', 1796342400000)
    """
    check_seed(seed)
    if isinstance(now_ms, bool) or not isinstance(now_ms, int):
        raise InvalidSeedError(f"a time is whole epoch milliseconds, not {now_ms!r}")
    today = _EPOCH + datetime.timedelta(days=now_ms // DAY_MS)
    for offset in range(-LOCK_AHEAD_DAYS, SUBMISSION_DAYS):
        date = (today - datetime.timedelta(days=offset)).isoformat()
        if daily_seed(date) == seed:
            return date, day_start_ms(date) + SUBMISSION_DAYS * DAY_MS
    return None


def check_seed(seed: int) -> int:
    """Return ``seed`` if it is a whole number from 0 to ``MAX_SEED`` (bools are refused), else
    raise: the page and the records carry a seed as a JavaScript number, exact only that far."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise InvalidSeedError(f"a seed is an integer, not {seed!r}")
    if not 0 <= seed <= MAX_SEED:
        raise InvalidSeedError(
            f"a seed is from 0 to 2**53 - 1 (a JavaScript number holds it exactly), not {seed}"
        )
    return seed


@dataclass(frozen=True)
class Deal:
    """Four packs (top card first) and the seat that flips first."""

    packs: tuple[tuple[int, ...], ...]
    first: int

    def __str__(self) -> str:
        packs = " / ".join(" ".join(card_name(c) for c in pack) for pack in self.packs)
        return f"{SEATS[self.first]} first: {packs}"


def deal(rng: Rng, seats: int = 4, *, jokers: bool = False) -> Deal:
    """Shuffle a deck (with the two Jokers if asked) with ``rng`` and deal it one card at a time
    clockwise from South."""
    deck = full_deck(jokers)
    rng.shuffle(deck)
    packs = tuple(tuple(deck[i::seats]) for i in range(seats))
    assert sum(map(len, packs)) == len(deck)
    return Deal(packs=packs, first=rng.below(seats))
