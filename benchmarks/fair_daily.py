"""A fair contest every day (issue 18), side by side in one run:

1. The year of dailies: each date of 2027 played by human-like players (tools/harness/players.py, the
   lognormal one, taps unstoppable in their last 200 ms) of 450, 650 and 850 ms; the win rate
   per date, the band (min-max) and the dates where 650 ms falls outside 25-65%.
2. The score judge against honest players of both models (lognormal and ex-Gaussian, medians
   300-900 ms, taps unstoppable in their last 200 ms): how many records it refuses, and why.
3. The same judge against the bots it refuses (benchmarks/engine_judge.py's) and the
   foreknowledge bot (it reads when each computer slap is due and slaps just before).

    nice python benchmarks/fair_daily.py [--quick] [--attempts 40] [--honest 10000] [--bots 300]
    nice python benchmarks/fair_daily.py --chart docs/fair_daily.svg   # also draw the year

Attempts per date: ``--attempts`` at 650 ms, a quarter of them (at least 2) at 450 and 850 ms.
"""

from __future__ import annotations

import argparse
import datetime
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "benchmarks")]

from engine_judge import BOTS  # noqa: E402
from judge_honest import print_refusals  # noqa: E402

from ewar import __version__  # noqa: E402
from ewar.errors import EwarError  # noqa: E402
from ewar.game import Game  # noqa: E402
from ewar.judge import judge  # noqa: E402
from ewar.replay import Replay  # noqa: E402
from tools.harness.players import ExGaussianPlayer, ForeknowledgeBot, HumanLikePlayer, play  # noqa: E402

YEAR = 2027
BAND = (0.25, 0.65)  # what a 650 ms player must win on every date
PACES = (450, 650, 850)
HONEST_MEDIANS = range(300, 901, 50)
COMMIT_MS = 200  # a person cannot stop a tap in its last 200 ms
MODELS = {
    "lognormal": lambda median, seed: HumanLikePlayer(median, seed, commit_ms=COMMIT_MS),
    "ex-Gaussian": lambda median, seed: ExGaussianPlayer(median, seed),
}
FOREKNOWLEDGE = "foreknowledge: 1-5 ms before each computer slap, else 500-700 ms"
JUDGE_FIRST_DAY = datetime.date(2026, 1, 1)


def dates_of(year: int) -> list[str]:
    first = datetime.date(year, 1, 1)
    days = (datetime.date(year + 1, 1, 1) - first).days
    return [(first + datetime.timedelta(days=day)).isoformat() for day in range(days)]


def win_rate(date: str, pace: int, attempts: int, players_from: int = 0) -> float:
    """The share of ``attempts`` games of ``date``'s daily a player of ``pace`` ms wins (players
    numbered from ``players_from``: another number, other players)."""
    wins = 0
    for attempt in range(players_from, players_from + attempts):
        player = HumanLikePlayer(pace, attempt * 7919 + pace, commit_ms=COMMIT_MS)
        wins += play(Game.daily(date), player).outcome.won
    return wins / attempts


def year_of_dailies(dates: list[str], attempts: int) -> dict[int, list[float]]:
    """Win rates per pace, one per date."""
    few = max(2, attempts // 4)
    return {
        pace: [win_rate(date, pace, attempts if pace == 650 else few) for date in dates]
        for pace in PACES
    }


def judged(player, number: int) -> str:
    """``accepted`` or the refusal's code for one daily game of ``player``."""
    date = (JUDGE_FIRST_DAY + datetime.timedelta(days=number)).isoformat()
    record = Replay.of(play(Game.daily(date), player)).to_json()
    try:
        judge(record, date)
    except EwarError as error:
        return error.code
    return "accepted"


def honest_refusals(model: str, games: int) -> dict[int, Counter]:
    """Verdicts per median for ``games`` games of the model, the medians taking turns."""
    verdicts = {median: Counter() for median in HONEST_MEDIANS}
    for number in range(games):
        median = HONEST_MEDIANS[number % len(HONEST_MEDIANS)]
        player = MODELS[model](median, number * 104_729 + median)
        verdicts[median][judged(player, number)] += 1
    return verdicts


def bot_refusals(games: int) -> dict[str, Counter]:
    bots = [*BOTS, (FOREKNOWLEDGE, ForeknowledgeBot)]
    return {
        label: Counter(judged(make(number), number) for number in range(games))
        for label, make in bots
    }


def chart(rates: dict[int, list[float]], dates: list[str], path: Path) -> None:
    """The year as plain SVG: a dot per date and pace, the band shaded."""
    width, height, left, top, plot_w, plot_h = 760, 300, 50, 30, 690, 230
    colours = {450: "#1b7f3b", 650: "#1f4e99", 850: "#b3261e"}
    x = lambda i: left + plot_w * i / max(1, len(dates) - 1)  # noqa: E731
    y = lambda rate: top + plot_h * (1 - rate)  # noqa: E731
    low, high = BAND
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="11">',
        f'<text x="{left}" y="18" font-size="13" font-weight="bold">Daily win rate per date, '
        f"{YEAR} (engine {__version__}), human-like players of 450, 650 and 850 ms</text>",
        f'<rect x="{left}" y="{y(high):.1f}" width="{plot_w}" height="{y(low) - y(high):.1f}" '
        'fill="#dde6f5"/>',
        f'<text x="{left + plot_w - 4}" y="{y(high) + 12:.1f}" text-anchor="end">'
        f"band for 650 ms: {low:.0%}-{high:.0%}</text>",
    ]
    for tick in (0, 0.25, 0.5, 0.75, 1):
        parts.append(
            f'<line x1="{left}" x2="{left + plot_w}" y1="{y(tick):.1f}" y2="{y(tick):.1f}" '
            'stroke="#ccc" stroke-width="0.5"/>'
            f'<text x="{left - 6}" y="{y(tick) + 4:.1f}" text-anchor="end">{tick:.0%}</text>'
        )
    for month in range(12):
        if f"{YEAR}-{month + 1:02d}-01" not in dates:
            continue
        index = dates.index(f"{YEAR}-{month + 1:02d}-01")
        parts.append(
            f'<text x="{x(index):.1f}" y="{top + plot_h + 16}">'
            f"{datetime.date(YEAR, month + 1, 1):%b}</text>"
        )
    for pace, values in rates.items():
        parts.extend(
            f'<circle cx="{x(i):.1f}" cy="{y(rate):.1f}" r="1.6" fill="{colours[pace]}"/>'
            for i, rate in enumerate(values)
        )
        parts.append(
            f'<text x="{left + 8 + 90 * PACES.index(pace)}" y="{height - 8}" '
            f'fill="{colours[pace]}">● {pace} ms</text>'
        )
    parts.append("</svg>")
    path.write_text("\n".join(parts) + "\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a small run (a few dates, games)")
    parser.add_argument("--attempts", type=int, default=40, help="games per date at 650 ms")
    parser.add_argument("--honest", type=int, default=10_000, help="games of each human model")
    parser.add_argument("--bots", type=int, default=300, help="games of each bot")
    parser.add_argument("--chart", type=Path, help="write the year's chart (SVG) here")
    args = parser.parse_args(argv)
    dates = dates_of(YEAR)
    if args.quick:
        dates, args.attempts, args.honest, args.bots = dates[::61], 4, 26, 3
    started = time.perf_counter()
    rates = year_of_dailies(dates, args.attempts)
    low, high = BAND
    outside = [(d, r) for d, r in zip(dates, rates[650], strict=True) if not low <= r <= high]
    print(
        f"engine {__version__}: the dailies of {len(dates)} dates of {YEAR} "
        f"({args.attempts} games a date at 650 ms, {max(2, args.attempts // 4)} at 450 and 850)"
    )
    print("| pace | mean win rate | lowest date | highest date |")
    print("|---|---|---|---|")
    for pace, values in rates.items():
        print(
            f"| {pace} ms | {sum(values) / len(values):.0%} | {min(values):.0%} | "
            f"{max(values):.0%} |"
        )
    print(
        f"650 ms outside {low:.0%}-{high:.0%}: {len(outside)} of {len(dates)} dates"
        + (": " + ", ".join(f"{d} {r:.0%}" for d, r in outside[:20]) if outside else "")
    )
    # A few games a date measure a rate to about +-11%: each date outside is measured again with three
    # times the games, by other players, and the two measures pooled.
    again = 3 * args.attempts
    pooled = [
        (
            d,
            (r * args.attempts + win_rate(d, 650, again, players_from=10_000) * again)
            / (args.attempts + again),
        )
        for d, r in outside
    ]
    still = [(d, r) for d, r in pooled if not low <= r <= high]
    print(
        f"measured again with {again} more games each: {len(still)} of {len(dates)} dates outside"
        + (": " + ", ".join(f"{d} {r:.1%}" for d, r in still) if still else "")
    )
    year_s = time.perf_counter() - started

    started = time.perf_counter()
    print(
        f"\nhonest players, {args.honest} daily games of each model, medians "
        f"{HONEST_MEDIANS.start}-{HONEST_MEDIANS.stop - 1} ms in turn, taps unstoppable in "
        f"their last {COMMIT_MS} ms"
    )
    verdicts = {model: honest_refusals(model, args.honest) for model in MODELS}
    print_refusals(verdicts, HONEST_MEDIANS)

    print(f"\nbots, {args.bots} daily games each")
    print("| bot | refused | why |")
    print("|---|---|---|")
    for label, counts in bot_refusals(args.bots).items():
        refused = args.bots - counts["accepted"]
        why = ", ".join(f"{code} {n}" for code, n in counts.items() if code != "accepted")
        print(f"| {label} | {refused} of {args.bots} ({refused / args.bots:.0%}) | {why} |")
    print(f"\n(year {year_s:.0f} s, judge {time.perf_counter() - started:.0f} s)")
    if args.chart:
        chart(rates, dates, args.chart)
        print(f"chart: {args.chart}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
