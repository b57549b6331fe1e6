"""A whole process, start to answer: `python -m ewar bmn A B` beside the string-based reference simulator
(benchmarks/bmn_reference.py A B) on the same deals, and a bare `python -c pass` for the interpreter's own
start. The runs alternate (and the order turns each round), so a busy machine slows all alike; the ratios are
the figures to read: of wall time (the whole process, as a user waits for it) and of CPU time (user + system,
the child's own: what the load average moves least).

    python benchmarks/cli_startup.py [--runs 40] [--before DIR]

--before DIR adds a column for another checkout's engine (DIR holds its ewar/), e.g. one of an older commit:
    git archive HEAD~3 ewar | tar -x -C /tmp/before && python benchmarks/cli_startup.py --before /tmp/before
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEALS = json.loads((ROOT / "tools" / "harness" / "bmn_published.json").read_text())


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


def cpu_seconds() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def timed_run(command: list[str], folder: Path, env: dict | None = None) -> tuple[float, float]:
    """(wall ms, CPU ms) of one whole process."""
    cpu = cpu_seconds()
    start = time.perf_counter()
    subprocess.run(command, cwd=folder, check=True, capture_output=True, env=env)
    return (time.perf_counter() - start) * 1000, (cpu_seconds() - cpu) * 1000


def writing_bytecode() -> dict:
    """This environment, but with Python allowed to write .pyc files: as after an install, the engine's
    modules then load compiled (with PYTHONDONTWRITEBYTECODE set, every run would compile them again)."""
    return {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}


def measure(deal: dict, runs: int, before: Path | None) -> dict[str, tuple[float, float]]:
    """name -> (median wall ms, median CPU ms)."""
    timed = list(commands(deal, before).items())
    samples: dict[str, list[tuple[float, float]]] = {name: [] for name, _ in timed}
    for _, (command, folder) in timed:
        timed_run(command, folder, writing_bytecode())  # warm the file cache and the .pyc files
    for round_ in range(runs):
        turn = round_ % len(timed)
        for name, (command, folder) in timed[turn:] + timed[:turn]:
            samples[name].append(timed_run(command, folder))
    return {
        name: (
            statistics.median(wall for wall, _ in values),
            statistics.median(cpu for _, cpu in values),
        )
        for name, values in samples.items()
    }


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
    load = " ".join(f"{value:.2f}" for value in os.getloadavg())
    print(
        f"median of a whole process, {runs} alternating runs each, wall ms / CPU ms"
        f" (load average {load}, {os.cpu_count()} cores)"
    )
    extra = f" {'before':>13} {'before/ref wall':>16} {'before/ref CPU':>15}" if before else ""
    print(
        f"{'deal':<30} {'cards':>6} {'python -c pass':>15} {'reference':>13} {'ewar bmn':>13}"
        f" {'ewar/ref wall':>14} {'ewar/ref CPU':>13}{extra}"
    )
    for deal in (shortest, longest):
        got = measure(deal, runs, before)
        ewar, reference = got["ewar bmn"], got["reference"]
        row = (
            f"{deal['name'][:30]:<30} {deal['cards']:>6} {pair(got['python -c pass']):>15} "
            f"{pair(reference):>13} {pair(ewar):>13} {ewar[0] / reference[0]:>14.2f}"
            f" {ewar[1] / reference[1]:>13.2f}"
        )
        if before:
            row += (
                f" {pair(got['before']):>13} {got['before'][0] / reference[0]:>16.2f}"
                f" {got['before'][1] / reference[1]:>15.2f}"
            )
        print(row)
    load = " ".join(f"{value:.2f}" for value in os.getloadavg())
    print(f"load average after: {load}")


def pair(times: tuple[float, float]) -> str:
    return f"{times[0]:.1f}/{times[1]:.1f}"


if __name__ == "__main__":
    main()
