"""The JSON bridge the page and the scores function call: every answer is one string,
so crossing from Python into JavaScript costs a single conversion."""

from __future__ import annotations

import json

from . import __version__, cpu, scoring
from .cards import DECK_SIZE, JOKERS, PAY_VALUE_BY_RANK, RANKS
from .deal import MAX_SEED, SEATS, SOUTH, open_daily_of
from .deal import daily_seed as _daily_seed
from .errors import EwarError
from .game import DAILY_LENIENT, DAILY_SPEED, Game
from .house_rules import HOUSE_RULES
from .judge import judge
from .replay import Replay
from .replay import verify as _verify
from .table import STRIKES_LENIENT
from .watch import Watch
from .watch import watch as _watch

try:  # inside Pyodide a JavaScript null arrives as jsnull, not None
    from pyodide.ffi import jsnull as _JS_NULL
except ImportError:
    _JS_NULL = None

ENGINE_VERSION = __version__
# The pay cards' names in the page's texts ({pay_ace}...), by rank index.
_PAY_RANKS = {
    "jack": RANKS.index("J"),
    "queen": RANKS.index("Q"),
    "king": RANKS.index("K"),
    "ace": RANKS.index("A"),
}
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
            "strikes": STRIKES_LENIENT,
            "deck": DECK_SIZE,
            "hand": DECK_SIZE // len(SEATS),
            "deck_jokers": DECK_SIZE + len(JOKERS),
            **{f"pay_{name}": PAY_VALUE_BY_RANK[rank] for name, rank in _PAY_RANKS.items()},
        }
    )


def table_settings() -> str:
    """The table's names and the games' settings the page uses, as JSON: ``seats`` in play order,
    ``you`` (the human's seat), ``speeds`` (the CPU speeds, slowest first), ``default_speed``
    (practice's until the player picks another), ``daily`` (its ``speed`` and ``lenient``) and
    ``max_seed`` (the largest deal number)."""
    return _dumps(
        {
            "seats": list(SEATS),
            "you": SEATS[SOUTH],
            "speeds": list(cpu.SPEEDS),
            "default_speed": cpu.DEFAULT_SPEED,
            "daily": {"speed": DAILY_SPEED, "lenient": DAILY_LENIENT},
            "max_seed": MAX_SEED,
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
    speed: str = cpu.DEFAULT_SPEED,
    lenient: bool = False,
    date: str | None = None,
    house_rules: object = None,
) -> GameSession:
    """Start a daily game (``date`` given; seed, speed and lenient ignored) or a practice game:
    with ``house_rules`` (a list of their names, ``house_rule_names``), or with a ``date`` a past
    daily played again (its deal and its computer players; seed ignored). The page asks
    ``practice_lock`` first: a daily still open for the board is no practice."""
    if mode == "daily":
        return GameSession(Game.daily(date))
    date = _milliseconds(date)  # a JavaScript null or undefined: no date
    return GameSession(
        Game(
            seed,
            mode=mode,
            speed=speed,
            lenient=bool(lenient),
            date=date,
            house_rules=_list(house_rules),
        )
    )


def house_rule_names() -> str:
    """The house rules a practice game may add, as JSON: their names in the menu's order (each
    also the name of the pattern it adds; the page words them from its catalogs)."""
    return _dumps(list(HOUSE_RULES))


def _list(value: object) -> object:
    """A JavaScript array arrives as a JsProxy: a list of its items; None and null stay None."""
    if value is _JS_NULL or value is None:
        return None
    to_py = getattr(value, "to_py", None)
    return to_py() if callable(to_py) else value


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


class WatchSession:
    """A finished game played back for the page: times in, JSON out; it changes nothing."""

    def __init__(self, watch: Watch) -> None:
        self.watch = watch

    def timeline(self) -> str:
        """The game at a glance as JSON: ``duration_ms``, settings and ``marks``."""
        return _dumps(self.watch.timeline())

    def frame(self, time_ms: int) -> str:
        """Play on to ``time_ms``: ``{"view", "events"}`` (a time before the clock is a seek;
        an ``error`` too for a time that is no whole number of ms, which changes nothing)."""
        return self._answer(self.watch.frame, time_ms)

    def seek(self, time_ms: int) -> str:
        """Jump to ``time_ms``: ``{"view", "events": []}`` (``error`` too as for ``frame``)."""
        return self._answer(self.watch.seek, time_ms)

    def _answer(self, move, time_ms: int) -> str:
        try:
            return _dumps(move(_milliseconds(time_ms)))
        except EwarError as error:
            return _dumps({"error": _error(error), "view": self.watch.view(), "events": []})


def watch(record_json: str) -> WatchSession:
    """Watch a finished game's record. Raises ReplayError (a malformed record, another engine
    version, an action the rules refuse, an unfinished game), as ``resume`` does."""
    return WatchSession(_watch(record_json))
