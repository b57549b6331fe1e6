"""The score judge: the one judgement of a daily record sent for the leaderboard.

A record is accepted when it is a game of this engine, the standard daily deal of the date
it was sent for, finished, scores what was claimed, and was played by hands, not by a
machine (every valid slap humanly possible, and the whole game's timings a person's:
``plausibility.py``). The scores function (through ``bridge.judge_daily``), ``python -m ewar verify
--date`` and the tests all call ``judge``; each refusal is a narrow ``RecordRefused`` (or
``ReplayError``) whose ``code`` is the function's API.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass

from . import __version__
from .deal import check_date, daily_seed, day_start_ms
from .errors import (
    DateMismatchError,
    ImpossiblePlayError,
    InvalidSeedError,
    InvalidTimeError,
    NotDailyError,
    NotStandardError,
    ReplayError,
    ScoreMismatchError,
    TooSoonError,
    UnfinishedError,
)
from .game import DAILY, DAILY_LENIENT, DAILY_SPEED, TIME_LIMIT_MS, Game
from .plausibility import PlayTimes, check, flip_delays
from .replay import Replay, check_engine

MIN_REACTION_MS = 100  # a valid slap sooner than this after its pattern is faster than any person
# ...except by luck: a tap already under way (its last ~200 ms cannot be stopped) may land just
# after a card made a pattern (a near miss slapped just as the next card makes a Sandwich). One such tap
# a game is allowed, and one more for every LUCKY_TAP_SLAPS valid slaps: more is a machine's.
LUCKY_TAP_SLAPS = 8


def lucky_taps(slaps: int) -> int:
    """How many valid slaps under MIN_REACTION_MS a game of ``slaps`` valid slaps may hold."""
    return 1 + slaps // LUCKY_TAP_SLAPS


# Event fields that are times, or follow from the times (a win's score counts its seconds): the
# game's path leaves them out, so the same game played a millisecond apart is the same path.
TIME_FIELDS = frozenset({"t", "reaction_ms", "ms", "score"})
# Events that change nothing at the table (a slap just too late costs nothing): the path leaves them
# out too, or a free extra tap would make a copy of a game into another entry.
COSTLESS_EVENTS = frozenset({"late_slap"})


@dataclass(frozen=True)
class Judgement:
    """What an accepted daily record proves: the facts the leaderboard keeps."""

    score: int
    won: bool
    reason: str
    duration_ms: int
    wrong_slaps: int
    piles_slapped: int
    slaps: int  # valid slaps by the human
    fastest_slap_ms: int | None
    slap_median_ms: int | None
    slap_spread_permille: int | None  # the slaps' mean distance from their median, in thousandths
    flips: int
    flip_spread_ms: int | None  # the flips' mean distance from their median delay
    races: int  # valid slaps that beat a computer player's due slap
    close_races: int  # of those, won by CLOSE_RACE_MS or less
    actions: int
    actions_sha256: str
    game_sha256: str
    date: str
    seed: int
    engine_version: str = __version__

    def to_dict(self) -> dict:
        """The JSON-ready answer, ``ok`` first."""
        return {"ok": True, **asdict(self)}


def actions_sha256(actions: tuple[tuple[int, str], ...]) -> str:
    """The SHA-256 (hex) of the action list written as compact JSON, ``[[12,"f"],[480,"s"]]``:
    two records with the same actions have the same digest, whatever else they say."""
    text = json.dumps([[time_ms, action] for time_ms, action in actions], separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def game_sha256(seed: int, events: list[dict]) -> str:
    """The SHA-256 (hex) of a game's path: its deal (``seed``) and every event of its stream in
    order (who flipped what, who slapped and how it ended, wrong slaps, piles taken...) with no
    time in it (``TIME_FIELDS``) and none of the slaps that changed nothing (``COSTLESS_EVENTS``). The same game with its actions moved by a millisecond has the
    same path; another play, or another outcome of a slap, has another."""
    path = [
        [
            {key: value for key, value in event.items() if key not in TIME_FIELDS}
            for event in events
            if event["type"] not in COSTLESS_EVENTS
        ]
    ]
    text = json.dumps([seed, path], separators=(",", ":"), sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


def judge(
    replay_json: str | bytes,
    date: str,
    score: int | None = None,
    *,
    received_ms: int | None = None,
) -> Judgement:
    """Judge a daily record sent for ``date`` claiming ``score`` (None: no claim to check) that
    arrived at ``received_ms`` (Unix epoch ms; None: no real-time check).

    Raises ReplayError (``invalid_replay``), EngineVersionError, NotDailyError,
    DateMismatchError, NotStandardError, TooSoonError, UnfinishedError, ScoreMismatchError,
    ImpossiblePlayError or ImplausiblePlayError, each saying what is wrong.
    """
    if received_ms is not None and (
        isinstance(received_ms, bool) or not isinstance(received_ms, int)
    ):
        raise InvalidTimeError(f"the arrival time is whole epoch milliseconds, not {received_ms!r}")
    data = _decode(replay_json)
    _check_settings(data, date)
    day_ran_ms = None
    if received_ms is not None:
        day_ran_ms = received_ms - day_start_ms(date)
        if day_ran_ms < 0:
            raise TooSoonError(f"the daily of {date} has not begun yet: it begins at 00:00 UTC")
    record = Replay.from_dict(data)
    if record.seed != daily_seed(date):
        raise NotDailyError(f"seed {record.seed} is not the daily deal of {date}")
    game = record.play()  # raises ReplayError for an action the rules refuse
    if game.outcome is None:
        # After its last action the human did nothing more, so the game waited for their flip until
        # the one-hour limit ended it, as it does on the page. A record cut short is that game too,
        # and is refused as unfinished unless it claims the score of that ending.
        waited_at = game.clock
        game.advance_to(TIME_LIMIT_MS + 1)
        ended = game.outcome.score.total
        if score is not None and score != ended:
            raise UnfinishedError(
                f"the game is not over: it waits for the human at {waited_at} ms (left alone "
                f"until the one-hour limit it would score {ended}, not {score})"
            )
    outcome = game.outcome
    if score is not None and (isinstance(score, bool) or not isinstance(score, int)):
        raise ScoreMismatchError(f"a score is a whole number, not {score!r}")
    if score is not None and score != outcome.score.total:
        raise ScoreMismatchError(f"the game scores {outcome.score.total}, not {score}")
    if day_ran_ms is not None and outcome.duration_ms > day_ran_ms:
        raise TooSoonError(
            f"the game lasted {_clock(outcome.duration_ms)}, but when it arrived the day of {date} "
            f"had run only {_clock(day_ran_ms)} (UTC): it cannot have been played that day"
        )
    _check_every_slap(game)
    events = game.take_events()
    times = PlayTimes(tuple(game.reactions), tuple(flip_delays(events)), tuple(game.races))
    check(times)
    return Judgement(
        score=outcome.score.total,
        won=outcome.won,
        reason=outcome.reason,
        duration_ms=outcome.duration_ms,
        wrong_slaps=game.wrong_slaps,
        piles_slapped=game.table.slaps_won[0],
        slaps=len(game.reactions),
        fastest_slap_ms=game.fastest_slap_ms,
        **times.to_dict(),
        actions=len(record.actions),
        actions_sha256=actions_sha256(record.actions),
        game_sha256=game_sha256(record.seed, events),
        date=date,
        seed=record.seed,
    )


def _clock(ms: int) -> str:
    """``ms`` as h:mm:ss.mmm."""
    seconds, milli = divmod(ms, 1000)
    minutes, seconds = divmod(seconds, 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{seconds:02d}.{milli:03d}"


def _decode(replay_json: str | bytes) -> dict:
    try:
        data = json.loads(replay_json)
    except (ValueError, TypeError, RecursionError) as error:
        raise ReplayError(f"not JSON: {error}") from None
    if (
        not isinstance(data, dict)
        or not isinstance(data.get("engine"), str)
        or not isinstance(data.get("actions"), list)
    ):
        raise ReplayError("not a game record: a JSON object with an engine version and actions")
    return data


def _check_settings(data: dict, date: str) -> None:
    """The checks that need no replaying, in the order the function has always made them."""
    check_engine(data["engine"])
    if data.get("mode") != DAILY:
        raise NotDailyError(f"only daily games go on the leaderboard, not {data.get('mode')!r}")
    try:
        check_date(date)
    except InvalidSeedError as error:
        raise DateMismatchError(f"the date sent is wrong: {error}") from None
    if data.get("date") != date:
        raise DateMismatchError(f"the game is the daily of {data.get('date')!r}, not of {date}")
    if (
        data.get("speed") != DAILY_SPEED
        or data.get("lenient") is not DAILY_LENIENT
        or data.get("house_rules", []) != []
    ):
        raise NotStandardError("daily games are played at normal speed with the standard rules")


def _check_every_slap(game: Game) -> None:
    fast = [
        (number, reaction)
        for number, reaction in enumerate(game.reactions, start=1)
        if reaction < MIN_REACTION_MS
    ]
    allowed = lucky_taps(len(game.reactions))
    if len(fast) > allowed:
        slaps = "; ".join(f"valid slap {number} came {reaction} ms" for number, reaction in fast)
        raise ImpossiblePlayError(
            f"{slaps} after its pattern showed (of {len(game.reactions)} valid slaps): under "
            f"{MIN_REACTION_MS} ms is faster than a person can react, and a tap already under way "
            f"lands that soon by luck at most {allowed} time(s) in a game of that many slaps"
        )
