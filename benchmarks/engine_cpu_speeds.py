"""How often a simulated human beats each CPU speed: the figures the speeds are tuned by.

The simulated human slaps every valid pattern exactly R ms after the card that made it,
never slaps wrongly, and flips 300 ms after its turn begins.

    python benchmarks/engine_cpu_speeds.py [--seeds 1000]
"""

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path[:0] = [
    str(Path(__file__).resolve().parents[1]),
    str(Path(__file__).resolve().parents[1] / "tests"),
]

from players import play_simulated_human

from ewar.game import Game

CASES = [
    ("slow", 450),
    ("normal", 450),
    ("fast", 450),
    ("fast", 250),
    ("slow", 600),
    ("normal", 350),
    ("normal", 550),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seeds", type=int, default=1000)
    seeds = parser.parse_args().seeds
    print("| CPU speed | human reaction | human wins | median game | seeds |")
    print("|---|---|---|---|---|")
    for speed, reaction in CASES:
        started = time.perf_counter()
        wins, durations = 0, []
        for seed in range(seeds):
            outcome = play_simulated_human(Game(seed, speed=speed), reaction, 300).outcome
            wins += outcome.won
            durations.append(outcome.duration_ms)
        minutes = statistics.median(durations) / 60_000
        print(
            f"| {speed} | {reaction} ms | {100 * wins / seeds:.1f}% | {minutes:.1f} min "
            f"| {seeds} |",
            flush=True,
        )
        print(f"  ({time.perf_counter() - started:.1f} s)", file=sys.stderr)


if __name__ == "__main__":
    main()
