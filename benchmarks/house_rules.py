"""What each house rule does to a practice game, against the standard rules, in one run (issue 35):
patterns a game (all of them, and the rule's own), computer slaps won a game, and the human-like
player's win rate at a 600 ms median at normal speed; then, at each speed, the win rate of a
player whose median is that speed's typical computer slap (the speed's 50% point with the
standard rules), so a rule that moves a speed out of its band shows.

The player is tools/harness/players.py's HumanLikePlayer (lognormal reactions, sigma 0.3, 10% of
patterns missed, 2% of near misses slapped, flips ~400 ms after its turn shows); at 600 ms the
ExGaussianPlayer (the second model: ex-Gaussian reactions, 8% missed) plays too. Every rule plays
the same seeds 0..N-1 (a Jokers deck deals them differently, 54 cards).

    nice -n 10 python benchmarks/house_rules.py [--seeds 400] [--workers 2]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from multiprocessing import Pool
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT)]

from ewar import __version__, cpu  # noqa: E402
from ewar.game import Game  # noqa: E402
from ewar.house_rules import HOUSE_RULES  # noqa: E402
from tools.harness.players import ExGaussianPlayer, HumanLikePlayer, play  # noqa: E402

STANDARD = "standard"
VARIANTS = ((STANDARD, ()), *((rule, (rule,)) for rule in HOUSE_RULES), ("all six", HOUSE_RULES))
HEADLINE_MS = 600
SPEED_MEDIANS = cpu.TYPICAL_SLAP_MS  # each speed's 50% point with the standard rules


MODELS = {"lognormal": HumanLikePlayer, "ex-Gaussian": ExGaussianPlayer}


def play_chunk(task: tuple[str, tuple[str, ...], str, int, str, range]) -> tuple:
    """Play one chunk of seeds of a (variant, speed, median, model): per game (won, patterns shown,
    the rule's own patterns shown, computer slaps won)."""
    name, rules, speed, median, model, seeds = task
    games = []
    for seed in seeds:
        player = MODELS[model](median, seed * 7919 + median)
        game = play(Game(seed, speed=speed, house_rules=rules), player)
        shown = [window.pattern for window in game.patterns.windows]
        own = sum(pattern in rules for pattern in shown)
        cpu_slaps = sum(game.table.slaps_won[1:])
        games.append((game.outcome.won, len(shown), own, cpu_slaps))
    return name, speed, median, model, games


def measure(seeds: int, workers: int) -> dict:
    """{(variant, speed, median, model): [per-game tuples]}, the work spread over ``workers``."""
    chunk = max(1, seeds // 4)
    points = [("normal", HEADLINE_MS, "lognormal"), ("normal", HEADLINE_MS, "ex-Gaussian")] + [
        (speed, median, "lognormal") for speed, median in SPEED_MEDIANS.items()
    ]
    tasks = [
        (name, rules, speed, median, model, range(start, min(seeds, start + chunk)))
        for name, rules in VARIANTS
        for speed, median, model in points
        for start in range(0, seeds, chunk)
    ]
    results: dict[tuple, list] = {}
    with Pool(workers) as pool:
        for name, speed, median, model, games in pool.imap_unordered(play_chunk, tasks):
            results.setdefault((name, speed, median, model), []).extend(games)
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=400, help="games a point (default 400)")
    parser.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1))
    args = parser.parse_args()
    started = time.perf_counter()
    results = measure(args.seeds, args.workers)
    print(
        f"House rules against the standard rules: engine {__version__}, {args.seeds} seeds a "
        f"point, HumanLikePlayer (lognormal) and ExGaussianPlayer"
    )
    print()
    print(f"At normal speed, a {HEADLINE_MS} ms player:")
    header = f"  {'rules':<16}{'patterns/game':>14}{'own/game':>10}{'CPU slaps/game':>16}"
    print(header + f"{'win rate':>10}{'vs standard':>13}{'ex-Gaussian':>13}{'vs standard':>13}")
    base = ex_base = None
    for name, _ in VARIANTS:
        games = results[(name, "normal", HEADLINE_MS, "lognormal")]
        count = len(games)
        win = sum(g[0] for g in games) / count
        base = win if base is None else base
        ex_games = results[(name, "normal", HEADLINE_MS, "ex-Gaussian")]
        ex_win = sum(g[0] for g in ex_games) / len(ex_games)
        ex_base = ex_win if ex_base is None else ex_base
        own = "-" if name == STANDARD else f"{sum(g[2] for g in games) / count:.1f}"
        print(
            f"  {name:<16}{sum(g[1] for g in games) / count:>14.1f}{own:>10}"
            f"{sum(g[3] for g in games) / count:>16.1f}{win:>10.0%}{win - base:>+12.0%}"
            f"{ex_win:>13.0%}{ex_win - ex_base:>+12.0%}"
        )
    print()
    print("At each speed, a player whose median is that speed's typical CPU slap (win rate):")
    speeds = list(SPEED_MEDIANS)
    print(
        f"  {'rules':<16}"
        + "".join(f"{f'{speed} {SPEED_MEDIANS[speed]} ms':>18}" for speed in speeds)
    )
    for name, _ in VARIANTS:
        cells = []
        for speed in speeds:
            games = results[(name, speed, SPEED_MEDIANS[speed], "lognormal")]
            cells.append(f"{sum(g[0] for g in games) / len(games):>18.0%}")
        print(f"  {name:<16}" + "".join(cells))
    print()
    print(f"({time.perf_counter() - started:.0f} s on {args.workers} workers)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
