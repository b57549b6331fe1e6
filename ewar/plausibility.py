"""The score judge's plausibility model: whole-game rules that tell machine-timed play from a
person's. Its numbers, how they were measured and its limit are in docs/scores.md ("The score
judge"); ``benchmarks/engine_judge.py`` measures it against honest players and bots.

A person's slaps vary from one to the next and their flips too; a machine's need not. So
the rules look at the spread of the human's times, and at slaps too quick on the whole.
Integer arithmetic only: the same verdict in CPython and in Pyodide.
"""

from __future__ import annotations

from dataclasses import dataclass

from .deal import SEATS, SOUTH
from .errors import ImplausiblePlayError
from .stats import median_ms

# From this many valid slaps, a relative spread below this (permille) is machine-regular.
REGULAR_SLAPS = ((20, 40), (12, 30), (8, 20), (6, 12), (5, 8), (4, 3))
QUICK_SLAPS, QUICK_MEDIAN_MS = 10, 160  # from 10 valid slaps, a median under 160 ms is not a person
REGULAR_FLIPS, REGULAR_FLIP_SPREAD_MS = 10, 10  # from 10 flips, a spread under 10 ms is a machine
# Foreknowledge: a race won by CLOSE_RACE_MS or less against a computer player's slap that was due
# is luck for a person (~3% of races); from FOREKNOWN_RACES such races making FOREKNOWN_SHARE
# permille of the races won or more, the player knew when each computer slap was due.
CLOSE_RACE_MS, FOREKNOWN_RACES, FOREKNOWN_SHARE = 10, 6, 400


def spread_ms(values: list[int], median: int) -> int:
    """The mean distance of the values from their median, rounded down to a whole ms."""
    return sum(abs(value - median) for value in values) // len(values)


def flip_delays(events: list[dict]) -> list[int]:
    """How long after the happening before it (the moment the turn showed) each of the human's
    flips came, from a game's whole event stream."""
    delays, previous = [], 0
    for event in events:
        if event["type"] == "flip" and event["seat"] == SEATS[SOUTH]:
            delays.append(event["t"] - previous)
        previous = event["t"]
    return delays


@dataclass(frozen=True)
class PlayTimes:
    """The human's timings in one game: what the rules look at."""

    slaps: tuple[int, ...]  # each valid slap: ms since a slappable pattern was on top unbroken
    flips: tuple[int, ...]  # each flip: ms after the happening before it
    races: tuple[int, ...] = ()  # each valid slap that beat a computer's due slap: by how many ms

    @property
    def close_races(self) -> int:
        """The races won by ``CLOSE_RACE_MS`` or less."""
        return sum(margin <= CLOSE_RACE_MS for margin in self.races)

    @property
    def slap_median_ms(self) -> int | None:
        return median_ms(list(self.slaps))

    @property
    def slap_spread_permille(self) -> int | None:
        """The slaps' mean distance from their median, in thousandths of the median."""
        median = self.slap_median_ms
        if not median:
            return None
        return 1000 * spread_ms(list(self.slaps), median) // median

    @property
    def flip_spread_ms(self) -> int | None:
        if not self.flips:
            return None
        return spread_ms(list(self.flips), median_ms(list(self.flips)))

    def to_dict(self) -> dict:
        """The figures the judge reports with an accepted record."""
        return {
            "slap_median_ms": self.slap_median_ms,
            "slap_spread_permille": self.slap_spread_permille,
            "flips": len(self.flips),
            "flip_spread_ms": self.flip_spread_ms,
            "races": len(self.races),
            "close_races": self.close_races,
        }


def check(times: PlayTimes) -> None:
    """Raise ImplausiblePlayError, saying which rule, if the timings are a machine's."""
    slaps = len(times.slaps)
    spread = times.slap_spread_permille
    for least_slaps, least_spread in REGULAR_SLAPS:
        if slaps >= least_slaps:
            if spread is not None and spread < least_spread:
                raise ImplausiblePlayError(
                    f"the {slaps} valid slaps came {times.slap_median_ms} ms after their cards to "
                    f"within {spread / 10:.1f}% of each other on average: a person's vary far more "
                    f"(from {least_slaps} slaps, at least {least_spread / 10:.1f}%)"
                )
            break
    median = times.slap_median_ms
    if slaps >= QUICK_SLAPS and median is not None and median < QUICK_MEDIAN_MS:
        raise ImplausiblePlayError(
            f"the {slaps} valid slaps came a median {median} ms after their cards: under "
            f"{QUICK_MEDIAN_MS} ms over {QUICK_SLAPS} slaps or more is quicker than a person"
        )
    close, races = times.close_races, len(times.races)
    if close >= FOREKNOWN_RACES and 1000 * close >= FOREKNOWN_SHARE * races:
        raise ImplausiblePlayError(
            f"{close} of the {races} races with a computer player's slap were won by "
            f"{CLOSE_RACE_MS} ms or less: a person wins so few that closely; from "
            f"{FOREKNOWN_RACES}, {FOREKNOWN_SHARE / 10:.0f}% of the races or more, the player knew "
            f"when each computer slap was due"
        )
    flip_spread = times.flip_spread_ms
    if len(times.flips) >= REGULAR_FLIPS and flip_spread < REGULAR_FLIP_SPREAD_MS:
        raise ImplausiblePlayError(
            f"the {len(times.flips)} flips came {median_ms(list(times.flips))} ms after the turn "
            f"showed to within {flip_spread} ms of each other on average: a person's vary far "
            f"more (at least {REGULAR_FLIP_SPREAD_MS} ms)"
        )
