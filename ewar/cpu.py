"""How the computer players behave: flip delays, slap reactions, misses and wrong slaps.

Every number is drawn from the game's own generator, so the same situation gets the
same reaction on every machine. The speeds were tuned by simulation
(``benchmarks/engine_cpu_speeds.py``), not by guess.
"""

from __future__ import annotations

from dataclasses import dataclass

from .rng import Rng

SPEEDS = ("slow", "normal", "fast")

FLIP_BASE_MS = 450
FLIP_SPREAD_MS = 200  # two draws below this are added: a triangular spread


@dataclass(frozen=True)
class CpuProfile:
    """How fast and how reliably the computer players slap at one speed setting."""

    slap_base_ms: int
    slap_spread_ms: int  # three draws below this are added to the base
    miss_permille: int  # chance of not noticing a valid pattern at all
    wrong_permille: int  # chance of slapping a near miss by mistake

    def slap_reaction(self, rng: Rng) -> int | None:
        """Delay before slapping a valid pattern, or None if the player misses it."""
        if rng.below(1000) < self.miss_permille:
            return None
        spread = self.slap_spread_ms
        return self.slap_base_ms + rng.below(spread) + rng.below(spread) + rng.below(spread)

    def wrong_slap_reaction(self, rng: Rng) -> int | None:
        """Delay before wrongly slapping a near miss, or None (the usual case)."""
        if rng.below(1000) >= self.wrong_permille:
            return None
        spread = self.slap_spread_ms
        return self.slap_base_ms + rng.below(spread) + rng.below(spread) + rng.below(spread)


PROFILES = {
    "slow": CpuProfile(slap_base_ms=320, slap_spread_ms=180, miss_permille=200, wrong_permille=30),
    "normal": CpuProfile(
        slap_base_ms=253, slap_spread_ms=150, miss_permille=120, wrong_permille=40
    ),
    "fast": CpuProfile(slap_base_ms=180, slap_spread_ms=80, miss_permille=50, wrong_permille=40),
}


def flip_delay(rng: Rng) -> int:
    """How long a computer player takes to flip when it is their turn or they pay."""
    return FLIP_BASE_MS + rng.below(FLIP_SPREAD_MS) + rng.below(FLIP_SPREAD_MS)
