#!/usr/bin/env python3
"""Two builds of the page side by side in one run, taking turns: cold visits and repeat visits.

    python benchmarks/load_ab.py OTHER_DIST [--runs 4]

A is another build's dist/ (say main's, copied aside), B this checkout's dist/ (built now). Both are served at
once, each through tools/builder/cdn.py's CDN stand-in. Cold: --runs visits each on fresh profiles, taking
turns (one uncounted visit each first). Repeat: one profile per build, its first visit waited on until the page
has made the device's snapshot, then --runs + 2 visits each from it, taking turns. Prints each run's time to
interactive and the median of each of the page's marks, A and B and B/A: on this shared machine a ratio of two
builds measured in the same minutes says more than either time.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import statistics
import sys
from pathlib import Path

from common import load_build_module
from page.serve import served_site
from page.visits import fresh_profile, load

MADE = 'performance.getEntriesByName("ewar:device-snapshot-made").length > 0'
MAKER_TIMEOUT_MS = 180_000
MARKS = (
    "load-start",
    "load-path-chosen",
    "snapshot-read",
    "restored",
    "runtime-done",
    "micropip-done",
    "engine-done",
    "warm-up (ms)",
)


def taking_turns(run: int) -> str:
    return "AB" if run % 2 == 0 else "BA"


def cold_visits(playwright, urls: dict[str, str], runs: int) -> dict[str, list[dict]]:
    rows: dict[str, list[dict]] = {"A": [], "B": []}
    for name in "AB":  # not counted: the server's, the disk's and Chromium's first loads
        with fresh_profile(playwright.chromium, service_workers="allow") as context:
            load(context.new_page(), urls[name])
    for run in range(runs):
        for name in taking_turns(run):
            with fresh_profile(playwright.chromium, service_workers="allow") as context:
                rows[name].append(load(context.new_page(), urls[name]))
    return rows


def repeat_visits(playwright, urls: dict[str, str], runs: int) -> dict[str, list[dict]]:
    rows: dict[str, list[dict]] = {"A": [], "B": []}
    with contextlib.ExitStack() as stack:
        contexts = {}
        for name in "AB":
            contexts[name] = stack.enter_context(
                fresh_profile(playwright.chromium, service_workers="allow")
            )
            page = contexts[name].new_page()
            load(page, urls[name])
            page.wait_for_function(MADE, timeout=MAKER_TIMEOUT_MS, polling=100)
            page.close()
        for run in range(runs):
            for name in taking_turns(run):
                page = contexts[name].new_page()
                facts = load(page, urls[name])
                page.close()
                if facts["path"] != "snapshot":
                    raise RuntimeError(f"{name}'s repeat visit loaded with {facts['path']}")
                rows[name].append(facts)
    return rows


def median_of(rows: list[dict], key: str) -> float:
    values = [row["ready"] if key == "ready" else row["marks"].get(key) for row in rows]
    values = [value for value in values if value is not None]
    return statistics.median(values) if values else float("nan")


def print_side_by_side(title: str, rows: dict[str, list[dict]]) -> None:
    print(f"\n{title} (ms from navigation)")
    for name in "AB":
        print(f"  TTI {name}: {', '.join(str(round(row['ready'])) for row in rows[name])}")
    print(f"  {'median':<18}{'A':>8}{'B':>8}{'B/A':>8}")
    for key in ("ready", *MARKS):
        a, b = median_of(rows["A"], key), median_of(rows["B"], key)
        if a != a and b != b:  # neither build set this mark on this path
            continue
        ratio = b / a if a else float("nan")
        print(f"  {key:<18}{a:8.0f}{b:8.0f}{ratio:8.2f}")


def main() -> int:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("other_dist", type=Path, help="A: another build's dist/ folder")
    options.add_argument("--runs", type=int, default=4)
    args = options.parse_args()
    if not (args.other_dist / "build-info.json").is_file():
        print(f"{args.other_dist} holds no build-info.json: not a built dist/", file=sys.stderr)
        return 2
    from playwright.sync_api import sync_playwright

    print(f"load average before: {' '.join(f'{v:.2f}' for v in os.getloadavg())}")
    builder = load_build_module()
    cdn_module = importlib.import_module(f"{builder.__name__}.cdn")
    this_dist = builder.build(log=lambda _line: None).dist
    with sync_playwright() as playwright, contextlib.ExitStack() as stack:
        urls = {}
        for name, dist in (("A", args.other_dist.resolve()), ("B", this_dist)):
            url, _site = stack.enter_context(served_site(builder, dist=dist))
            urls[name] = stack.enter_context(cdn_module.CdnProxy(url)).url
        cold = cold_visits(playwright, urls, args.runs)
        repeat = repeat_visits(playwright, urls, args.runs + 2)
    print(f"A = {args.other_dist}, B = {this_dist}")
    print_side_by_side("Cold visits, fresh profiles, taking turns", cold)
    print_side_by_side("Repeat visits from the device's snapshot, taking turns", repeat)
    print(f"\nload average after: {' '.join(f'{v:.2f}' for v in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
