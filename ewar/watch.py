"""Watching a recorded game: the table at any moment of a finished record, and the moments
worth marking on its timeline (each slap, who made it and how quickly; each wrong slap and why).

Watching replays the record with the engine and changes nothing: the record, the player's
history and the board stay as they were. Going forward plays on from where the watcher is;
going back rebuilds the game from its deal, which costs one replay of the part before.
"""

from __future__ import annotations

from .errors import ReplayError
from .replay import Replay

# The fields of an event that a timeline mark keeps (the face-up cards are left to the table).
_MARKED = {
    "slap_won": ("seat", "pattern", "reaction_ms"),
    "wrong_slap": (
        "seat",
        "reason",
        "pattern",
        "by",
        "ms",
        "burned",
        "out_of_cards",
        "house_rules",
    ),
    "late_slap": ("seat", "pattern", "reason", "by", "card", "ms"),
    "player_eliminated": ("seat",),
    "game_over": ("won", "winner", "score", "reason"),
}


class Watch:
    """A finished game's record played back: ``frame`` moves forward, ``seek`` jumps anywhere.

    >>> from ewar.game import Game
    >>> from ewar.replay import Replay
    >>> game = Game(seed=7)
    >>> game.resign(1500)
    >>> Watch(Replay.of(game)).duration_ms
    1500
    """

    def __init__(self, record: Replay) -> None:
        whole = record.play()  # raises ReplayError for a record the rules refuse
        if whole.outcome is None:
            raise ReplayError(
                f"only a finished game can be watched: this one waits for the human at "
                f"{whole.clock} ms"
            )
        self.record = record
        self.duration_ms = whole.outcome.duration_ms
        self.marks = [_mark(event) for event in whole.take_events() if event["type"] in _MARKED]
        self._game = record.game()
        self._next_action = 0

    @property
    def clock(self) -> int:
        """The moment on show, in ms of game clock."""
        return self._game.clock

    def view(self) -> dict:
        """The table at the moment on show, without moving."""
        return self._game.view()

    def timeline(self) -> dict:
        """The whole game at a glance: its length, settings, result and marks, JSON-ready."""
        record = self.record
        return {
            "duration_ms": self.duration_ms,
            "seed": record.seed,
            "mode": record.mode,
            "date": record.date,
            "speed": record.speed,
            "lenient": record.lenient,
            "house_rules": list(record.house_rules),
            "marks": self.marks,
        }

    def frame(self, time_ms: int) -> dict:
        """Play on to ``time_ms`` (clamped to the game's length): ``{"view", "events"}`` with
        the events since the last frame. A time before the clock is a ``seek``."""
        time_ms = self._clamp(time_ms)
        if time_ms < self._game.clock:
            return self.seek(time_ms)
        self._play_to(time_ms)
        return {"view": self._game.view(), "events": self._game.take_events()}

    def seek(self, time_ms: int) -> dict:
        """Jump to ``time_ms`` (clamped): ``{"view", "events": []}``; what happened on the way
        is not told again (the timeline's marks hold it)."""
        time_ms = self._clamp(time_ms)
        if time_ms < self._game.clock:
            self._game, self._next_action = self.record.game(), 0
        self._play_to(time_ms)
        self._game.take_events()
        return {"view": self._game.view(), "events": []}

    def _clamp(self, time_ms: int) -> int:
        if isinstance(time_ms, bool) or not isinstance(time_ms, int):
            raise ReplayError(f"a moment to watch is an integer of milliseconds, not {time_ms!r}")
        return min(max(time_ms, 0), self.duration_ms)

    def _play_to(self, time_ms: int) -> None:
        """Apply the recorded actions and the happenings strictly before ``time_ms``, as the
        page shows them; at the game's length, everything up to the end itself."""
        game, actions = self._game, self.record.actions
        limit = time_ms if time_ms < self.duration_ms else time_ms + 1
        while self._next_action < len(actions) and actions[self._next_action][0] < limit:
            when, action = actions[self._next_action]
            game.act(when, action, atomic=False)
            self._next_action += 1
        if not game.over:
            game.advance_to(limit)


def _mark(event: dict) -> dict:
    mark = {"t": event["t"], "type": event["type"]}
    mark.update({key: event[key] for key in _MARKED[event["type"]] if key in event})
    return mark


def watch(record_json: str | bytes) -> Watch:
    """A ``Watch`` of a record given as JSON text; raises ReplayError saying what is wrong."""
    return Watch(Replay.from_json(record_json))


__all__ = ["Watch", "watch"]
