"""Simulated players for tests and benchmarks (outside the wheel), each in the South seat.

- ``ExactPlayer``: slaps every valid pattern a fixed time after its card, never wrongly, and
  flips a fixed time after its turn begins. The tests that need exact timings use it.
- ``HumanLikePlayer``: the player of the brief. Its reaction to each pattern is lognormal
  around a median (sigma 0.3; touch and display latency included; never under 120 ms), it
  misses 10% of patterns, slaps 2% of near misses wrongly, and flips a lognormal ~400 ms
  after its turn shows. CPU speeds are tuned, and the score judge is checked, against it.
- ``ExGaussianPlayer``: a second person, written to another model (issue 18): reactions
  ex-Gaussian (median M, spread 0.12 M, tail 0.25 M), 8% of patterns missed, 2% of near misses
  slapped, flips lognormal ~430 ms after the turn shows.
- ``BotPlayer``: a machine that never misses, for the score judge's benchmark and tests.
- ``ForeknowledgeBot``: a machine that reads when each computer player's slap is due and slaps
  just before it, with a person's reactions otherwise (issue 18).

The people react only to what the table shows: a pattern gone before their slap is let go,
unless the tap was already in its last ``commit_ms`` (200 ms in the benchmarks): a person cannot
stop a tap under way, so it lands on whatever the table shows then.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from statistics import NormalDist

from ewar.deal import SOUTH
from ewar.game import Game

Plan = tuple[int, str] | None  # (time, "f" | "s"), or nothing to do before the next happening
REACTION_FLOOR_MS = 120  # no person reacts to a card sooner: the lognormal's tail below is redrawn
_STANDARD_NORMAL = NormalDist()


class ExactPlayer:
    """Slaps each valid pattern ``reaction_ms`` after its card (``reactions`` maps a chosen
    card's time to another reaction), never wrongly; flips ``flip_ms`` after its turn begins."""

    def __init__(
        self, reaction_ms: int = 450, flip_ms: int = 300, reactions: dict[int, int] | None = None
    ) -> None:
        self.reaction_ms, self.flip_ms, self.reactions = reaction_ms, flip_ms, reactions or {}
        self.slapped_card: int | None = None

    def plan(self, game: Game) -> Plan:
        table = game.table
        card = game.last_flip_ms
        if table.pattern() and self.slapped_card != card and not table.eliminated[SOUTH]:
            return max(game.clock, card + self.reactions.get(card, self.reaction_ms)), "s"
        if game.human_must_flip:
            return max(game.clock, game.last_change_ms + self.flip_ms), "f"
        return None

    def acted(self, game: Game, action: str) -> None:
        if action == "s":
            self.slapped_card = game.last_flip_ms


class HumanLikePlayer:
    """A person at the table with a median reaction of ``median_ms``; ``seed`` fixes its draws;
    ``reactions`` maps a chosen card's time to an exact reaction to its pattern (for tests).

    Each draw uses only ``random.Random.random()``, whose sequence Python keeps the same
    across versions, so a seed gives the same player everywhere.
    """

    def __init__(
        self,
        median_ms: float,
        seed: int,
        *,
        sigma: float = 0.3,
        miss: float = 0.10,
        near_miss: float = 0.02,
        flip_median_ms: float = 400,
        flip_sigma: float = 0.3,
        reactions: dict[int, int] | None = None,
        commit_ms: int = 0,
    ) -> None:
        self.median_ms, self.sigma, self.miss, self.near_miss = median_ms, sigma, miss, near_miss
        self.commit_ms = commit_ms  # a tap this close to landing cannot be stopped any more
        self.flip_median_ms, self.flip_sigma = flip_median_ms, flip_sigma
        self.reactions = reactions or {}  # a chosen card's time -> this exact reaction to it
        self.rng = random.Random(seed)
        self.seen_top: tuple[int, int] | None = None  # (its last card's time, face-up cards)
        self.slap_at: int | None = None  # the slap planned on that top, if any
        self.flip_at: int | None = None  # the flip planned in this turn, if any

    def lognormal(self, median: float, sigma: float) -> int:
        u = min(max(self.rng.random(), 1e-12), 1 - 1e-12)
        return round(median * math.exp(sigma * _STANDARD_NORMAL.inv_cdf(u)))

    def reaction(self) -> int:
        """A reaction to a card: lognormal around the median, redrawn below the floor."""
        while (delay := self.lognormal(self.median_ms, self.sigma)) < REACTION_FLOOR_MS:
            pass
        return delay

    def plan(self, game: Game) -> Plan:
        table = game.table
        if table.eliminated[SOUTH]:
            return None
        top = (game.last_flip_ms, len(table.pile) - table.burned)
        if top != self.seen_top:  # a new top: look at it once
            under_way = (
                self.slap_at is not None and self.slap_at - self.commit_ms <= game.last_change_ms
            )
            self.seen_top = top
            if not under_way:
                self.slap_at = None
            card = game.last_flip_ms
            if under_way:
                pass  # the tap lands whatever the table now shows
            elif table.pattern() and card in self.reactions:
                self.slap_at = card + self.reactions[card]
            elif table.pattern():
                if self.rng.random() >= self.miss:
                    self.slap_at = card + self.reaction()
            elif table.near_miss() and table.packs[SOUTH] and self.rng.random() < self.near_miss:
                self.slap_at = card + self.reaction()
        if self.slap_at is not None:  # a pattern seen is slapped before anything else
            return max(game.clock, self.slap_at), "s"
        if not game.human_must_flip:
            self.flip_at = None
            return None
        if self.flip_at is None:  # the turn shows: decide when to flip
            delay = self.lognormal(self.flip_median_ms, self.flip_sigma)
            self.flip_at = game.last_change_ms + delay
        return max(game.clock, self.flip_at), "f"

    def acted(self, game: Game, action: str) -> None:
        # after a slap or a flip, the next flip is a new decision from what then shows
        self.slap_at = self.flip_at = None


def _ex_gaussian_median(sigma: float, tau: float) -> float:
    """The median of a normal(0, sigma) plus an exponential of mean tau."""

    def cdf(x: float) -> float:
        shifted = NormalDist(sigma * sigma / tau, sigma)  # the standard closed form
        return _STANDARD_NORMAL.cdf(x / sigma) - math.exp(
            -x / tau + sigma * sigma / (2 * tau * tau)
        ) * shifted.cdf(x)

    low, high = -5 * sigma, 5 * sigma + 10 * tau
    for _ in range(100):
        middle = (low + high) / 2
        low, high = (middle, high) if cdf(middle) < 0.5 else (low, middle)
    return low


EX_GAUSSIAN_SPREAD, EX_GAUSSIAN_TAIL = 0.12, 0.25  # of the median
_EX_GAUSSIAN_OFFSET = _ex_gaussian_median(EX_GAUSSIAN_SPREAD, EX_GAUSSIAN_TAIL)


class ExGaussianPlayer(HumanLikePlayer):
    """A person whose reactions are ex-Gaussian: a normal part (spread 0.12 of the median) plus
    an exponential tail (mean 0.25 of the median), placed so their median is ``median_ms``;
    8% of patterns missed, 2% of near misses slapped, flips lognormal around 430 ms, and a tap
    cannot be stopped in its last 200 ms. Only ``random.Random.random()`` is drawn."""

    def __init__(self, median_ms: float, seed: int, **traits) -> None:
        traits = {
            "miss": 0.08,
            "near_miss": 0.02,
            "flip_median_ms": 430,
            "flip_sigma": 0.25,
            "commit_ms": 200,
            **traits,
        }
        super().__init__(median_ms, seed, **traits)
        self.normal_mean = median_ms * (1 - _EX_GAUSSIAN_OFFSET)

    def reaction(self) -> int:
        while True:
            u = min(max(self.rng.random(), 1e-12), 1 - 1e-12)
            normal = self.normal_mean + EX_GAUSSIAN_SPREAD * self.median_ms * (
                _STANDARD_NORMAL.inv_cdf(u)
            )
            tail = -EX_GAUSSIAN_TAIL * self.median_ms * math.log(1 - self.rng.random())
            if (delay := round(normal + tail)) >= REACTION_FLOOR_MS:
                return delay


class BotPlayer:
    """A machine: slaps every valid pattern a uniform ``low``-``high`` ms after its card (the
    same time each pattern when they are equal), never misses, never slaps wrongly; flips at
    once (``person_flips`` False) or, to hide, a person's lognormal ~400 ms after its turn."""

    def __init__(self, low_ms: int, high_ms: int, seed: int, *, person_flips: bool = False):
        self.low_ms, self.high_ms, self.person_flips = low_ms, high_ms, person_flips
        self.rng = random.Random(seed)
        self.person = HumanLikePlayer(400, seed)  # only its flip timing is used
        self.slapped_card: int | None = None  # the card whose pattern it has timed a slap for
        self.slap_at: int | None = None
        self.flip_at: int | None = None

    def plan(self, game: Game) -> Plan:
        table, card = game.table, game.last_flip_ms
        if table.pattern() and self.slapped_card != card and not table.eliminated[SOUTH]:
            self.slapped_card = card
            jitter = int(self.rng.random() * (self.high_ms - self.low_ms + 1))
            self.slap_at = card + self.low_ms + jitter
        if table.pattern() and self.slap_at is not None:
            return max(game.clock, self.slap_at), "s"
        if not game.human_must_flip:
            self.flip_at = None
            return None
        if self.flip_at is None:
            delay = self.person.lognormal(400, 0.3) if self.person_flips else 0
            self.flip_at = game.last_change_ms + delay
        return max(game.clock, self.flip_at), "f"

    def acted(self, game: Game, action: str) -> None:
        self.slap_at = self.flip_at = None


class ForeknowledgeBot:
    """A machine that knows the future: it reads when each computer player's slap is due (the
    engine's schedule) and slaps ``lead_ms`` (1 to 5 ms) before the first, or after a person's
    500-700 ms (an ordinary player) when no one is due sooner; it never misses a pattern and flips like a person. It
    wins every race by a few ms."""

    def __init__(self, seed: int, *, low_ms: int = 500, high_ms: int = 700) -> None:
        self.rng = random.Random(seed)
        self.low_ms, self.high_ms = low_ms, high_ms
        self.person = HumanLikePlayer(400, seed)  # only its flip timing is used
        self.slapped_top: int | None = None
        self.slap_at: int | None = None
        self.flip_at: int | None = None

    def plan(self, game: Game) -> Plan:
        table = game.table
        if table.eliminated[SOUTH]:
            return None
        since = game.slappable_since
        if since is not None and self.slapped_top != since:
            self.slapped_top = since
            reaction = self.low_ms + int(self.rng.random() * (self.high_ms - self.low_ms + 1))
            due = [when for when, order, _, _ in game._queue if order == 0]  # computer slaps
            lead = 1 + int(self.rng.random() * 5)
            self.slap_at = min([since + reaction, *(when - lead for when in due)])
        if since is not None and self.slap_at is not None:
            return max(game.clock, self.slap_at), "s"
        if not game.human_must_flip:
            self.flip_at = None
            return None
        if self.flip_at is None:
            self.flip_at = game.last_change_ms + self.person.lognormal(400, 0.3)
        return max(game.clock, self.flip_at), "f"

    def acted(self, game: Game, action: str) -> None:
        self.slap_at = self.flip_at = None


def mixed_pace_player(seed: int):
    """Exact players from 250 to 700 ms and human-like ones from 300 to 900 ms, by turns of the seed."""
    if seed % 2:
        return ExactPlayer(250 + (seed * 37) % 450, 250)
    return HumanLikePlayer(300 + (seed * 53) % 600, seed)


def play(game: Game, player, after_each: Callable[[Game], None] | None = None) -> Game:
    """Play ``game`` to its end with ``player`` in the South seat; ``after_each(game)`` runs
    after every action and every happening (for checks)."""
    while not game.over:
        plan = player.plan(game)
        upcoming = game.next_event_time()
        if plan is not None and (upcoming is None or plan[0] <= upcoming):
            when, action = plan
            game.act(when, action, atomic=False)
            player.acted(game, action)
        elif upcoming is not None:
            game.advance_to(upcoming + 1)
        else:
            raise RuntimeError("the game is stuck: nothing scheduled and nothing to do")
        if after_each is not None:
            after_each(game)
    return game


def play_simulated_human(
    game: Game, reaction_ms: int = 450, flip_ms: int = 300, reactions: dict[int, int] | None = None
) -> Game:
    """Play ``game`` to its end with the exact player (see ``ExactPlayer``)."""
    return play(game, ExactPlayer(reaction_ms, flip_ms, reactions))


def play_human_like(game: Game, median_ms: float, seed: int, **traits) -> Game:
    """Play ``game`` to its end with a human-like player (see ``HumanLikePlayer``)."""
    return play(game, HumanLikePlayer(median_ms, seed, **traits))
