"""Runs the browser tests (tests/web) several times in a row on one build and prints, per test, how many runs
it passed: a test that fails by chance shows as 9/10, not as one red run among green ones.

    python benchmarks/web_repeats.py                 # 10 runs of tests/web on two workers
    python benchmarks/web_repeats.py --runs 3 -- -k watch

From a fresh clone too: the test requirements are installed first (as `python build.py test` installs them), then
the build (`python build.py build`) and the test tools' npm packages; each run is the suite's own pytest invocation for tests/web (its pytest-xdist
workers by file, EWAR_TEST_WORKERS as the suite reads it), its outcomes read from a JUnit XML report. Prints each
run's failures as they come, then every test's pass count (the ones that failed at least once first) and the slowest
tests' median times. Exits 1 if any test failed once.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ElementTree
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tools.builder.steps import ensure_dev_tools  # noqa: E402 (after the path insert)
from tools.builder.suite import (  # noqa: E402 (after the path insert)
    chromium_for_tests,
    install_test_requirements,
    parallel_arguments,
)


def outcomes(report: Path) -> tuple[dict[str, str], dict[str, str], dict[str, float]]:
    """({test id: "passed" | "failed" | "skipped"}, {failed test id: its failure's last lines}, {test id: seconds})
    from a JUnit XML report."""
    found, why, took = {}, {}, {}
    for case in ElementTree.parse(report).iter("testcase"):
        name = f"{case.get('classname', '')}::{case.get('name', '')}"
        took[name] = float(case.get("time") or 0)
        failures = [child for child in case if child.tag in ("failure", "error")]
        kinds = {child.tag for child in case}
        found[name] = "failed" if failures else "skipped" if "skipped" in kinds else "passed"
        if failures:
            text = "\n".join(
                (child.get("message") or "") + "\n" + (child.text or "") for child in failures
            )
            why[name] = "\n".join(line for line in text.splitlines() if line.strip())[
                -FAILURE_TAIL:
            ]
    return found, why, took


FAILURE_TAIL = 1500  # characters of a failure's report printed: where it failed and why
SLOWEST = 15  # the tests printed with their median time: where the suite's minutes go


def run_once(pytest_args: list[str], report: Path, env: dict[str, str]) -> tuple[int, float]:
    started = time.monotonic()
    command = [sys.executable, "-m", "pytest", "tests/web", "-q", "-p", "no:cacheprovider"]
    command += [*parallel_arguments(pytest_args), f"--junitxml={report}", *pytest_args]
    code = subprocess.run(
        command, cwd=ROOT, check=False, env=env, stdout=subprocess.DEVNULL
    ).returncode
    return code, time.monotonic() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("pytest_args", nargs="*", help="after --: passed to pytest")
    options = parser.parse_args(argv)
    install_test_requirements(ROOT)
    env = {**os.environ, "EWAR_CHROMIUM": chromium_for_tests()}
    subprocess.run([sys.executable, "build.py", "build"], cwd=ROOT, check=True)
    # The test tools' npm packages (axe-core for the accessibility tests), as the suite adds them.
    ensure_dev_tools(ROOT)
    passes: dict[str, int] = defaultdict(int)
    seen: dict[str, int] = defaultdict(int)
    times: dict[str, list[float]] = defaultdict(list)
    with tempfile.TemporaryDirectory(prefix="ewar-web-repeats-") as folder:
        for number in range(1, options.runs + 1):
            report = Path(folder) / f"run{number}.xml"
            code, seconds = run_once(options.pytest_args, report, env)
            if not report.is_file():
                print(f"run {number}: pytest exited {code} without a report", flush=True)
                return 1
            found, why, took = outcomes(report)
            for name, seconds_taken in took.items():
                times[name].append(seconds_taken)
            failed = sorted(name for name, outcome in found.items() if outcome == "failed")
            for name, outcome in found.items():
                seen[name] += 1
                passes[name] += outcome == "passed"
            print(
                f"run {number}: {len(found)} tests, {len(failed)} failed, {seconds:.0f} s",
                flush=True,
            )
            for name in failed:
                print(f"  failed: {name}", flush=True)
                print("    " + why[name].replace("\n", "\n    "), flush=True)
    print(f"\npasses per test over {options.runs} runs (those that failed once first):")
    for name in sorted(seen, key=lambda name: (passes[name] == seen[name], name)):
        print(f"  {passes[name]:>3}/{seen[name]:<3} {name}")
    print(f"\nthe {SLOWEST} slowest tests, median seconds over the runs:")
    medians = {name: statistics.median(values) for name, values in times.items()}
    for name in sorted(medians, key=medians.get, reverse=True)[:SLOWEST]:
        print(f"  {medians[name]:6.1f} s  {name}")
    total_failures = sum(seen[name] - passes[name] for name in seen)
    print(f"{len(seen)} tests, {total_failures} failures in {options.runs} runs")
    return 1 if total_failures else 0


if __name__ == "__main__":
    sys.exit(main())
