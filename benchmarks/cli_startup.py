"""A whole process, start to answer: `python -m ewar bmn A B` beside the string-based reference simulator
(benchmarks/bmn_reference.py A B) on the same deals, and a bare `python -c pass` for the interpreter's own
start. The runs alternate, so a busy machine slows both alike; the ratio is the figure to read.

    python benchmarks/cli_startup.py [--runs 40] [--before DIR]

--before DIR adds a column for another checkout's engine (DIR holds its ewar/), e.g. one of an older commit:
    git archive HEAD~3 ewar | tar -x -C /tmp/before && python benchmarks/cli_startup.py --before /tmp/before
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEALS = json.loads((ROOT / "harness" / "bmn_published.json").read_text())


def commands(deal: dict, before: Path | None) -> dict[str, tuple[list[str], Path]]:
    """name -> (command, the folder it runs in: `-m ewar` finds the engine there)."""
    bmn = [sys.executable, "-m", "ewar", "bmn", deal["a"], deal["b"]]
    timed = {
        "python -c pass": ([sys.executable, "-c", "pass"], ROOT),
        "reference": (
            [sys.executable, str(ROOT / "benchmarks" / "bmn_reference.py"), deal["a"], deal["b"]],
            ROOT,
        ),
        "ewar bmn": (bmn, ROOT),
    }
    if before:
        timed["before"] = (bmn, before)
    return timed


def wall_ms(command: list[str], folder: Path) -> float:
    start = time.perf_counter()
    subprocess.run(command, cwd=folder, check=True, capture_output=True)
    return (time.perf_counter() - start) * 1000


def measure(deal: dict, runs: int, before: Path | None) -> dict[str, float]:
    timed = commands(deal, before)
    samples: dict[str, list[float]] = {name: [] for name in timed}
    for command, folder in timed.values():
        wall_ms(command, folder)  # warm the file cache and the .pyc files
    for _ in range(runs):
        for name, (command, folder) in timed.items():
            samples[name].append(wall_ms(command, folder))
    return {name: statistics.median(values) for name, values in samples.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=40)
    parser.add_argument(
        "--before", type=Path, help="another checkout's root, with its ewar/ (a column of its own)"
    )
    options = parser.parse_args()
    runs, before = options.runs, options.before
    shortest = min(DEALS, key=lambda deal: deal["cards"])
    longest = max(DEALS, key=lambda deal: deal["cards"])
    print(f"median wall time of a whole process, {runs} alternating runs each (ms)")
    extra = f" {'before':>8} {'before/ref':>10}" if before else ""
    print(
        f"{'deal':<30} {'cards':>6} {'python -c pass':>15} {'reference':>10} {'ewar bmn':>9} {'ewar/ref':>9}{extra}"
    )
    for deal in (shortest, longest):
        got = measure(deal, runs, before)
        row = (
            f"{deal['name'][:30]:<30} {deal['cards']:>6} {got['python -c pass']:>15.1f} "
            f"{got['reference']:>10.1f} {got['ewar bmn']:>9.1f} {got['ewar bmn'] / got['reference']:>9.2f}"
        )
        if before:
            row += f" {got['before']:>8.1f} {got['before'] / got['reference']:>10.2f}"
        print(row)


if __name__ == "__main__":
    main()
