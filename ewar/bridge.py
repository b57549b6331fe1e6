"""The JSON bridge the page and the scores function call: every answer is one string,
so crossing from Python into JavaScript costs a single conversion."""

from __future__ import annotations

import gc
import importlib
import importlib.metadata
import json
import pkgutil
import sys

from . import __version__, cpu, scoring
from .deal import daily_seed as _daily_seed
from .deal import open_daily_of
from .errors import EwarError
from .game import COLLECT_PAUSE_MS, TIME_LIMIT_MS, Game
from .judge import MIN_REACTION_MS, judge
from .replay import Replay
from .replay import verify as _verify
from .table import STRIKES_LENIENT

try:  # inside Pyodide a JavaScript null arrives as jsnull, not None
    from pyodide.ffi import jsnull as _JS_NULL
except ImportError:
    _JS_NULL = None

ENGINE_VERSION = __version__
_dumps = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode


def daily_seed(date: str) -> int:
    """The seed of a UTC date's daily deal."""
    return _daily_seed(date)


def practice_lock(seed: int, now_ms: int) -> str:
    """Whether ``seed`` may be practised at ``now_ms`` (epoch ms), as JSON: ``null`` when it may,
    else ``{"date", "opens_at"}``: it is the deal of that date's daily, which can still be sent for
    the leaderboard until ``opens_at`` (epoch ms), so it is no practice (no rehearsal) until then.
    The page lets a player who has played that daily replay it unscored all the same."""
    lock = open_daily_of(_milliseconds(seed), _milliseconds(now_ms))
    return _dumps(None if lock is None else {"date": lock[0], "opens_at": lock[1]})


def rule_numbers() -> str:
    """The numbers the page's help and result texts quote, as JSON: the page keeps no copy."""
    return _dumps(
        {
            "win_base": scoring.WIN_BASE,
            "per_second": scoring.PER_SECOND,
            "per_wrong_slap": scoring.PER_WRONG_SLAP,
            "win_floor": scoring.WIN_FLOOR,
            "per_pile": scoring.PER_PILE_SLAPPED,
            "strikes_lenient": STRIKES_LENIENT,
            "collect_pause_ms": COLLECT_PAUSE_MS,
            "time_limit_ms": TIME_LIMIT_MS,
            "min_reaction_ms": MIN_REACTION_MS,
            "cpu_slap_ms": dict(cpu.TYPICAL_SLAP_MS),
        }
    )


def _error(error: EwarError) -> dict:
    return {"code": error.code, "message": str(error)}


def _milliseconds(value: object) -> object:
    """JavaScript numbers may arrive as whole floats; anything else goes to the engine's
    own check, which refuses it with a typed error. (Scores, too, are whole numbers; a
    JavaScript null is None.)"""
    if value is _JS_NULL:
        return None
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

    def resign(self, time_ms: int) -> str:
        """The human gives up at ``time_ms``: the game is over as a loss, reason ``"resigned"``;
        ``{"ok", "view", "events"}`` plus ``error`` if refused (say, the game was already over)."""
        return self._act(self.game.resign, time_ms)

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


def new_game(
    mode: str = "practice",
    seed: int | None = 0,
    speed: str = "normal",
    lenient: bool = False,
    date: str | None = None,
) -> GameSession:
    """Start a daily game (``date`` given; seed, speed and lenient ignored) or a practice game."""
    if mode == "daily":
        return GameSession(Game.daily(date))
    return GameSession(Game(seed, mode=mode, speed=speed, lenient=bool(lenient)))


def resume(replay_json: str, clock_ms: int) -> GameSession:
    """Rebuild a running game from its saved record and clock (after a reload): the same game,
    at the same clock, as if never interrupted. What happened before was shown already, so the
    session starts with no events to hand over.

    Raises ReplayError (a malformed record, another engine version, an action the rules refuse)
    or TimeBeforeClockError (a clock before the record's last action), changing nothing.
    """
    game = Replay.from_json(replay_json).play(to_end=False)
    game.advance_to(_milliseconds(clock_ms))
    game.take_events()
    return GameSession(game)


def verify(replay_json: str) -> str:
    """Replay a record and return JSON: ``{"ok": true, "result", ...}`` or
    ``{"ok": false, "error": {"code", "message"}}``."""
    try:
        answer = _verify(Replay.from_json(replay_json))
    except EwarError as error:
        answer = {"ok": False, "error": _error(error)}
    return _dumps(answer)


def judge_daily(
    replay_json: str, date: str, score: int | None, received_ms: int | None = None
) -> str:
    """The score judge's verdict on a daily record sent for ``date`` claiming ``score``, as JSON:
    ``{"ok": true, "score", "won", "reason", "duration_ms", "wrong_slaps", "piles_slapped",
    "actions_sha256", "game_sha256", "engine_version", ...}`` or ``{"ok": false, "error": {"code",
    "message"}}`` with the codes of ``ewar.judge``. ``score`` None checks no claim; ``received_ms``
    (epoch ms of the record's arrival; None: no check) refuses a game longer than its day had run
    (``too_soon``)."""
    try:
        answer = judge(
            replay_json, date, _milliseconds(score), received_ms=_milliseconds(received_ms)
        ).to_dict()
    except EwarError as error:
        answer = {"ok": False, "error": _error(error)}
    return _dumps(answer)


# -- for the loaders: the page, the scores function and the snapshot maker call these, so that no
# Python source lives in JavaScript. Each answer that crosses into JavaScript is one JSON string.

_COMMAND_LINE = "ewar.__main__"  # argparse would only grow a loaded heap; loaders never run it


def _engine_modules() -> list[str]:
    return sorted(name for name in sys.modules if name.split(".")[0] == "ewar")


def preload() -> str:
    """Import every engine module (the command line excepted), so nothing is imported later;
    returns ``[ENGINE_VERSION, [module names]]`` as JSON."""
    import ewar

    importlib.invalidate_caches()
    for info in pkgutil.walk_packages(ewar.__path__, "ewar."):
        if info.name != _COMMAND_LINE:
            importlib.import_module(info.name)
    return loaded()


def loaded() -> str:
    """``[ENGINE_VERSION, [engine modules in memory]]`` as JSON: what a restored snapshot holds."""
    return _dumps([ENGINE_VERSION, _engine_modules()])


def warm_up() -> None:
    """Play a short game and check its replay through this bridge.

    A restored memory snapshot has run none of the interpreter's code in this process, so the
    WebAssembly engine compiles each function on its first call; doing that here, while a loading
    screen shows, keeps those compilations out of the first seconds of play.
    """
    session = new_game("practice", 20261130, "fast", False, None)
    time_ms = 0
    for step in range(400):
        view = json.loads(session.frame(time_ms))["view"]
        if view["over"]:
            break
        if view["your_turn"]:
            session.flip(time_ms)
        elif step % 5 == 0:
            session.slap(time_ms)
        time_ms = max(time_ms + 1, view["wake_at"] or time_ms + 50)
    verify(session.replay())


def freeze() -> None:
    """Move everything loading left on the heap to a generation the cyclic garbage collector never
    scans again: a collection during play then walks only the game's own objects."""
    gc.collect()
    gc.freeze()


def after_restore() -> None:
    """What a page does once its memory snapshot is restored: reseed ``random`` (the snapshot fixed
    its state at build time; the engine does not use it, but nothing should share it), warm up,
    freeze."""
    if "random" in sys.modules:
        sys.modules["random"].seed()
    warm_up()
    freeze()


def after_install() -> None:
    """What a page does once the engine is installed and imported: freeze the loaded heap."""
    freeze()


def installer() -> str:
    """What installed this engine (its distribution's INSTALLER file), e.g. ``micropip``; ``""`` if unknown."""
    try:
        return (importlib.metadata.distribution("ewar").read_text("INSTALLER") or "").strip()
    except importlib.metadata.PackageNotFoundError:
        return ""
