"""The real-time game: a clock in integer milliseconds, the human's timed actions and
the computer players' scheduled flips and slaps, all settled in time order.

Determinism: everything scheduled strictly before time ``t`` happens before a human
action at ``t`` (so exact ties go to the human), and each happening draws from the
game's own generator in a fixed order. Advancing in 1 ms steps, in big jumps or only
at the human's actions therefore gives the same game.
"""

from __future__ import annotations

import bisect
import copy
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from . import cpu
from .cards import card_name
from .deal import SEATS, SOUTH, Deal, check_seed, daily_seed, deal
from .editions import NEWEST, edition_of
from .errors import (
    GameOverError,
    IllegalActionError,
    InvalidModeError,
    InvalidSeedError,
    InvalidSpeedError,
    InvalidTimeError,
    NotYourTurnError,
    TimeBeforeClockError,
)
from .events import event_of
from .house_rules import HouseRules
from .patterns import (
    COVERED,
    GAME_OVER,
    SLAPPED,
    TAKEN,
    TOO_LATE,
    PatternLog,
    PatternWindow,
)
from .rng import Rng
from .scoring import Score
from .stats import GameStats, Tally
from .table import Table

DAILY, PRACTICE = "daily", "practice"
FLIP, SLAP, RESIGN = "f", "s", "r"  # the human's actions, as replays write them
MODES = (DAILY, PRACTICE)
# The daily is the same game for everyone: its CPUs at this speed, under the standard (strict) rule.
DAILY_SPEED, DAILY_LENIENT = "normal", False
COLLECT_PAUSE_MS = 1000  # the pause before a won challenge's pile is taken
TIME_LIMIT_MS = 60 * 60 * 1000  # the bound that makes every game end

# Order of scheduled happenings that fall on the same millisecond.
_SLAP, _COLLECT, _FLIP, _LIMIT = 0, 1, 2, 3
CPU_SEATS = (1, 2, 3)


class Ending(StrEnum):
    """Why a game ended for the human (the result's and the game_over event's ``reason``)."""

    WON = "won"  # the human holds every card
    CPU_WON = "cpu_won"  # a computer player does
    ELIMINATED = "eliminated"  # the human slapped wrongly with no cards
    TIME_LIMIT = "time_limit"  # the bound every game ends by; the leader wins
    RESIGNED = "resigned"


@dataclass(frozen=True)
class Outcome:
    """How a game ended for the human."""

    won: bool
    winner: int | None  # the seat holding every card, or the leader at the time limit
    reason: Ending
    duration_ms: int
    score: Score
    stats: GameStats

    def to_dict(self) -> dict:
        """The JSON-ready result the view and the replay report carry."""
        return {
            "won": self.won,
            "winner": None if self.winner is None else SEATS[self.winner],
            "reason": self.reason.value,
            "duration_ms": self.duration_ms,
            "score": self.score.total,
            "breakdown": self.score.breakdown,
            "stats": self.stats.to_dict(),
        }


class Game:
    """One game of Egyptian War against three computer players.

    ``deal_override`` sets the packs and first player (for tests and puzzles); the
    seed still drives the computer players. ``house_rules`` (practice only) adds the
    house rules' patterns (``house_rules.py``). A practice game with a ``date`` is that
    date's daily played again: its deal and its computer players' reactions, unscored.

    >>> game = Game(seed=7, speed="fast")
    >>> game.advance_to(60_000)
    >>> game.clock
    60000
    """

    def __init__(
        self,
        seed: int,
        *,
        mode: str = PRACTICE,
        speed: str = cpu.DEFAULT_SPEED,
        lenient: bool = False,
        date: str | None = None,
        deal_override: Deal | None = None,
        house_rules: Iterable[str] | None = None,
    ) -> None:
        if mode not in MODES:
            raise InvalidModeError(f"unknown mode {mode!r}; expected one of {MODES}")
        if speed not in cpu.SPEEDS:
            raise InvalidSpeedError(f"unknown speed {speed!r}; expected one of {cpu.SPEEDS}")
        if mode == DAILY:
            if date is None:
                raise InvalidSeedError("a daily game needs its UTC date")
            if speed != DAILY_SPEED or bool(lenient) != DAILY_LENIENT or house_rules:
                raise InvalidModeError("daily games are played at normal speed with standard rules")
            seed = daily_seed(date)
        elif date is not None:  # a past daily played again: its deal and its CPUs' reactions
            if speed != DAILY_SPEED or bool(lenient) != DAILY_LENIENT or house_rules:
                raise InvalidModeError(
                    "a daily played again as practice keeps its normal speed and standard rules"
                )
            seed = daily_seed(date)
        self.seed = check_seed(seed)
        # what a daily depends on, by its date (a deploy changes no daily); practice: the newest
        self.edition = edition_of(date) if date is not None else NEWEST
        self.mode, self.speed, self.lenient, self.date = mode, speed, bool(lenient), date
        self.house = HouseRules(house_rules)  # practice only: extra patterns (house_rules.py)
        self.cpus = cpu.TABLES[speed]  # West, North, East
        self.rng = Rng.from_seed(seed)
        self.deal = deal(
            self.rng, jokers=self.house.jokers
        )  # drawn even when overridden, so the CPUs' draws match
        if deal_override is not None:
            self.deal = deal_override
        form = cpu.draw_form(self.rng)  # drawn for a daily too, so the draws after it match
        # the computer players' form in this game: a daily's is the same every day (steady dailies)
        self.form = self.edition.form_permille if date is not None else form
        self.table = Table(self.deal.packs, self.deal.first, lenient=self.lenient, house=self.house)
        self.clock = 0
        self.outcome: Outcome | None = None
        self.actions: list[tuple[int, str]] = []
        self.wrong_slaps = 0
        self.late_slaps = 0  # the human's slaps that came just too late: no cost (patterns.py)
        self.last_flip_ms = 0
        # since when a slappable pattern has been on top without a break (None: none on top now)
        self.slappable_since: int | None = None
        # each valid human slap: ms since a slappable pattern had been on top without a break
        self.reactions: list[int] = []
        # each valid human slap that beat a computer player's pending slap: by how many ms
        self.races: list[int] = []
        self.patterns = PatternLog(covered_too_late=self.edition.covered_too_late)
        self.tally = Tally()
        self.last_change_ms = 0  # when the last happening took place
        self._queue: list[tuple[int, int, int, int]] = []  # (time, order, seat, sequence)
        self._sequence = 0
        self._events: list[dict] = []
        self._schedule(TIME_LIMIT_MS, _LIMIT, -1)
        self._settle(0, pile_changed=True)

    @classmethod
    def daily(cls, date: str) -> Game:
        """The daily game of a UTC date (YYYY-MM-DD): normal speed, standard rules."""
        return cls(0, mode=DAILY, date=date)

    def __repr__(self) -> str:
        return (
            f"Game(seed={self.seed}, mode={self.mode!r}, speed={self.speed!r}, "
            f"lenient={self.lenient}, date={self.date!r}, house_rules={list(self.house.names)})"
        )

    # -- reading -----------------------------------------------------------------

    @property
    def over(self) -> bool:
        """True once the game has ended for the human."""
        return self.outcome is not None

    def next_event_time(self) -> int | None:
        """When the next scheduled happening takes place (it shows from that time + 1)."""
        if self.outcome or not self._queue:
            return None
        return self._queue[0][0]

    def take_events(self) -> list[dict]:
        """The events since the last call, oldest first, and forget them."""
        events, self._events = self._events, []
        return events

    @property
    def fastest_slap_ms(self) -> int | None:
        """The quickest valid human slap, in ms after the card that made its pattern."""
        return min(self.reactions, default=None)

    @property
    def human_must_flip(self) -> bool:
        """True when it is the human's turn to flip or pay."""
        return self.outcome is None and self.table.turn == SOUTH

    # -- time --------------------------------------------------------------------

    def advance_to(self, time_ms: int) -> None:
        """Apply everything scheduled strictly before ``time_ms``; the clock becomes ``time_ms``."""
        self._check_time(time_ms)
        while self._queue and self._queue[0][0] < time_ms and self.outcome is None:
            when, order, seat, _ = self._queue.pop(0)
            self._happen(when, order, seat)
        if self.outcome is None:
            self.clock = time_ms

    def _check_time(self, time_ms: int) -> None:
        if isinstance(time_ms, bool) or not isinstance(time_ms, int):
            raise InvalidTimeError(f"a time is an integer of milliseconds, not {time_ms!r}")
        if time_ms < self.clock:
            raise TimeBeforeClockError(f"time {time_ms} ms is before the clock ({self.clock} ms)")

    # -- the human's actions -----------------------------------------------------

    def flip(self, time_ms: int, *, atomic: bool = True) -> None:
        """The human flips (or pays) at ``time_ms``.

        Raises NotYourTurnError, TimeBeforeClockError or GameOverError and then changes
        nothing (with ``atomic=False`` the clock may have advanced; replays use that).
        """
        self._human_action(time_ms, FLIP, atomic)

    def slap(self, time_ms: int, *, atomic: bool = True) -> None:
        """The human slaps the pile at ``time_ms`` (right or wrong: the rules settle it)."""
        self._human_action(time_ms, SLAP, atomic)

    def resign(self, time_ms: int, *, atomic: bool = True) -> None:
        """The human gives up at ``time_ms``: the game is over, lost, with reason ``resigned``
        (a loss scores its piles slapped, as any loss does)."""
        self._human_action(time_ms, RESIGN, atomic)

    def act(self, time_ms: int, action: str, *, atomic: bool = True) -> None:
        """Apply one recorded action: ``"f"`` flip, ``"s"`` slap or ``"r"`` resign."""
        if action not in (FLIP, SLAP, RESIGN):
            raise IllegalActionError(f"unknown action {action!r}: expected 'f', 's' or 'r'")
        self._human_action(time_ms, action, atomic)

    def _human_action(self, time_ms: int, action: str, atomic: bool) -> None:
        self._check_time(time_ms)
        if self.outcome is not None:
            raise GameOverError("the game is over")
        saved, clock = None, self.clock
        if atomic and self._queue and self._queue[0][0] < time_ms:
            saved = self._save()
        try:
            self.advance_to(time_ms)
            if self.outcome is not None:
                raise GameOverError(f"the game was over at {self.outcome.duration_ms} ms")
            if action == FLIP and self.table.turn != SOUTH:
                raise NotYourTurnError(self._why_not_your_turn())
            self.actions.append((time_ms, action))
            if action == FLIP:
                self._flip(time_ms)
            elif action == SLAP:
                self._slap(time_ms, SOUTH)
            else:
                self._finish(time_ms, False, None, Ending.RESIGNED)
        except IllegalActionError:
            if saved is not None:
                self._restore(saved)
            elif atomic:
                self.clock = clock
            raise

    def _why_not_your_turn(self) -> str:
        table = self.table
        if table.collector is not None:
            return f"{SEATS[table.collector]} is about to take the pile"
        if not table.packs[SOUTH]:
            return "you have no cards to flip"
        return f"it is {SEATS[table.turn]}'s turn to flip"

    _STATE = (
        "table",
        "clock",
        "outcome",
        "actions",
        "wrong_slaps",
        "late_slaps",
        "last_flip_ms",
        "slappable_since",
        "reactions",
        "races",
        "patterns",
        "tally",
        "last_change_ms",
        "_queue",
        "_sequence",
        "_events",
    )

    def _save(self) -> tuple:
        return copy.deepcopy(tuple(getattr(self, name) for name in self._STATE)), self.rng.state

    def _restore(self, saved: tuple) -> None:
        values, self.rng.state = saved
        for name, value in zip(self._STATE, values):
            setattr(self, name, value)

    # -- what happens ------------------------------------------------------------

    def _happen(self, when: int, order: int, seat: int) -> None:
        if order == _SLAP:
            self._slap(when, seat)
        elif order == _FLIP:
            self._flip(when)
        elif order == _COLLECT:
            table = self.table
            how = "challenge" if table.challenger is not None else "last_card"
            self.patterns.end(when, TAKEN, table.collector)
            table.take_pile(table.collector, how)
            self.slappable_since = None
            self._settle(when, pile_changed=True, pile_taken=True)
        else:
            self._end_at_time_limit(when)

    def _flip(self, when: int) -> None:
        table = self.table
        seat = table.turn
        was_slappable = table.pattern() is not None
        table.flip()
        self.last_flip_ms = when
        if table.pattern() is None:
            self.slappable_since = None
        elif not was_slappable or self.slappable_since is None:
            self.slappable_since = when
        self.patterns.after_flip(when, seat, table)
        self._settle(when, pile_changed=True)

    def _slap(self, when: int, seat: int) -> None:
        table = self.table
        if not table.pattern() and not table.eliminated[seat]:
            missed = self.patterns.too_late_for(when, seat, table)
            if missed is not None:
                self._late_slap(when, seat, missed)
                return
        why = None if table.pattern() else self.patterns.why_wrong(when, table)
        since = self.slappable_since
        if table.pattern() and seat == SOUTH:
            pending = [entry[0] for entry in self._queue if entry[1] == _SLAP]
            if pending:
                self.races.append(min(pending) - when)
        pattern = table.slap(seat)
        if pattern:
            self.patterns.end(when, SLAPPED, seat)
            self.slappable_since = None
        if seat == SOUTH:
            if pattern:
                self.reactions.append(when - since)
            else:
                self.wrong_slaps += 1
        taken = pattern is not None
        self._settle(
            when, pile_changed=taken, pile_taken=taken, why_wrong=why, reaction_since=since
        )

    def _late_slap(self, when: int, seat: int, missed: PatternWindow) -> None:
        """A slap just too late for a pattern another player took or the next card covered: it
        changes nothing on the table and costs nothing; the event says who took it or which card
        covered it (and who flipped that card), and how many ms before."""
        if seat == SOUTH:
            self.late_slaps += 1
        event = {
            "t": when,
            "type": "late_slap",
            "seat": SEATS[seat],
            "pattern": missed.pattern,
            "reason": TOO_LATE if missed.end == SLAPPED else COVERED,
            "by": SEATS[missed.ended_by],
            "ms": when - missed.ended_at,
        }
        if missed.end == COVERED:
            event["card"] = card_name(missed.cover)
        self._events.append(event)

    def _settle(
        self,
        when: int,
        *,
        pile_changed: bool,
        pile_taken: bool = False,
        why_wrong: dict | None = None,
        reaction_since: int | None = None,
    ) -> None:
        """Turn the table's log into events, end the game if it is over, and schedule
        what the computer players and the pause will do next."""
        table = self.table
        self.last_change_ms = when
        self._record(when, why_wrong, reaction_since)
        if table.winner is not None:
            self._finish(
                when,
                table.winner == SOUTH,
                table.winner,
                Ending.WON if table.winner == SOUTH else Ending.CPU_WON,
            )
            return
        if table.eliminated[SOUTH]:
            self._finish(when, False, None, Ending.ELIMINATED)
            return
        if pile_changed:
            self._unschedule(_SLAP)
            self._decide_slaps(when)
        if pile_taken:
            self._unschedule(_FLIP)
        self._schedule_flip(when)
        collecting = any(entry[1] == _COLLECT for entry in self._queue)
        if table.collector is not None and not collecting:
            self._schedule(when + COLLECT_PAUSE_MS, _COLLECT, table.collector)
        elif table.collector is None and collecting:
            self._unschedule(_COLLECT)

    def _decide_slaps(self, when: int) -> None:
        table, rng, form = self.table, self.rng, self.form
        if self.date is not None:  # a daily, or a past daily played again
            form = cpu.daily_form(self.form, len(table.packs[SOUTH]), table.total)
        if table.pattern():
            for seat in CPU_SEATS:
                if not table.eliminated[seat]:
                    delay = self.cpus[seat - 1].slap_reaction(rng, form)
                    if delay is not None:
                        self._schedule(when + delay, _SLAP, seat)
        elif table.near_miss():
            for seat in CPU_SEATS:
                # a computer player with no cards is careful: a wrong slap would eliminate it
                if table.packs[seat]:
                    delay = self.cpus[seat - 1].wrong_slap_reaction(rng, form)
                    if delay is not None:
                        self._schedule(when + delay, _SLAP, seat)

    def _schedule_flip(self, when: int) -> None:
        turn = self.table.turn
        pending = [entry for entry in self._queue if entry[1] == _FLIP]
        if pending and pending[0][2] == turn:
            return
        if pending:
            self._unschedule(_FLIP)
        if turn is not None and turn != SOUTH:
            self._schedule(when + cpu.flip_delay(self.rng), _FLIP, turn)

    def _schedule(self, when: int, order: int, seat: int) -> None:
        self._sequence += 1
        bisect.insort(self._queue, (when, order, seat, self._sequence))

    def _unschedule(self, order: int) -> None:
        self._queue = [entry for entry in self._queue if entry[1] != order]

    def _record(self, when: int, why_wrong: dict | None, reaction_since: int | None) -> None:
        log = self.table.log
        previous = None
        for entry in log:
            self.tally.count(entry, previous)
            details = None
            if entry.kind == "slap_won":
                details = {"reaction_ms": when - reaction_since}
            elif entry.kind == "wrong_slap":
                details = why_wrong
            self._events.append(event_of(entry, when, details))
            previous = entry
        log.clear()

    # -- the end -----------------------------------------------------------------

    def _end_at_time_limit(self, when: int) -> None:
        counts = [len(pack) for pack in self.table.packs]
        # the human must lead outright: a tie (say, a human who never flips) is no win
        leader = max(range(4), key=lambda seat: (counts[seat], seat != SOUTH, -seat))
        self._finish(when, leader == SOUTH, leader, Ending.TIME_LIMIT)

    def _finish(self, when: int, won: bool, winner: int | None, reason: Ending) -> None:
        if won:
            score = Score.for_win(when, self.wrong_slaps)
        else:
            score = Score.for_loss(self.table.slaps_won[SOUTH])
        self.patterns.end(when, GAME_OVER, None)
        stats = self.tally.stats(SOUTH, self.reactions)
        self.outcome = Outcome(won, winner, reason, when, score, stats)
        self.clock = when
        self._queue = []
        self._events.append(
            {
                "t": when,
                "type": "game_over",
                "won": won,
                "winner": None if winner is None else SEATS[winner],
                "score": score.total,
                "reason": reason.value,
            }
        )

    # -- the view ----------------------------------------------------------------

    def view(self) -> dict:
        """What a player at the table can see, as JSON-ready data."""
        table = self.table
        face_up = table.pile[max(table.burned, len(table.pile) - 3) :]
        challenge = None
        if table.challenger is not None and table.turn is not None:
            challenge = {
                "challenger": SEATS[table.challenger],
                "payer": SEATS[table.turn],
                "owed": table.challenge_value,
                "left": table.owed,
            }
        collecting = None
        if table.collector is not None:
            at = next((e[0] for e in self._queue if e[1] == _COLLECT), None)
            collecting = {"by": SEATS[table.collector], "at": at}
        outcome = self.outcome
        wake = self.next_event_time()
        return {
            "seed": self.seed,
            "mode": self.mode,
            "date": self.date,
            "speed": self.speed,
            "lenient": self.lenient,
            "house_rules": list(self.house.names),
            "clock": self.clock,
            "wake_at": None if wake is None else wake + 1,
            "seats": [
                {
                    "seat": SEATS[seat],
                    "cards": len(table.packs[seat]),
                    "status": table.status(seat),
                    "strikes": table.strikes[seat],
                }
                for seat in range(4)
            ],
            "pile": {
                "top": [card_name(card) for card in face_up],
                "size": len(table.pile),
                "burned": table.burned,
            },
            "turn": None if table.turn is None or outcome else SEATS[table.turn],
            "challenge": challenge,
            "collecting": collecting,
            "your_turn": self.human_must_flip,
            "wrong_slaps": self.wrong_slaps,
            "piles_slapped": table.slaps_won[SOUTH],
            # the running score: what a win would score at this moment, or the final score
            "score": outcome.score.total
            if outcome
            else Score.for_win(self.clock, self.wrong_slaps).total,
            "over": outcome is not None,
            "result": None if outcome is None else outcome.to_dict(),
        }
