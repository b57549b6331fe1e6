"""How often a human-like player beats each CPU speed, against its median reaction time: the
figures the speeds are tuned by (issue 11), printed side by side and drawn into a chart.

The players are tools/harness/players.py's, their taps unstoppable in the last 200 ms (issue 30): the
lognormal HumanLikePlayer (sigma 0.3 around the median, 10% of patterns missed, 2% of near misses
slapped, flips ~400 ms after its turn shows) and the ExGaussianPlayer (median M, spread 0.12 M,
tail 0.25 M). Every point plays the same deals (seeds 0..N-1).

    nice python benchmarks/cpu_speeds.py [--seeds 1000] [--workers 2] [--models lognormal exgauss]
"""

from __future__ import annotations

import argparse
import itertools
import os
import statistics
import sys
import time
from multiprocessing import Pool
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT)]

from ewar import __version__, cpu  # noqa: E402
from ewar.game import Game  # noqa: E402
from tools.harness.players import ExGaussianPlayer, HumanLikePlayer, play  # noqa: E402

REACTIONS = range(250, 1001, 50)
TARGETS = {"slow": 850, "normal": 600, "fast": 430}  # the 50% points issue 11 asks for
COLOURS = {"slow": "#2e7d32", "normal": "#1565c0", "fast": "#c62828"}
MODELS = {"lognormal": HumanLikePlayer, "exgauss": ExGaussianPlayer}
COMMIT_MS = 200  # the last 200 ms of a tap cannot be stopped (the brief; issue 30)


def person(model: str, median_ms: int, seed: int):
    """A human-like player of ``model`` whose taps are committed in their last COMMIT_MS."""
    return MODELS[model](median_ms, seed, commit_ms=COMMIT_MS)


def play_point(task: tuple) -> tuple[str, int, list[tuple[bool, int]]]:
    """Play every seed of one (speed, median reaction) point: (won, duration) per game."""
    speed, reaction, seeds, model = task
    games = []
    for seed in seeds:
        game = play(Game(seed, speed=speed), person(model, reaction, seed * 7919 + reaction))
        games.append((game.outcome.won, game.outcome.duration_ms))
    return speed, reaction, games


def measure(speeds, reactions, seeds: int, workers: int, model: str = "lognormal") -> dict:
    """{(speed, reaction): (win share, median minutes)}, the work spread over ``workers``;
    ``reactions`` is a list, or a dict of a list per speed."""
    chunk = max(1, seeds // 4)
    tasks = [
        (speed, reaction, range(start, min(seeds, start + chunk)), model)
        for speed in speeds
        for reaction in (reactions[speed] if isinstance(reactions, dict) else reactions)
        for start in range(0, seeds, chunk)
    ]
    games: dict[tuple[str, int], list] = {}
    with Pool(workers) as pool:
        for speed, reaction, results in pool.imap_unordered(play_point, tasks):
            games.setdefault((speed, reaction), []).extend(results)
    return {
        key: (
            sum(won for won, _ in results) / len(results),
            statistics.median(duration for _, duration in results) / 60000,
        )
        for key, results in games.items()
    }


def half_point(curve: list[tuple[int, float]]) -> float | None:
    """Where the win share crosses 50%, by linear interpolation (None if it never does)."""
    for (r1, w1), (r2, w2) in itertools.pairwise(curve):
        if w1 >= 0.5 >= w2 and w1 != w2:
            return r1 + (w1 - 0.5) * (r2 - r1) / (w1 - w2)
    return None


def chart(results: dict, speeds, reactions, seeds: int) -> str:
    """An SVG line chart of the win share against the median reaction, one line a speed."""
    width, height, left, right, top, bottom = 720, 420, 64, 150, 40, 56
    plot_w, plot_h = width - left - right, height - top - bottom
    low, high = reactions[0], reactions[-1]

    def x(reaction: float) -> float:
        return left + (reaction - low) / (high - low) * plot_w

    def y(share: float) -> float:
        return top + (1 - share) * plot_h

    parts = [
        (
            f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
            'font-family="sans-serif" font-size="13">'
        ),
        f'<rect width="{width}" height="{height}" fill="#ffffff"/>',
        (
            f'<text x="{left}" y="24" font-size="15" font-weight="bold">Human-like player '
            f"against the computer players (engine {__version__}, {seeds} deals a point)</text>"
        ),
    ]
    for share in (0, 0.25, 0.5, 0.75, 1):
        dash = ' stroke-dasharray="4 4"' if share == 0.5 else ""
        parts.append(
            f'<line x1="{left}" y1="{y(share):.1f}" x2="{left + plot_w}" '
            f'y2="{y(share):.1f}" stroke="#bbbbbb"{dash}/>'
        )
        parts.append(
            f'<text x="{left - 8}" y="{y(share) + 4:.1f}" text-anchor="end">{share:.0%}</text>'
        )
    for reaction in range(low, high + 1, 100):
        parts.append(
            f'<line x1="{x(reaction):.1f}" y1="{top + plot_h}" x2="{x(reaction):.1f}" '
            f'y2="{top + plot_h + 5}" stroke="#333333"/>'
        )
        parts.append(
            f'<text x="{x(reaction):.1f}" y="{top + plot_h + 20}" '
            f'text-anchor="middle">{reaction}</text>'
        )
    parts.append(
        f'<line x1="{left}" y1="{top + plot_h}" x2="{left + plot_w}" y2="{top + plot_h}" '
        f'stroke="#333333"/>'
    )
    parts.append(
        f'<text x="{left + plot_w / 2}" y="{height - 12}" text-anchor="middle">'
        "the player's median reaction (ms from the card to a slap that registers)</text>"
    )
    parts.append(
        f'<text x="16" y="{top + plot_h / 2}" text-anchor="middle" '
        f'transform="rotate(-90 16 {top + plot_h / 2})">games won</text>'
    )
    for row, speed in enumerate(speeds):
        colour = COLOURS[speed]
        points = " ".join(f"{x(r):.1f},{y(results[speed, r][0]):.1f}" for r in reactions)
        parts.append(
            f'<polyline points="{points}" fill="none" stroke="{colour}" stroke-width="2.5"/>'
        )
        target = TARGETS[speed]
        parts.append(
            f'<circle cx="{x(target):.1f}" cy="{y(0.5):.1f}" r="4" fill="none" '
            f'stroke="{colour}" stroke-width="2"/>'
        )
        legend_y = top + 20 + row * 22
        parts.append(
            f'<line x1="{left + plot_w + 16}" y1="{legend_y - 4}" '
            f'x2="{left + plot_w + 40}" y2="{legend_y - 4}" stroke="{colour}" '
            f'stroke-width="2.5"/>'
        )
        parts.append(f'<text x="{left + plot_w + 46}" y="{legend_y}">{speed}</text>')
    note_y = top + 20 + len(speeds) * 22 + 10
    parts.append(
        f'<text x="{left + plot_w + 16}" y="{note_y}" font-size="11">circles: the 50%</text>'
    )
    parts.append(
        f'<text x="{left + plot_w + 16}" y="{note_y + 14}" font-size="11">points aimed at</text>'
    )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=1000, help="deals a point")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--speeds", nargs="+", default=list(cpu.SPEEDS), choices=cpu.SPEEDS)
    parser.add_argument("--reactions", nargs="+", type=int, default=list(REACTIONS))
    parser.add_argument("--model", default="lognormal", choices=sorted(MODELS))
    parser.add_argument(
        "--chart",
        default=str(ROOT / "docs" / "cpu_speeds.svg"),
        help="where to write the SVG chart ('' for none)",
    )
    args = parser.parse_args()
    os.nice(10)  # a shared machine: the simulations yield to interactive work
    started = time.perf_counter()
    results = measure(args.speeds, args.reactions, args.seeds, args.workers, args.model)
    seconds = time.perf_counter() - started
    print(
        f"engine {__version__}: {args.model} player (taps committed in their last {COMMIT_MS} ms) "
        f"against each CPU speed, {args.seeds} deals a "
        f"point ({seconds:.0f} s on {args.workers} workers)"
    )
    print(
        "| median reaction | " + " | ".join(f"{s}: wins, median game" for s in args.speeds) + " |"
    )
    print("|---|" + "---|" * len(args.speeds))
    for reaction in args.reactions:
        cells = [
            f"{results[s, reaction][0]:6.1%}, {results[s, reaction][1]:4.1f} min"
            for s in args.speeds
        ]
        print(f"| {reaction} ms | " + " | ".join(cells) + " |")
    for speed in args.speeds:
        curve = [(r, results[speed, r][0]) for r in args.reactions]
        point = half_point(curve)
        where = "never crossed" if point is None else f"{point:.0f} ms"
        print(
            f"{speed}: 50% point {where} (aim {TARGETS[speed]} +- 50 ms); "
            f"a computer player's typical slap {cpu.TYPICAL_SLAP_MS[speed]} ms"
        )
    if args.chart and len(args.reactions) > 1:
        Path(args.chart).write_text(chart(results, args.speeds, args.reactions, args.seeds))
        print(f"chart: {args.chart}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
