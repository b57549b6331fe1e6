"""The human's score: a win counts time and wrong slaps, a loss counts piles slapped."""

from __future__ import annotations

from dataclasses import dataclass

WIN_BASE = 2000
PER_SECOND = 2
PER_WRONG_SLAP = 20
WIN_FLOOR = 500
PER_PILE_SLAPPED = 25


@dataclass(frozen=True)
class Score:
    """A score and how it was made, ready for an end-of-game screen."""

    total: int
    breakdown: dict

    @classmethod
    def for_win(cls, duration_ms: int, wrong_slaps: int) -> Score:
        """max(500, 2000 - 2 x whole seconds - 20 x wrong slaps).

        >>> Score.for_win(61_999, 2).total
        1838
        """
        seconds = duration_ms // 1000
        raw = WIN_BASE - PER_SECOND * seconds - PER_WRONG_SLAP * wrong_slaps
        breakdown = {
            "base": WIN_BASE,
            "seconds": seconds,
            "seconds_penalty": PER_SECOND * seconds,
            "wrong_slaps": wrong_slaps,
            "wrong_slap_penalty": PER_WRONG_SLAP * wrong_slaps,
            "floor": WIN_FLOOR,
            "floor_applied": raw < WIN_FLOOR,
        }
        return cls(max(WIN_FLOOR, raw), breakdown)

    @classmethod
    def for_loss(cls, piles_slapped: int) -> Score:
        """25 for each pile the human won by slapping first."""
        total = PER_PILE_SLAPPED * piles_slapped
        breakdown = {
            "piles_slapped": piles_slapped,
            "per_pile": PER_PILE_SLAPPED,
            "piles_score": total,
        }
        return cls(total, breakdown)
