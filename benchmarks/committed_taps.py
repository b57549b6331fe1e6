"""Players whose taps are committed (issue 30), side by side in one run, under two models of a
person (tools/harness/players.py: lognormal, and ex-Gaussian with median M, spread 0.12 M, tail 0.25 M),
every tap unstoppable in its last 200 ms:

1. each CPU speed's 50% point (the median reaction that wins half the games; aims 850/600/430 ms);
2. the dailies of a year at 650 ms: the win rate per date, its band, the dates outside 25-65%
   (each date measured again with more games when the first games put it outside);
3. the guided first game at 700 and 900 ms: eliminations, the longest time with no cards;
4. wrong slaps a daily from committed taps (aimed at a pattern that had just gone: reason covered
   or too_late), before (engine 3.1.0's rule: a slap on a pattern just covered was wrong) and after
   (engine 4.0.0: it is only too late), beside the other wrong slaps (near misses), eliminations, wins.

    nice -n 10 python benchmarks/committed_taps.py [--seeds 240] [--games 24] [--workers 2] [--quick]
"""

from __future__ import annotations

import argparse
import datetime
import itertools
import os
import re
import statistics
import sys
import time
from multiprocessing import Pool
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "benchmarks")]

from cpu_speeds import TARGETS, half_point, measure, person  # noqa: E402
from daily_year import measure as measure_year  # noqa: E402
from guided_game import one_game  # noqa: E402

from ewar import __version__, patterns  # noqa: E402
from ewar.game import Game  # noqa: E402
from tools.harness.players import play  # noqa: E402

MODELS = ("lognormal", "exgauss")
YEAR = 2027  # the CPU speeds and the daily's form were tuned on dates of 2028: this year is not
PACE = 650
BAND = (0.25, 0.65)
PLAYERS = (
    3_000_000  # the committed-slap games' players are numbered from here: none of the tuning's
)
# the coach's offer of a new deal after this long with no cards (the page's own constant, read from it)
_COACH = (ROOT / "web" / "js" / "table" / "coach.js").read_text()
OFFER_AFTER_MS = int(re.search(r"OFFER_AFTER_MS = ([\d_]+);", _COACH)[1].replace("_", ""))
RULES = {"before": "a slap on a pattern just covered is wrong", "after": "it is only too late"}


def _old_too_late_for(self, when, seat, table):
    """Engine 3.1.0's rule: only a pattern another player's slap took makes a slap too late."""
    missed = _NEW_TOO_LATE_FOR(self, when, seat, table)
    return missed if missed is not None and missed.end == patterns.SLAPPED else None


_NEW_TOO_LATE_FOR = patterns.PatternLog.too_late_for


def guided(task: tuple) -> dict:
    model, median_ms, seed = task
    return one_game(seed, median_ms, model=model) | {"model": model, "median": median_ms}


def committed_wrong_slaps(task: tuple) -> tuple:
    """Dailies at PACE under one rule: wrong slaps aimed at a pattern that had just gone (a committed
    tap: reason ``covered`` or ``too_late``), other wrong slaps (near misses), eliminations, wins."""
    rule, model, dates, first = task
    patterns.PatternLog.too_late_for = _old_too_late_for if rule == "before" else _NEW_TOO_LATE_FOR
    try:
        committed = other = eliminated = won = 0
        for n, date in enumerate(dates):
            events: list[dict] = []
            game = Game.daily(date)
            player = person(model, PACE, PLAYERS + (first + n) * 7919)
            play(game, player, lambda g: events.extend(g.take_events()))
            events.extend(game.take_events())
            for event in events:
                if event["type"] == "wrong_slap" and event["seat"] == "south":
                    if event["reason"] in (patterns.COVERED, patterns.TOO_LATE):
                        committed += 1
                    else:
                        other += 1
            eliminated += game.outcome.reason == "eliminated"
            won += game.outcome.won
    finally:
        patterns.PatternLog.too_late_for = _NEW_TOO_LATE_FOR
    return rule, model, committed, other, eliminated, won, len(dates)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=240, help="deals a point of a 50%% curve")
    parser.add_argument("--games", type=int, default=24, help="dailies a date and model")
    parser.add_argument("--guided", type=int, default=200, help="guided games a row")
    parser.add_argument("--dailies", type=int, default=150, help="dailies a rule and model")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--every", type=int, default=1, help="every Nth date of the year (1: all)")
    parser.add_argument("--quick", action="store_true", help="a few dates of the year only")
    args = parser.parse_args()
    os.nice(10)
    print(f"engine {__version__}: taps committed in their last 200 ms, models {', '.join(MODELS)}")

    started = time.perf_counter()
    reactions = {speed: range(aim - 150, aim + 151, 50) for speed, aim in TARGETS.items()}
    print(f"\n1. 50% points ({args.seeds} deals a point)")
    print(f"{'speed':>8}{'aim':>8}" + "".join(f"{model:>12}" for model in MODELS))
    points = {}
    for model in MODELS:
        results = measure(list(TARGETS), reactions, args.seeds, args.workers, model)
        for speed in TARGETS:
            curve = [(r, results[speed, r][0]) for r in reactions[speed]]
            points[speed, model] = half_point(curve)
    for speed, aim in TARGETS.items():
        cells = "".join(
            f"{'never' if points[speed, m] is None else f'{points[speed, m]:.0f} ms':>12}"
            for m in MODELS
        )
        print(f"{speed:>8}{aim:>5} ms{cells}")
    print(f"   ({time.perf_counter() - started:.0f} s)")

    started = time.perf_counter()
    first = datetime.date(YEAR, 1, 1)
    days = 366 if YEAR % 4 == 0 else 365
    dates = [(first + datetime.timedelta(days=d)).isoformat() for d in range(days)]
    dates = dates[:: 30 if args.quick else args.every]
    tally, again = measure_year(
        dates, args.games, args.workers
    )  # daily_year.py's players and re-measure
    print(
        f"\n2. the dailies of {YEAR} at {PACE} ms ({len(dates)} dates, {args.games} games a date;"
    )
    print(f"   {again} date-models outside the band measured again with {3 * args.games} more)")
    print(f"{'model':>10}{'mean':>8}{'lowest':>10}{'highest':>10}{'outside 25-65%':>18}")
    for model in tally:
        rates = {date: wins / count for date, (wins, count) in tally[model].items()}
        outside = [d for d, r in rates.items() if not BAND[0] <= r <= BAND[1]]
        low = min(rates, key=rates.get)
        high = max(rates, key=rates.get)
        print(
            f"{model:>10}{statistics.mean(rates.values()):>8.0%}{rates[low]:>10.0%}"
            f"{rates[high]:>10.0%}{len(outside):>12} of {len(dates)}"
            + (f"  ({', '.join(f'{d} {rates[d]:.0%}' for d in outside)})" if outside else "")
        )
    print(f"   ({time.perf_counter() - started:.0f} s)")

    started = time.perf_counter()
    tasks = [
        (m, median, seed) for m in MODELS for median in (700, 900) for seed in range(args.guided)
    ]
    with Pool(args.workers) as pool:
        games = pool.map(guided, tasks, chunksize=10)
    print(f"\n3. the guided first game ({args.guided} deals a row)")
    print(f"   (the coach offers a new deal after {OFFER_AFTER_MS / 1000:.0f} s with no cards)")
    print(
        f"{'model':>10}{'median':>8}{'won':>6}{'eliminated':>12}{'longest with no cards':>24}{'p90':>8}"
        f"{'coach offered':>16}"
    )
    for (model, median), rows in itertools.groupby(games, key=lambda g: (g["model"], g["median"])):
        rows = list(rows)
        longest = sorted(g["longest_out"] for g in rows)
        print(
            f"{model:>10}{median:>6}ms{sum(g['won'] for g in rows) / len(rows):>6.0%}"
            f"{sum(g['eliminated'] for g in rows):>8} of {len(rows)}"
            f"{longest[-1] / 1000:>18.1f} s{longest[int(0.9 * (len(longest) - 1))] / 1000:>7.1f} s"
            f"{sum(out >= OFFER_AFTER_MS for out in longest):>9} of {len(rows)}"
        )
    print(f"   ({time.perf_counter() - started:.0f} s)")

    started = time.perf_counter()
    year = [(first + datetime.timedelta(days=d)).isoformat() for d in range(args.dailies)]
    tasks = [(rule, model, year, 0) for rule in RULES for model in MODELS]
    with Pool(args.workers) as pool:
        rows = pool.map(committed_wrong_slaps, tasks)
    print(f"\n4. wrong slaps a daily at {PACE} ms ({args.dailies} dailies a row, the same players)")
    print(
        f"{'rule':>8}{'model':>11}{'aimed at a pattern gone':>25}{'near misses':>13}"
        f"{'eliminated':>12}{'won':>6}"
    )
    for rule, model, committed, other, eliminated, won, count in rows:
        print(
            f"{rule:>8}{model:>11}{committed / count:>25.2f}{other / count:>13.2f}"
            f"{eliminated:>8} of {count}{won / count:>6.0%}   ({RULES[rule]})"
        )
    print(f"   ({time.perf_counter() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
