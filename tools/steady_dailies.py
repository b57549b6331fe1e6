"""Choose each date's daily deal among its candidates, so every date is about as hard (issue 18).

A date has candidate deals 0, 1, 2, ... (``ewar.deal.candidate_seed``). For each date this tool
plays candidate 0 with human-like players of 650 ms under both models of tools/harness/players.py
(lognormal and ex-Gaussian, taps unstoppable in their last 200 ms) and keeps it when the mean of
the two win rates lies in the inner band and each model's in its own wider band; else it tries
the next candidate, and takes the nearest to the middle when none lands inside. The players here are
numbered apart from the ones ``benchmarks/fair_daily.py`` measures with: the measure is not the
tuning. The choices are written to ``ewar/daily_deals.py``, which the engine reads.

    nice python -m tools.steady_dailies --through 2028-12-31 [--workers 2] [--again-after DATE]
    nice python -m tools.steady_dailies --again 2027-01-22,2027-04-29


Dates already in the table keep their choice (a daily never changes once published); the run
only appends dates after the table's last one, or, with ``--again-after``, chooses again every
date after DATE, which must not be before the newest edition's first date (ewar/editions.py).
``--again`` chooses another candidate for the dates a measure (``benchmarks/daily_year.py``) found
outside the band, under the same rule.
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
GAMES = (
    24  # per model and stage: a candidate is played in one stage, or two when the first is unclear
)
INNER_BAND = (
    0.37,
    0.57,
)  # the mean of the two rates (+-5.6% at two stages, one standard deviation)
MODEL_BAND = (0.33, 0.59)  # each model's own rate: the two disagree on some deals
CLEAR = (
    0.06  # after one stage, a candidate this far inside both bands is kept, this far out dropped
)
MIDDLE = 0.47
CANDIDATES = 10  # a digit each: 0-9
TUNING_PLAYERS = 1_000_003  # players numbered from here: none of the benchmark's


def tuning_rate(date: str, candidate: int, stage: int = 0) -> tuple[float, float]:
    """The shares of ``GAMES`` games of a date's candidate deal that tuning players of 650 ms win,
    lognormal and ex-Gaussian (each ``stage`` its own players)."""
    from ewar import game as game_module
    from ewar.deal import candidate_seed
    from tools.harness.players import ExGaussianPlayer, HumanLikePlayer, play

    seed = candidate_seed(date, candidate)
    real = game_module.daily_seed
    game_module.daily_seed = lambda _date: seed  # the daily of this date, on this candidate
    try:
        rates = []
        for model in (HumanLikePlayer, ExGaussianPlayer):
            wins = 0
            for number in range(stage * GAMES, (stage + 1) * GAMES):
                player = model(PACE, TUNING_PLAYERS + number * 7_919, commit_ms=200)
                wins += play(game_module.Game.daily(date), player).outcome.won
            rates.append(wins / GAMES)
    finally:
        game_module.daily_seed = real
    return rates[0], rates[1]


def distance(rates: tuple[float, float]) -> float:
    """How far a candidate's rates lie outside the bands: the largest step out (negative: how far
    inside the nearest edge)."""
    mean = sum(rates) / len(rates)
    steps = [INNER_BAND[0] - mean, mean - INNER_BAND[1]]
    steps += [step for rate in rates for step in (MODEL_BAND[0] - rate, rate - MODEL_BAND[1])]
    return max(steps)


def candidate_rates(date: str, candidate: int) -> tuple[float, float]:
    """A candidate's rates: one stage of games when it lies clearly inside or outside the bands,
    else the mean of two stages."""
    first = tuning_rate(date, candidate)
    if abs(distance(first)) >= CLEAR:
        return first
    second = tuning_rate(date, candidate, stage=1)
    return (first[0] + second[0]) / 2, (first[1] + second[1]) / 2


def choose(date: str, passed_over: int | None = None) -> tuple[str, int, list[tuple[float, float]]]:
    """The date, its chosen candidate and the rates (lognormal, ex-Gaussian) measured on the way;
    ``passed_over``: a candidate a measure found outside the band, never chosen again."""
    tried = {}
    for candidate in range(CANDIDATES):
        if candidate == passed_over:
            continue
        tried[candidate] = candidate_rates(date, candidate)
        if distance(tried[candidate]) <= 0:
            return date, candidate, list(tried.values())
    nearest = min(tried, key=lambda k: (distance(tried[k]), abs(sum(tried[k]) / 2 - MIDDLE)))
    return date, nearest, list(tried.values())


def choose_again(first: str, choices: str, dates: list[str], workers: int) -> str:
    """``choices`` with each of ``dates`` (a measure found it outside the band) given another
    candidate; a date before the newest edition's first date is refused (it may be published)."""
    from ewar.editions import EDITIONS

    offsets = {}
    for date in dates:
        if date < EDITIONS[-1].starts:
            raise SystemExit(f"{date} is before {EDITIONS[-1].starts}: its deal may be published")
        offsets[date] = (
            datetime.date.fromisoformat(date) - datetime.date.fromisoformat(first)
        ).days
        if not 0 <= offsets[date] < len(choices):
            raise SystemExit(f"{date} is not in the table ({first} on, {len(choices)} dates)")
    table = list(choices)
    with ProcessPoolExecutor(workers) as pool:
        passed_over = [int(table[offsets[date]]) for date in dates]
        for date, candidate, rates in pool.map(choose, dates, passed_over):
            table[offsets[date]] = str(candidate)
            measured = " ".join(f"{a:.0%}/{b:.0%}" for a, b in rates)
            print(date, candidate, measured, flush=True)
    return "".join(table)


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


def kept_choices(first: str, choices: str, after: str) -> str:
    """The table's choices through ``after``, which must not be before the first date of the
    newest edition: a date that may have begun never gets another deal."""
    from ewar.editions import EDITIONS

    if after < EDITIONS[-1].starts:
        raise SystemExit(f"{after} is before {EDITIONS[-1].starts}: its deal may be published")
    days = (datetime.date.fromisoformat(after) - datetime.date.fromisoformat(first)).days + 1
    return choices[:days]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--through", help="last date to choose (YYYY-MM-DD)")
    parser.add_argument("--first", help="first date when the table is still empty")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--again-after", help="choose again every date after this one")
    parser.add_argument(
        "--again",
        help="choose again these dates (D1,D2,...), which a measure found outside the band",
    )
    args = parser.parse_args(argv)
    from ewar.daily_deals import CHOICES, FIRST_DATE

    first = FIRST_DATE if CHOICES else (args.first or FIRST_DATE)
    if args.again:
        write_table(first, choose_again(first, CHOICES, args.again.split(","), args.workers))
        return 0
    if not args.through:
        parser.error("--through or --again is needed")
    if args.again_after:
        CHOICES = kept_choices(first, CHOICES, args.again_after)  # noqa: N806
    start = datetime.date.fromisoformat(first) + datetime.timedelta(days=len(CHOICES))
    end = datetime.date.fromisoformat(args.through)
    dates = [(start + datetime.timedelta(d)).isoformat() for d in range((end - start).days + 1)]
    choices = CHOICES
    with ProcessPoolExecutor(args.workers) as pool:
        for date, candidate, rates in pool.map(choose, dates):
            choices += str(candidate)
            measured = " ".join(f"{a:.0%}/{b:.0%}" for a, b in rates)
            print(date, candidate, measured, flush=True)
            write_table(first, choices)  # each date kept as it comes: a stopped run resumes
    return 0


if __name__ == "__main__":
    sys.exit(main())
