"""Replays made by the engine in CPython for the scores function's tests and benchmark.

    PYTHONPATH=. python tools/harness/replays.py --date 2026-11-30 [--plays 450:1 250:2 ...]

prints JSON: {"engine_version", "plays": [{"median_ms", "seed", "replay", "score", "verdict"}...], "practice",
"unfinished", "tampered", "too_fast", "machine", "lost"} -- each a replay record; "verdict" is what the judge
(``bridge.judge_daily``, the call the function makes) says of a record sent for its date with no score claimed.

Honest games are played by the human-like player of ``tools/harness/players.py`` (``--plays MEDIAN_MS:SEED``), whose
records the judge must accept. The exact player, which times every slap and flip to the millisecond, makes only
the records that must be refused: ``too_fast`` (a slap 60 ms after its card: ``impossible_play``) and
``machine`` (every slap 150 ms after its card, every flip 300 ms into its turn: ``implausible_play``).
"""

from __future__ import annotations

import argparse
import json
import sys

from ewar import bridge
from ewar.game import Game
from ewar.replay import Replay
from tools.harness.players import play_human_like, play_simulated_human


def verdict_of(record: dict) -> dict:
    """What ``bridge.verify`` says of a record: the replay alone, judged by nothing."""
    return json.loads(bridge.verify(json.dumps(record)))


def judged(record: dict, date: str, score: int | None = None) -> dict:
    """The judge's verdict on ``record`` sent for ``date`` claiming ``score`` (None: no claim)."""
    return json.loads(bridge.judge_daily(json.dumps(record), date, score))


def judged_play(game: Game, **about) -> dict:
    """The record of a finished ``game``, the judge's verdict on it and its score, with ``about`` (who played)."""
    record = Replay.of(game).to_dict()
    verdict = judged(record, record.get("date") or "")
    score = verdict["score"] if verdict["ok"] else verdict_of(record).get("result", {}).get("score")
    return {**about, "replay": record, "score": score, "verdict": verdict}


def human_like_play(game: Game, median_ms: int, seed: int) -> dict:
    """Play ``game`` with the human-like player of median reaction ``median_ms`` and draws ``seed``."""
    return judged_play(play_human_like(game, median_ms, seed), median_ms=median_ms, seed=seed)


def daily_play(date: str, median_ms: int, seed: int) -> dict:
    """A finished daily game of ``date`` played by a human-like player."""
    return human_like_play(Game.daily(date), median_ms, seed)


def exact_daily_play(date: str, reaction_ms: int, flip_ms: int) -> dict:
    """A daily game of ``date`` played by the exact player: machine timing, for records that must be refused."""
    game = play_simulated_human(Game.daily(date), reaction_ms=reaction_ms, flip_ms=flip_ms)
    return judged_play(game, reaction_ms=reaction_ms, flip_ms=flip_ms)


def lost_play(date: str) -> dict:
    """An honest lost daily game of ``date``: the first slow human-like player (by median, then seed) who loses
    and is accepted. Every deal has one: a 900-1,500 ms player loses most games."""
    for median_ms in (900, 1200, 1500):
        for seed in range(1, 101):
            play = daily_play(date, median_ms, seed)
            if play["verdict"]["ok"] and play["verdict"]["won"] is False:
                return play
    raise AssertionError(f"no slow human-like player lost the daily of {date}")


def unfinished(record: dict) -> dict:
    """The record cut after its first ten actions: the game then waits for the human."""
    cut = dict(record, actions=record["actions"][:10])
    assert verdict_of(cut)["finished"] is False
    return cut


def tampered(record: dict) -> dict:
    """The record with an action moved before the one it follows: not a game that can happen."""
    actions = [list(action) for action in record["actions"]]
    actions[5][0] = actions[4][0] - 1
    changed = dict(record, actions=actions)
    assert verdict_of(changed)["ok"] is False
    return changed


def shifted(record: dict, index: int, delta_ms: int) -> dict:
    """The record with action ``index`` moved by ``delta_ms`` (kept in time order)."""
    actions = [list(action) for action in record["actions"]]
    actions[index][0] += delta_ms
    return dict(record, actions=actions)


def play_with_reactions(
    game: Game, median_ms: int, seed: int, overrides: dict[int, int]
) -> tuple[Game, list[dict]]:
    """The human-like player, reacting ``overrides[card time]`` ms after chosen cards; the game and its events.
    Up to the first chosen card the game is the one the player plays without overrides."""
    play_human_like(game, median_ms, seed, reactions=overrides)
    return game, game.take_events()


def cpu_slap_wins(events: list[dict]) -> list[tuple[int, int]]:
    """(time of the card that made the pattern, time a computer player won it by slapping)."""
    wins, last_card = [], None
    for event in events:
        if event["type"] in ("flip", "pay_card"):
            last_card = event["t"]
        elif event["type"] == "slap_won" and event["seat"] != "south" and last_card is not None:
            wins.append((last_card, event["t"]))
    return wins


def race_pairs(date: str, median_ms: int, seed: int, limit: int = 3) -> list[dict]:
    """Records where one slap ties a computer's slap to the millisecond (ties go to the human) and the
    same record with that slap 1 ms later (the computer wins that pile): a 1 ms change that matters."""
    _, events = play_with_reactions(Game.daily(date), median_ms, seed, {})
    pairs = []
    for card_ms, won_ms in cpu_slap_wins(events):
        if won_ms - card_ms < 100 or len(pairs) >= limit:
            continue
        game, _ = play_with_reactions(
            Game.daily(date), median_ms, seed, {card_ms: won_ms - card_ms}
        )
        record = Replay.of(game).to_dict()
        index = next(
            (i for i, (t, kind) in enumerate(record["actions"]) if t == won_ms and kind == "s"),
            None,
        )
        if index is None:
            continue
        pairs.append({"tie": record, "late": shifted(record, index, 1), "index": index})
    return pairs


def parse_play(text: str) -> tuple[int, int]:
    """``MEDIAN_MS:SEED`` (the seed defaults to 1)."""
    median, _, seed = text.partition(":")
    return int(median), int(seed or 1)


def refused_with(play: dict, code: str) -> dict:
    """``play`` as the tests use it, checked to be refused with ``code``."""
    assert play["verdict"].get("error", {}).get("code") == code, play["verdict"]
    return {"replay": play["replay"], "score": play["score"], "verdict": play["verdict"]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--date", required=True)
    parser.add_argument(
        "--plays",
        nargs="*",
        default=["450:1"],
        type=parse_play,
        help="median_ms:seed of each human-like player's daily game",
    )
    args = parser.parse_args(argv)
    plays = [daily_play(args.date, median, seed) for median, seed in args.plays]
    base = plays[0]["replay"]
    practice = human_like_play(Game(7, mode="practice", speed="normal"), 450, 1)["replay"]
    print(
        json.dumps(
            {
                "engine_version": bridge.ENGINE_VERSION,
                "plays": plays,
                "practice": {"replay": practice},
                "unfinished": {"replay": unfinished(base)},
                "tampered": {"replay": tampered(base)},
                "too_fast": refused_with(exact_daily_play(args.date, 60, 300), "impossible_play"),
                "machine": refused_with(exact_daily_play(args.date, 150, 300), "implausible_play"),
                "lost": lost_play(args.date),
            }
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
