"""How the computer players behave: flip delays, slap reactions, misses and wrong slaps.

Each seat has a temperament at each speed (West eager and error-prone, North steady,
East dreamy), and each game the three have a form, from sharp to sleepy, that scales
their slap reactions. Every number is drawn from the game's own generator, so the same
situation gets the same reaction on every machine. The tables were tuned against a
human-like player by simulation (``benchmarks/cpu_speeds.py``; docs/engine.md).
"""

from __future__ import annotations

from dataclasses import dataclass

from .rng import Rng

SPEEDS = ("slow", "normal", "fast")
DEFAULT_SPEED = "normal"  # a practice game's, until the player picks another

FLIP_BASE_MS = 450
FLIP_SPREAD_MS = 200  # two draws below this are added: a triangular spread
FORM_PERMILLE = (700, 1300)  # a practice game's form scales every slap reaction by 0.7 to 1.3
# A daily's form is the same every day of an edition (editions.py; docs/rules.md, steady dailies).
# In a daily the form follows the human's cards: slower when the human holds few, quicker when
# many, by this many permille of the form for the half deck (26 cards) between; so the deal's luck
# is evened out and every date is about as hard (benchmarks/fair_daily.py; docs/engine.md).
CATCH_UP_PERMILLE = 800


def daily_form(base: int, human_cards: int, deck: int = 52) -> int:
    """The computer players' form in a daily of form ``base`` (its edition's) while the human holds
    ``human_cards`` of ``deck``: 1.4 x the base with none, 1.0 x with half, 0.6 x with all (for
    800 permille)."""
    half = deck // 2
    return base * (1000 * deck + CATCH_UP_PERMILLE * (half - human_cards)) // (1000 * deck)


@dataclass(frozen=True)
class Temperament:
    """How one computer player slaps at one speed, at its usual form (1000 permille)."""

    quickest_ms: int
    spread_ms: int  # two draws below this are added to the quickest: a triangular spread
    miss_permille: int  # chance of not noticing a valid pattern at all
    wrong_permille: int  # chance of slapping a near miss by mistake

    def slap_reaction(self, rng: Rng, form: int) -> int | None:
        """Delay before slapping a valid pattern, or None if the player misses it."""
        if rng.below(1000) < self.miss_permille:
            return None
        return self._delay(rng, form)

    def wrong_slap_reaction(self, rng: Rng, form: int) -> int | None:
        """Delay before wrongly slapping a near miss, or None (the usual case)."""
        if rng.below(1000) >= self.wrong_permille:
            return None
        return self._delay(rng, form)

    def _delay(self, rng: Rng, form: int) -> int:
        spread = self.spread_ms
        return (self.quickest_ms + rng.below(spread) + rng.below(spread)) * form // 1000


# (West, North, East) at each speed.
TABLES = {
    "slow": (
        Temperament(quickest_ms=500, spread_ms=258, miss_permille=300, wrong_permille=80),
        Temperament(quickest_ms=572, spread_ms=283, miss_permille=200, wrong_permille=30),
        Temperament(quickest_ms=639, spread_ms=355, miss_permille=300, wrong_permille=30),
    ),
    "normal": (
        Temperament(quickest_ms=360, spread_ms=185, miss_permille=250, wrong_permille=80),
        Temperament(quickest_ms=412, spread_ms=206, miss_permille=150, wrong_permille=30),
        Temperament(quickest_ms=464, spread_ms=258, miss_permille=250, wrong_permille=30),
    ),
    "fast": (
        Temperament(quickest_ms=265, spread_ms=138, miss_permille=180, wrong_permille=80),
        Temperament(quickest_ms=306, spread_ms=153, miss_permille=100, wrong_permille=30),
        Temperament(quickest_ms=347, spread_ms=189, miss_permille=180, wrong_permille=30),
    ),
}

# A computer player's typical slap: the median delay from a card to a computer slap on its
# pattern, over the three players and every form (``slap_median``; a test checks these).
# A human-like player whose reactions have this median wins about half the games.
TYPICAL_SLAP_MS = {"slow": 845, "normal": 610, "fast": 452}


def draw_form(rng: Rng) -> int:
    """This game's form, in permille of the computer players' usual slap reactions."""
    low, high = FORM_PERMILLE
    return low + rng.below(high - low + 1)


def flip_delay(rng: Rng) -> int:
    """How long a computer player takes to flip when it is their turn or they pay."""
    return FLIP_BASE_MS + rng.below(FLIP_SPREAD_MS) + rng.below(FLIP_SPREAD_MS)


def slap_median(speed: str) -> int:
    """The median delay of a computer slap on a valid pattern at ``speed``: over the three
    players and every form alike, exact, in whole milliseconds."""
    seats = TABLES[speed]
    low, high = FORM_PERMILLE
    tails = [_tail_counts(seat.spread_ms) for seat in seats]
    # a common denominator: each seat's spread² pairs of draws, weighted to count alike
    weights = [
        (seats[0].spread_ms * seats[1].spread_ms * seats[2].spread_ms) ** 2 // seat.spread_ms**2
        for seat in seats
    ]
    everything = 3 * weights[0] * seats[0].spread_ms ** 2 * (high - low + 1)

    def later_than(time_ms: int) -> int:
        """How many (seat, form, draws) cases, weighted, give a delay after ``time_ms``."""
        total = 0
        for form in range(low, high + 1):
            for seat, tail, weight in zip(seats, tails, weights, strict=True):
                # (quickest + k) x form // 1000 > t exactly when quickest + k >= ceil((t + 1) x 1000 / form)
                k = -(-(time_ms + 1) * 1000 // form) - seat.quickest_ms
                total += weight * tail[min(max(k, 0), len(tail) - 1)]
        return total

    earliest, latest = 0, max(s.quickest_ms + 2 * s.spread_ms for s in seats) * high // 1000
    while earliest < latest:  # the first time by which at least half the cases have slapped
        middle = (earliest + latest) // 2
        if 2 * later_than(middle) <= everything:
            latest = middle
        else:
            earliest = middle + 1
    return earliest


def _tail_counts(spread: int) -> list[int]:
    """``tail[k]``: how many of the spread² pairs of draws add up to k or more (k up to 2 x
    spread - 1, where none do)."""
    counts = [min(k + 1, 2 * spread - 1 - k) for k in range(2 * spread - 1)]
    tail = [0] * (len(counts) + 1)
    for k in range(len(counts) - 1, -1, -1):
        tail[k] = tail[k + 1] + counts[k]
    return tail
