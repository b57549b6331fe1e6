"""The score judge against honest players and bots (issue 12): how many daily records of each
kind it refuses, and why, side by side in one run.

Honest: tools/harness/players.py's human-like players, medians 250-900 ms (aim: none refused). Bots
never miss: exact ones at 100, 120, 150 and 180 ms flipping at once or like a person (aim: all
refused), ones jittered by a frame or more, and ones that imitate a person's spread (the
model's stated limit: they cannot be told apart). Every game is a different daily deal.

    nice python benchmarks/engine_judge.py [--honest 10000] [--bots 1000] [--workers 2]
"""

from __future__ import annotations

import argparse
import datetime
import os
import sys
import time
from collections import Counter
from multiprocessing import Pool
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT)]

from ewar.errors import EwarError  # noqa: E402
from ewar.game import Game  # noqa: E402
from ewar.judge import judge  # noqa: E402
from ewar.replay import Replay  # noqa: E402
from tools.harness.players import BotPlayer, HumanLikePlayer, play  # noqa: E402

HONEST_MEDIANS = range(250, 901, 50)
FIRST_DAY = datetime.date(2026, 1, 1)

# (label, how to make the player for game number i)
BOTS = [
    *[
        (f"exact {ms} ms, flips at once", lambda i, ms=ms: BotPlayer(ms, ms, i))
        for ms in (100, 120, 150, 180)
    ],
    *[
        (
            f"exact {ms} ms, a person's flips",
            lambda i, ms=ms: BotPlayer(ms, ms, i, person_flips=True),
        )
        for ms in (100, 120, 150, 180)
    ],
    (
        "150-166 ms (a frame's jitter), a person's flips",
        lambda i: BotPlayer(150, 166, i, person_flips=True),
    ),
    (
        "180-196 ms (a frame's jitter), a person's flips",
        lambda i: BotPlayer(180, 196, i, person_flips=True),
    ),
    ("150-250 ms uniform, a person's flips", lambda i: BotPlayer(150, 250, i, person_flips=True)),
    (
        "imitator: lognormal 200 ms, never misses",
        lambda i: HumanLikePlayer(200, i, miss=0.0, near_miss=0.0),
    ),
    (
        "imitator: lognormal 250 ms, never misses",
        lambda i: HumanLikePlayer(250, i, miss=0.0, near_miss=0.0),
    ),
]


def daily(number: int) -> str:
    return (FIRST_DAY + datetime.timedelta(days=number)).isoformat()


def verdict(task: tuple[str, int]) -> tuple[str, str]:
    """(label, "accepted" or the refusal's code) of one game of one kind of player."""
    label, number = task
    if label.startswith("honest"):
        median = HONEST_MEDIANS[number % len(HONEST_MEDIANS)]
        player = HumanLikePlayer(median, number * 7919 + median)
        label = f"honest, median {median} ms"
    else:
        player = dict(BOTS)[label](number)
    date = daily(number)
    record = Replay.of(play(Game.daily(date), player)).to_json()
    try:
        judge(record, date)
    except EwarError as error:
        return label, error.code
    return label, "accepted"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--honest", type=int, default=10_000, help="honest games, all paces")
    parser.add_argument("--bots", type=int, default=1000, help="games of each bot")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    os.nice(10)  # a shared machine: the simulations yield to interactive work
    tasks = [("honest", number) for number in range(args.honest)]
    tasks += [(label, number) for label, _ in BOTS for number in range(args.bots)]
    started = time.perf_counter()
    with Pool(args.workers) as pool:
        results = Counter(pool.imap_unordered(verdict, tasks, chunksize=25))
    print(
        f"score judge: {len(tasks)} daily games judged ({time.perf_counter() - started:.0f} s "
        f"on {args.workers} workers)"
    )
    print("| player | games | refused | implausible_play | impossible_play | accepted |")
    print("|---|---|---|---|---|---|")
    labels = [f"honest, median {m} ms" for m in HONEST_MEDIANS] + [label for label, _ in BOTS]
    rows = [("honest, all paces", [k for k in labels if k.startswith("honest")])]
    rows += [(label, [label]) for label in labels]
    for title, keys in rows:
        counts = Counter()
        for (label, code), count in results.items():
            if label in keys:
                counts[code] += count
        games = sum(counts.values())
        refused = games - counts["accepted"]
        print(
            f"| {title} | {games} | {refused} ({refused / games:.1%}) | "
            f"{counts['implausible_play']} | {counts['impossible_play']} | {counts['accepted']} |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
