"""Replays: a compact JSON record of a game (seed, settings and the human's timed
actions) that imports back into the identical game, and its verification."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from . import __version__, cpu
from .errors import EngineVersionError, EwarError, ReplayError
from .game import DAILY, FLIP, MODES, RESIGN, SLAP, TIME_LIMIT_MS, Ending, Game
from .house_rules import check_house_rules

FORMAT_VERSION = 1
ACTIONS = {FLIP: "flip", SLAP: "slap", RESIGN: "resign"}
MAX_ACTIONS = 20_000
_FIELDS = {"format", "engine", "seed", "mode", "date", "speed", "lenient", "actions"}
# Written only when true: the game ended at the one-hour limit. The actions alone cannot say so
# when it waited for the human's flip after the last one (a record cut short waits the same way).
TO_LIMIT = "to_limit"
# Fields written only when they say something: house_rules (a list of their names) when the game has
# any, so a standard game's record is the same text as before house rules existed; to_limit when true.
_OPTIONAL = {"house_rules", TO_LIMIT}


@dataclass(frozen=True)
class Replay:
    """A game's record: enough to rebuild it exactly."""

    seed: int
    mode: str
    speed: str
    lenient: bool
    date: str | None
    actions: tuple[tuple[int, str], ...] = field(default=())
    house_rules: tuple[str, ...] = ()
    to_limit: bool = False  # left alone after its last action, the game ran to the time limit
    engine: str = __version__
    format: int = FORMAT_VERSION

    @classmethod
    def of(cls, game: Game) -> Replay:
        """The record of a game so far."""
        return cls(
            seed=game.seed,
            mode=game.mode,
            speed=game.speed,
            lenient=game.lenient,
            date=game.date,
            actions=tuple(game.actions),
            house_rules=game.house.names,
            to_limit=game.outcome is not None and game.outcome.reason == Ending.TIME_LIMIT,
        )

    def to_dict(self) -> dict:
        """The JSON-ready form."""
        record = {
            "format": self.format,
            "engine": self.engine,
            "seed": self.seed,
            "mode": self.mode,
            "date": self.date,
            "speed": self.speed,
            "lenient": self.lenient,
            "actions": [[t, a] for t, a in self.actions],
        }
        if self.house_rules:
            record["house_rules"] = list(self.house_rules)
        if self.to_limit:
            record[TO_LIMIT] = True
        return record

    def to_json(self) -> str:
        """Compact JSON text; ``Replay.from_json`` reads it back."""
        return json.dumps(self.to_dict(), separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str | bytes) -> Replay:
        """Parse and check a record; raises ReplayError saying what is wrong."""
        try:
            data = json.loads(text)
        except (ValueError, TypeError, RecursionError) as error:
            raise ReplayError(f"not JSON: {error}") from None
        return cls.from_dict(data)

    @classmethod
    def from_dict(cls, data: object) -> Replay:
        """Check a decoded record field by field."""
        if not isinstance(data, dict):
            raise ReplayError("a replay is a JSON object")
        if isinstance(data.get("engine"), str):
            check_engine(data["engine"])  # an older record may have other fields: say so first
        missing, extra = _FIELDS - data.keys(), data.keys() - _FIELDS - _OPTIONAL
        if missing or extra:
            raise ReplayError(f"fields missing {sorted(missing)} or unknown {sorted(extra)}")
        if not isinstance(data["engine"], str):
            raise ReplayError(f"engine must be a version string, not {data['engine']!r}")
        if data["format"] != FORMAT_VERSION or isinstance(data["format"], bool):
            raise ReplayError(f"unknown replay format {data['format']!r}")
        seed = data["seed"]
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise ReplayError("seed must be an integer")
        if data["mode"] not in MODES:
            raise ReplayError(f"unknown mode {data['mode']!r}")
        if data["speed"] not in cpu.SPEEDS:
            raise ReplayError(f"unknown speed {data['speed']!r}")
        if not isinstance(data["lenient"], bool):
            raise ReplayError("lenient must be true or false")
        date = data["date"]
        if date is not None and not isinstance(date, str):
            raise ReplayError("date must be a string or null")
        if TO_LIMIT in data and data[TO_LIMIT] is not True:
            raise ReplayError(f"{TO_LIMIT} is written only when true, not {data[TO_LIMIT]!r}")
        return cls(
            seed=seed,
            mode=data["mode"],
            speed=data["speed"],
            lenient=data["lenient"],
            date=date,
            actions=_check_actions(data["actions"]),
            house_rules=_check_house_rules(data["house_rules"]) if "house_rules" in data else (),
            to_limit=TO_LIMIT in data,
        )

    def game(self) -> Game:
        """A new game with this record's seed and settings, before any action."""
        try:
            game = Game(
                self.seed,
                mode=self.mode,
                speed=self.speed,
                lenient=self.lenient,
                date=self.date,
                house_rules=self.house_rules,
            )
        except EwarError as error:
            raise ReplayError(str(error)) from None
        if game.seed != self.seed:
            raise ReplayError(f"seed {self.seed} is not the daily deal of {self.date}")
        return game

    def play(self, *, to_end: bool = True) -> Game:
        """Rebuild the game by applying every action; with ``to_end``, then let the
        game run on until it is over or waits for the human to flip (and, for a record that
        ran to the time limit, on to that limit: ``to_limit``)."""
        game = self.game()
        for index, (time_ms, action) in enumerate(self.actions):
            try:
                game.act(time_ms, action, atomic=False)
            except EwarError as error:
                raise ReplayError(
                    f"action {index} ({ACTIONS[action]} at {time_ms} ms): {error}"
                ) from None
        if to_end:
            run_until_human_needed(game)
            if self.to_limit:
                self._run_to_limit(game)
        return game

    @staticmethod
    def _run_to_limit(game: Game) -> None:
        if not game.over:
            game.advance_to(TIME_LIMIT_MS + 1)
        if game.outcome.reason != Ending.TIME_LIMIT:
            raise ReplayError(
                f"the record says the game ran to the time limit, but it ended "
                f"({game.outcome.reason.value}) at {game.outcome.duration_ms} ms"
            )


def check_engine(engine: object) -> None:
    """Raise EngineVersionError unless ``engine`` is this engine's version."""
    if engine != __version__:
        raise EngineVersionError(
            f"the game was made by engine {engine!r}; this is engine "
            f"{__version__}, which would not replay it the same"
        )


def _check_house_rules(names: object) -> tuple[str, ...]:
    """A record's house rules: a non-empty list of distinct known names, in the canonical order
    (the order ``Replay.to_dict`` writes), or absent; anything else is refused."""
    if not isinstance(names, list) or not names:
        raise ReplayError(f"house_rules must be a non-empty list of rule names, not {names!r}")
    try:
        checked = check_house_rules(names)
    except EwarError as error:
        raise ReplayError(str(error)) from None
    if list(checked) != names:
        raise ReplayError(f"house_rules must be listed in the order {list(checked)!r}")
    return checked


def _check_actions(actions: object) -> tuple[tuple[int, str], ...]:
    if not isinstance(actions, list):
        raise ReplayError("actions must be a list")
    if len(actions) > MAX_ACTIONS:
        raise ReplayError(f"more than {MAX_ACTIONS} actions")
    checked, previous = [], 0
    for index, item in enumerate(actions):
        if (
            not isinstance(item, list)
            or len(item) != 2
            or isinstance(item[0], bool)
            or not isinstance(item[0], int)
            or item[1] not in ACTIONS
        ):
            raise ReplayError(f'action {index} is not [milliseconds, "f" | "s" | "r"]: {item!r}')
        if item[0] < previous:
            raise ReplayError(f"action {index} at {item[0]} ms is out of time order")
        previous = item[0]
        checked.append((item[0], item[1]))
    return tuple(checked)


def run_until_human_needed(game: Game) -> None:
    """Advance through scheduled happenings until the game is over or the human must flip."""
    while not game.over and not game.human_must_flip:
        upcoming = game.next_event_time()
        if upcoming is None:
            return
        game.advance_to(upcoming + 1)


def verify(replay: Replay) -> dict:
    """Replay a record and report what it proves, as JSON-ready data.

    ``finished`` is False when the game waits for the human after the last action.
    ``min_reaction_ms`` is the quickest valid slap after the card that made its pattern.
    """
    game = replay.play()
    return {
        "ok": True,
        "finished": game.over,
        "result": None if game.outcome is None else game.outcome.to_dict(),
        "seed": game.seed,
        "mode": game.mode,
        "date": game.date,
        "speed": game.speed,
        "lenient": game.lenient,
        "house_rules": list(game.house.names),
        "daily": game.mode == DAILY,
        "engine_version": __version__,
        "wrong_slaps": game.wrong_slaps,
        "piles_slapped": game.table.slaps_won[0],
        "min_reaction_ms": game.fastest_slap_ms,
        "actions": len(replay.actions),
        "clock": game.clock,
    }
