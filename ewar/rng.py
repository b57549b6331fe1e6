"""The engine's own seeded random generator (SplitMix64).

Python's ``random`` is not used: a 64-bit integer state is cheap to copy, and the
sequence is fixed by this file alone, the same in CPython and in Pyodide on every
machine and for every future Python version.
"""

from __future__ import annotations

import hashlib

_MASK = (1 << 64) - 1


class Rng:
    """A SplitMix64 generator; ``Rng.from_seed(s)`` accepts any integer seed."""

    __slots__ = ("state",)

    def __init__(self, state: int) -> None:
        self.state = state & _MASK

    @classmethod
    def from_seed(cls, seed: int) -> Rng:
        """A generator whose state is a hash of the seed (negative and huge seeds are fine)."""
        digest = hashlib.sha256(f"ewar-rng:{seed}".encode()).digest()
        return cls(int.from_bytes(digest[:8], "big"))

    def next64(self) -> int:
        """The next 64-bit output."""
        self.state = z = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``range(n)``, without modulo bias."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            value = self.next64()
            if value < limit:
                return value % n

    def shuffle(self, items: list) -> None:
        """Shuffle a list in place (Fisher-Yates)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
