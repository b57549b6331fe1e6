"""Every daily of a year at 650 ms under both models of a person (issue 30), in one run.

Each date of ``--year`` is played ``--games`` times by lognormal players and as many times by
ex-Gaussian ones (tests/players.py, taps unstoppable in their last 200 ms), numbered apart from the
players ``tools/steady_dailies.py`` chose the deals with and from those of
``benchmarks/committed_taps.py``. A date-model outside 25-65% after those games is played again
with three times as many fresh players and the two measures pooled (a rate of 40 games has a
standard deviation of ~8%: the first measure alone flags noise). Printed per model: the dates in
the band, the lowest, median and highest rate, and the dates still outside.

    nice -n 10 python benchmarks/daily_year.py [--year 2027] [--games 40] [--workers 2]
    nice -n 10 python benchmarks/daily_year.py --dates 2026-12-09:2027-02-13   # a span instead
"""

from __future__ import annotations

import argparse
import datetime
import statistics
import sys
import time
from multiprocessing import Pool
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT)]

from ewar import __version__  # noqa: E402
from ewar.game import Game  # noqa: E402
from tools.harness.players import ExGaussianPlayer, HumanLikePlayer, play  # noqa: E402

PACE = 650
BAND = (0.25, 0.65)
COMMIT_MS = 200
MODELS = {"lognormal": HumanLikePlayer, "ex-Gaussian": ExGaussianPlayer}
PLAYERS = 5_000_000  # numbered from here: none of the tuning's (1,000,003+) nor committed_taps' (3,000,000+)


def dates_of(year: int) -> list[str]:
    first = datetime.date(year, 1, 1)
    days = (datetime.date(year + 1, 1, 1) - first).days
    return [(first + datetime.timedelta(days=day)).isoformat() for day in range(days)]


def daily_games(task: tuple) -> tuple:
    """``count`` dailies of ``date`` played by ``model`` players numbered from ``first``."""
    model, date, first, count = task
    wins = 0
    for n in range(first, first + count):
        player = MODELS[model](PACE, PLAYERS + n * 7_919, commit_ms=COMMIT_MS)
        wins += play(Game.daily(date), player).outcome.won
    return model, date, wins, count


def measure(dates: list[str], games: int, workers: int) -> tuple[dict, int]:
    """{model: {date: [wins, games]}}, and how many date-models were measured again."""
    tally = {model: {date: [0, 0] for date in dates} for model in MODELS}

    def run(tasks: list[tuple]) -> None:
        with Pool(workers) as pool:
            for model, date, wins, count in pool.imap_unordered(daily_games, tasks, chunksize=2):
                tally[model][date][0] += wins
                tally[model][date][1] += count

    run([(model, date, 0, games) for date in dates for model in MODELS])
    low, high = BAND
    again = [
        (model, date, games, 3 * games)
        for model in MODELS
        for date, (wins, count) in tally[model].items()
        if not low <= wins / count <= high
    ]
    run(again)
    return tally, len(again)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--year", type=int, default=2027)
    parser.add_argument("--games", type=int, default=40, help="games a date and model")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--every", type=int, default=1, help="every Nth date (1: all)")
    parser.add_argument("--dates", help="FIRST:LAST, a span of dates instead of the year")
    args = parser.parse_args(argv)
    if args.dates:
        first, last = (datetime.date.fromisoformat(d) for d in args.dates.split(":"))
        span = [(first + datetime.timedelta(d)).isoformat() for d in range((last - first).days + 1)]
    else:
        span = dates_of(args.year)
    dates = span[:: args.every]
    started = time.perf_counter()
    tally, again = measure(dates, args.games, args.workers)
    low, high = BAND
    print(
        f"engine {__version__}: the dailies of {args.dates or args.year} at {PACE} ms, "
        f"{len(dates)} dates, "
        f"{args.games} games a date and model; {again} date-models outside {low:.0%}-{high:.0%} "
        f"measured again with {3 * args.games} more and pooled"
    )
    print("| model | dates in 25-65% | lowest | median | highest | mean | still outside |")
    print("|---|---|---|---|---|---|---|")
    for model in MODELS:
        rates = {date: wins / count for date, (wins, count) in tally[model].items()}
        values = sorted(rates.values())
        outside = [d for d, r in rates.items() if not low <= r <= high]
        print(
            f"| {model} | {len(dates) - len(outside)} of {len(dates)} | {values[0]:.1%} | "
            f"{statistics.median(values):.1%} | {values[-1]:.1%} | {statistics.mean(values):.1%} | "
            + (", ".join(f"{d} {rates[d]:.1%}" for d in outside) or "none")
            + " |"
        )
    print(f"({time.perf_counter() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
