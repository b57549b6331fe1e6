"""The JSON bridge the page and the scores function call: every answer is one string,
so crossing from Python into JavaScript costs a single conversion."""

from __future__ import annotations

import json

from . import __version__
from .deal import daily_seed as _daily_seed
from .errors import EwarError
from .game import Game
from .replay import Replay
from .replay import verify as _verify

ENGINE_VERSION = __version__
_dumps = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode


def daily_seed(date: str) -> int:
    """The seed of a UTC date's daily deal."""
    return _daily_seed(date)


def _error(error: EwarError) -> dict:
    return {"code": error.code, "message": str(error)}


def _milliseconds(value: object) -> object:
    """JavaScript numbers may arrive as whole floats; anything else goes to the engine's
    own check, which refuses it with a typed error."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


class GameSession:
    """One game as the page drives it: times in, JSON out."""

    def __init__(self, game: Game) -> None:
        self.game = game

    def frame(self, time_ms: int) -> str:
        """Advance to ``time_ms`` and return ``{"view", "events"}`` (an ``error`` too if
        the time is before the clock, which changes nothing)."""
        answer = {}
        try:
            self.game.advance_to(_milliseconds(time_ms))
        except EwarError as error:
            answer["error"] = _error(error)
        answer["view"] = self.game.view()
        answer["events"] = self.game.take_events()
        return _dumps(answer)

    def flip(self, time_ms: int) -> str:
        """The human flips at ``time_ms``: ``{"ok", "view", "events"}`` plus ``error`` if refused."""
        return self._act(self.game.flip, time_ms)

    def slap(self, time_ms: int) -> str:
        """The human slaps at ``time_ms``: ``{"ok", "view", "events"}`` plus ``error`` if refused."""
        return self._act(self.game.slap, time_ms)

    def _act(self, action, time_ms: int) -> str:
        answer = {"ok": True}
        try:
            action(_milliseconds(time_ms))
        except EwarError as error:
            answer = {"ok": False, "error": _error(error)}
        answer["view"] = self.game.view()
        answer["events"] = self.game.take_events()
        return _dumps(answer)

    def view(self) -> str:
        """The current view as JSON, without advancing or taking events."""
        return _dumps(self.game.view())

    def replay(self) -> str:
        """The game's replay record as JSON."""
        return Replay.of(self.game).to_json()


def new_game(mode: str = "practice", seed: int | None = 0, speed: str = "normal",
             lenient: bool = False, date: str | None = None) -> GameSession:
    """Start a daily game (``date`` given; seed, speed and lenient ignored) or a practice game."""
    if mode == "daily":
        return GameSession(Game.daily(date))
    return GameSession(Game(seed, mode=mode, speed=speed, lenient=bool(lenient)))


def verify(replay_json: str) -> str:
    """Replay a record and return JSON: ``{"ok": true, "result", ...}`` or
    ``{"ok": false, "error": {"code", "message"}}``."""
    try:
        answer = _verify(Replay.from_json(replay_json))
    except EwarError as error:
        answer = {"ok": False, "error": _error(error)}
    return _dumps(answer)
