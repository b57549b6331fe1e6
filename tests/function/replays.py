"""Replays made by the engine in CPython for the scores function's tests and benchmark.

    python tests/function/replays.py --date 2026-11-30 [--plays 450:300 250:300 ...]

prints JSON: {"engine_version", "plays": [{"reaction_ms", "flip_ms", "replay", "score", "verdict"}...],
"practice", "unfinished", "tampered", "too_fast", "lost"} -- each a replay record; "verdict" is what the judge
(``bridge.judge_daily``, the call the function makes) says of a record sent for its date with no score claimed.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parents[2]), str(Path(__file__).resolve().parents[1])]

from players import play_simulated_human

from ewar import bridge
from ewar.game import Game
from ewar.replay import Replay


def verdict_of(record: dict) -> dict:
    """What ``bridge.verify`` says of a record: the replay alone, judged by nothing."""
    return json.loads(bridge.verify(json.dumps(record)))


def judged(record: dict, date: str, score: int | None = None) -> dict:
    """The judge's verdict on ``record`` sent for ``date`` claiming ``score`` (None: no claim)."""
    return json.loads(bridge.judge_daily(json.dumps(record), date, score))


def simulated_play(game: Game, reaction_ms: int, flip_ms: int) -> dict:
    """Play ``game`` with the simulated human; its record, the judge's verdict and the score."""
    record = Replay.of(
        play_simulated_human(game, reaction_ms=reaction_ms, flip_ms=flip_ms)
    ).to_dict()
    verdict = judged(record, record.get("date") or "")
    score = verdict["score"] if verdict["ok"] else verdict_of(record).get("result", {}).get("score")
    return {
        "reaction_ms": reaction_ms,
        "flip_ms": flip_ms,
        "replay": record,
        "score": score,
        "verdict": verdict,
    }


def daily_play(date: str, reaction_ms: int, flip_ms: int) -> dict:
    """A finished daily game of ``date``."""
    return simulated_play(Game.daily(date), reaction_ms, flip_ms)


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
    game: Game, reaction_ms: int, flip_ms: int, overrides: dict[int, int]
) -> tuple[Game, list[dict]]:
    """The simulated human, reacting ``overrides[flip time]`` ms after chosen flips; the game and its events."""
    play_simulated_human(game, reaction_ms, flip_ms, overrides)
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


def race_pairs(date: str, reaction_ms: int, flip_ms: int, limit: int = 3) -> list[dict]:
    """Records where one slap ties a computer's slap to the millisecond (ties go to the human) and the
    same record with that slap 1 ms later (the computer wins that pile): a 1 ms change that matters."""
    _, events = play_with_reactions(Game.daily(date), reaction_ms, flip_ms, {})
    pairs = []
    for card_ms, won_ms in cpu_slap_wins(events):
        if won_ms - card_ms < 100 or len(pairs) >= limit:
            continue
        game, _ = play_with_reactions(
            Game.daily(date), reaction_ms, flip_ms, {card_ms: won_ms - card_ms}
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
    reaction, _, flip = text.partition(":")
    return int(reaction), int(flip or 300)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--date", required=True)
    parser.add_argument(
        "--plays",
        nargs="*",
        default=["450:300"],
        type=parse_play,
        help="reaction_ms:flip_ms of each simulated daily game",
    )
    args = parser.parse_args(argv)
    plays = [daily_play(args.date, reaction, flip) for reaction, flip in args.plays]
    base = plays[0]["replay"]
    practice = simulated_play(Game(7, mode="practice", speed="normal"), 450, 300)["replay"]
    too_fast = daily_play(args.date, 60, 300)
    lost = daily_play(args.date, 900, 500)
    assert lost["verdict"]["ok"] and lost["verdict"]["won"] is False
    print(
        json.dumps(
            {
                "engine_version": bridge.ENGINE_VERSION,
                "plays": plays,
                "practice": {"replay": practice},
                "unfinished": {"replay": unfinished(base)},
                "tampered": {"replay": tampered(base)},
                "too_fast": {
                    "replay": too_fast["replay"],
                    "score": too_fast["score"],
                    "verdict": too_fast["verdict"],
                },
                "lost": lost,
            }
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
