"""Choose each date's daily deal among its candidates, so every date is about as hard (issue 18).

A date has candidate deals 0, 1, 2, ... (``ewar.deal.candidate_seed``). For each date this tool
plays candidate 0 with human-like players of 650 ms (tests/players.py, taps unstoppable in their
last 200 ms) and keeps it when their win rate lies in the inner band; else it tries the next
candidate, and takes the nearest to the middle when none lands inside. The players here are
numbered apart from the ones ``benchmarks/fair_daily.py`` measures with: the measure is not the
tuning. The choices are written to ``ewar/daily_deals.py``, which the engine reads.

    nice python -m tools.steady_dailies --through 2028-12-31 [--workers 2]

Dates already in the table keep their choice (a daily never changes once published); the run
only appends dates after the table's last one.
"""

from __future__ import annotations

import argparse
import datetime
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT)]

TABLE = ROOT / "ewar" / "daily_deals.py"
PACE = 650
GAMES = 60  # a win rate to about +-6.4% (one standard deviation at 47%)
INNER_BAND = (0.36, 0.58)  # inside the 25-65% band by more than 1.5 standard deviations
MIDDLE = 0.47
CANDIDATES = 10  # a digit each: 0-9
TUNING_PLAYERS = 1_000_003  # players numbered from here: none of the benchmark's


def tuning_rate(date: str, candidate: int) -> float:
    """The share of ``GAMES`` games of a date's candidate deal that tuning players of 650 ms win."""
    from ewar import game as game_module
    from ewar.deal import candidate_seed
    from harness.players import HumanLikePlayer, play

    seed = candidate_seed(date, candidate)
    real = game_module.daily_seed
    game_module.daily_seed = lambda _date: seed  # the daily of this date, on this candidate
    try:
        wins = 0
        for number in range(GAMES):
            player = HumanLikePlayer(PACE, TUNING_PLAYERS + number * 7_919, commit_ms=200)
            wins += play(game_module.Game.daily(date), player).outcome.won
    finally:
        game_module.daily_seed = real
    return wins / GAMES


def choose(date: str) -> tuple[str, int, list[float]]:
    """The date, its chosen candidate and the rates measured on the way."""
    low, high = INNER_BAND
    rates = []
    for candidate in range(CANDIDATES):
        rates.append(tuning_rate(date, candidate))
        if low <= rates[-1] <= high:
            return date, candidate, rates
    nearest = min(range(CANDIDATES), key=lambda k: abs(rates[k] - MIDDLE))
    return date, nearest, rates


def write_table(first: str, choices: str, path: Path = TABLE) -> None:
    """The table module for ``choices`` (a digit a date from ``first``), written to ``path``."""
    lines = [
        '"""Which candidate deal is each date\'s daily (``ewar.deal.daily_seed``): one digit a date',
        "from ``FIRST_DATE`` on, written by ``python -m tools.steady_dailies``; dates outside the",
        'table take candidate 0. Generated: edit with the tool, never by hand."""',
        "",
        f'FIRST_DATE = "{first}"',
        "# fmt: off",
        "CHOICES = (",
    ]
    lines += [f'    "{choices[i : i + 80]}"' for i in range(0, len(choices), 80)]
    lines += [")", "# fmt: on", ""]
    path.write_text("\n".join(lines))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--through", required=True, help="last date to choose (YYYY-MM-DD)")
    parser.add_argument("--first", help="first date when the table is still empty")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    from ewar.daily_deals import CHOICES, FIRST_DATE

    first = FIRST_DATE if CHOICES else (args.first or FIRST_DATE)
    start = datetime.date.fromisoformat(first) + datetime.timedelta(days=len(CHOICES))
    end = datetime.date.fromisoformat(args.through)
    dates = [(start + datetime.timedelta(d)).isoformat() for d in range((end - start).days + 1)]
    choices = CHOICES
    with ProcessPoolExecutor(args.workers) as pool:
        for date, candidate, rates in pool.map(choose, dates):
            choices += str(candidate)
            print(date, candidate, " ".join(f"{r:.0%}" for r in rates), flush=True)
            write_table(first, choices)  # each date kept as it comes: a stopped run resumes
    return 0


if __name__ == "__main__":
    sys.exit(main())
