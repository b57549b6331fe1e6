"""Every game ends: 10,000 seeded games (the three speeds in turn, exact and human-like players
of every pace in the human's seat) all finish within the time limit, with all 52 cards on the
table after every single happening. The suite plays a 300-game sample of the same
(tests/engine/test_every_game_ends.py); this is the whole run.

    nice python benchmarks/engine_every_game_ends.py [--games 10000] [--workers 2]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import Counter
from multiprocessing import Pool
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT)]

from ewar.cpu import SPEEDS  # noqa: E402
from ewar.game import TIME_LIMIT_MS, Game  # noqa: E402
from tools.harness.players import mixed_pace_player, play  # noqa: E402


def one_game(seed: int) -> tuple[str, int, int]:
    """(reason, duration, happenings and actions) of one fully checked game."""
    steps = 0

    def check(game: Game) -> None:
        nonlocal steps
        assert game.table.card_count() == 52, seed
        steps += 1

    game = play(Game(seed, speed=SPEEDS[seed % 3]), mixed_pace_player(seed), check)
    assert game.outcome.duration_ms <= TIME_LIMIT_MS, seed
    return game.outcome.reason, game.outcome.duration_ms, steps


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    os.nice(10)  # a shared machine: the simulations yield to interactive work
    started = time.perf_counter()
    with Pool(args.workers) as pool:
        results = pool.map(one_game, range(args.games), chunksize=50)
    seconds = time.perf_counter() - started
    reasons = Counter(reason for reason, _, _ in results)
    longest = max(duration for _, duration, _ in results)
    print(
        f"{args.games} games ended ({seconds:.0f} s on {args.workers} workers), "
        f"52 cards on the table after each of {sum(s for _, _, s in results):,} steps"
    )
    print(
        "how they ended: "
        + ", ".join(f"{reason} {count}" for reason, count in reasons.most_common())
    )
    print(
        f"longest game: {longest / 60000:.1f} min of game clock (limit {TIME_LIMIT_MS // 60000} min)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
