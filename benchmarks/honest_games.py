"""Daily games of human-like players (tools/harness/players.py) as JSON, for benchmarks/bench_same_game.mjs.

    python benchmarks/honest_games.py --date 2026-11-30 --model lognormal --players 5000 --medians 300:750

prints one JSON object: {"games": [{"model", "median_ms", "seed", "replay", "score", "won", "path"}...]}, where
``path`` is the game's path without its times (``ewar.judge.game_sha256``): players of one path played the same
cards, slaps and piles. Both models tap with the last 200 ms unstoppable. ``--model bot`` plays the search bot:
never missing a pattern, slaps and flips timed like a person (``--medians`` its reaction range).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT)]

from ewar.game import Game  # noqa: E402
from ewar.judge import game_sha256  # noqa: E402
from ewar.replay import Replay  # noqa: E402
from tools.harness.players import ExGaussianPlayer, HumanLikePlayer, play  # noqa: E402

COMMIT_MS = 200

MODELS = {
    "lognormal": lambda median, seed: HumanLikePlayer(median, seed, commit_ms=COMMIT_MS),
    "exgaussian": lambda median, seed: ExGaussianPlayer(median, seed, commit_ms=COMMIT_MS),
    # The search bot: a person's timing that never misses a pattern nor slaps a near miss.
    "bot": lambda median, seed: HumanLikePlayer(
        median, seed, miss=0.0, near_miss=0.0, commit_ms=COMMIT_MS
    ),
}


def games(date: str, model: str, players: int, low: int, high: int, seed_base: int) -> list[dict]:
    """``players`` games of ``date``, medians drawn uniformly in [low, high] (by seed)."""
    found = []
    for n in range(players):
        seed = seed_base + n
        median = low + random.Random(seed * 7919 + 1).randrange(high - low + 1)
        game = play(Game.daily(date), MODELS[model](median, seed))
        record = Replay.of(game).to_dict()
        outcome = game.outcome
        found.append(
            {
                "model": model,
                "median_ms": median,
                "seed": seed,
                "replay": record,
                "score": outcome.score.total,
                "won": outcome.won,
                "path": game_sha256(record["seed"], game.take_events())[:16],
            }
        )
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--date", required=True)
    parser.add_argument("--model", choices=sorted(MODELS), required=True)
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--medians", default="300:750")
    parser.add_argument("--seed-base", type=int, default=1)
    args = parser.parse_args()
    low, high = (int(part) for part in args.medians.split(":"))
    json.dump(
        {"games": games(args.date, args.model, args.players, low, high, args.seed_base)}, sys.stdout
    )


if __name__ == "__main__":
    main()
