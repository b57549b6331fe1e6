"""End-of-game statistics of the human: cards won, burns, slap-backs and reaction times,
and which computer speed those reactions match."""

from __future__ import annotations

from dataclasses import dataclass

from . import cpu
from .log import LogEntry, PileTaken, PlayerBack, WrongSlap


def median_ms(values: list[int]) -> int | None:
    """The median of whole milliseconds, rounded down to a whole millisecond (None if empty)."""
    if not values:
        return None
    ordered = sorted(values)
    middle = len(ordered) // 2
    if len(ordered) % 2:
        return ordered[middle]
    return (ordered[middle - 1] + ordered[middle]) // 2


def matching_speed(reaction_ms: int) -> str:
    """The CPU speed whose typical slap time is nearest ``reaction_ms`` (the slower on a tie)."""
    return min(cpu.SPEEDS, key=lambda speed: abs(cpu.TYPICAL_SLAP_MS[speed] - reaction_ms))


@dataclass(frozen=True)
class GameStats:
    """What the human did in one game."""

    cards_won: int  # cards of every pile the human took (by slap, challenge or last card)
    piles_won: int
    burns: int  # cards burned by wrong slaps
    slap_backs: int  # times the human, out of cards, slapped back into the game
    reactions: tuple[int, ...]  # each valid slap: ms after the card that made its pattern

    def to_dict(self) -> dict:
        """JSON-ready, with the reactions summed up: count, median, best, matching speed."""
        median = median_ms(list(self.reactions))
        speed = None if median is None else matching_speed(median)
        return {
            "cards_won": self.cards_won,
            "piles_won": self.piles_won,
            "burns": self.burns,
            "slap_backs": self.slap_backs,
            "reactions": {
                "count": len(self.reactions),
                "median_ms": median,
                "best_ms": min(self.reactions, default=None),
                "speed": speed,
                "speed_slap_ms": None if speed is None else cpu.TYPICAL_SLAP_MS[speed],
            },
        }


class Tally:
    """Counts, per seat, what the table's log says as the game goes."""

    __slots__ = ("burns", "cards_won", "piles_won", "slap_backs")

    def __init__(self, seats: int = 4) -> None:
        self.cards_won = [0] * seats
        self.piles_won = [0] * seats
        self.burns = [0] * seats
        self.slap_backs = [0] * seats

    def __deepcopy__(self, memo: dict) -> Tally:
        twin = Tally(len(self.burns))
        for name in self.__slots__:
            setattr(twin, name, list(getattr(self, name)))
        return twin

    def count(self, entry: LogEntry, previous: LogEntry | None) -> None:
        """Count one log entry (``previous`` is the entry before it in the same batch)."""
        seat = entry.seat
        if isinstance(entry, PileTaken):
            self.cards_won[seat] += entry.cards
            self.piles_won[seat] += 1
        elif isinstance(entry, WrongSlap) and entry.card is not None:
            self.burns[seat] += 1
        elif (
            isinstance(entry, PlayerBack)
            and isinstance(previous, PileTaken)
            and previous.how == "slap"
        ):
            self.slap_backs[seat] += 1

    def stats(self, seat: int, reactions: list[int]) -> GameStats:
        """The statistics of ``seat`` (the human's reactions are kept by the game)."""
        return GameStats(
            cards_won=self.cards_won[seat],
            piles_won=self.piles_won[seat],
            burns=self.burns[seat],
            slap_backs=self.slap_backs[seat],
            reactions=tuple(reactions),
        )
