#!/usr/bin/env python3
"""Repeat visits of two builds, side by side in one run (issue 21: visits 2+ from the snapshot, aim 0.6 s).

    python benchmarks/repeat_visits.py --before DIR [--visits 10]

DIR is another build's dist/ (an earlier commit's, say: `git worktree add ../before REF`, link its node_modules
to this checkout's and run `python build.py` there). This checkout's dist/ is built now. Each build gets a fresh
browser profile with its service worker, a first visit, and the wait until the worker keeps the snapshot; then the
two take turns, one repeat visit each (Chromium's defaults, as a player's browser), so that the machine's load
falls on both alike. Prints the median of each of the page's marks (ms from navigation), time to ready, and the
ratio of the medians.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
from pathlib import Path

from common import load_build_module
from page.serve import served_site
from page.visits import fresh_profile, load
from playwright.sync_api import sync_playwright

# The page's marks on a snapshot visit, in order (web/js/engine/loader.js, web/js/app/main.js).
MARKS = (
    "load-start",
    "load-path-chosen",
    "pyodide-imported",
    "snapshot-read",
    "restored",
    "app-ready",
)
KEPT_TIMEOUT_MS = 60_000

# Whether the next visit has a snapshot here: the one the page made on the device (issue 34), or the build's kept by
# the worker (an older build fetched it for the next visit).
NEXT_VISIT_SNAPSHOT = """
async () => Boolean(
  (await caches.match(new URL("device-snapshot.bin", document.baseURI).href, { cacheName: "ewar.device-snapshot" }))
  || (navigator.serviceWorker.controller && (await window.ewarOffline.status()).notYetUsed?.length === 0)
)
"""


def first_visit(context, url: str) -> None:
    """Visit 1 (no snapshot yet), then the stay until the next visit has one."""
    page = context.new_page()
    load(page, url)
    waited = 0
    while not page.evaluate(NEXT_VISIT_SNAPSHOT):
        if waited > KEPT_TIMEOUT_MS:
            raise SystemExit(f"{url}: the worker did not keep the snapshot")
        page.wait_for_timeout(250)
        waited += 250
    page.close()


def stop_workers(context, page) -> None:
    """Stops every service worker of the profile (DevTools' ServiceWorker domain), as the browser does a while
    after a visit: the next navigation then waits for the worker to start, unless a static route serves it."""
    session = context.new_cdp_session(page)
    session.send("ServiceWorker.enable")
    session.send("ServiceWorker.stopAllWorkers")
    session.detach()


def median_marks(visits: list[dict]) -> dict[str, float]:
    medians = {"ready": statistics.median(visit["ready"] for visit in visits)}
    for mark in MARKS:
        seen = [visit["marks"][mark] for visit in visits if visit["marks"].get(mark) is not None]
        if seen:
            medians[mark] = statistics.median(seen)
    return medians


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, required=True, help="the other build's dist/ folder")
    parser.add_argument("--visits", type=int, default=10, help="repeat visits of each build")
    parser.add_argument(
        "--worker-stopped",
        action="store_true",
        help="stop the service workers before each visit, as a player coming back later finds them",
    )
    args = parser.parse_args()
    if not (args.before / "build-info.json").is_file():
        raise SystemExit(f"{args.before} holds no build-info.json: not a build's dist/")
    builder = load_build_module()
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    builds = {"before": args.before, "now": None}
    with sync_playwright() as playwright, contextlib.ExitStack() as stack:
        urls = {
            name: stack.enter_context(served_site(builder, dist))[0]
            for name, dist in builds.items()
        }
        contexts = {
            name: stack.enter_context(fresh_profile(playwright.chromium, service_workers="allow"))
            for name in builds
        }
        for name in builds:
            first_visit(contexts[name], urls[name])
        seen: dict[str, list[dict]] = {name: [] for name in builds}
        for turn in range(args.visits):
            for name in builds if turn % 2 == 0 else list(builds)[::-1]:
                page = contexts[name].new_page()
                if args.worker_stopped:
                    stop_workers(contexts[name], page)
                facts = load(page, urls[name])
                if facts.get("path") not in (None, "snapshot"):
                    raise SystemExit(
                        f"{name}: a repeat visit took {facts.get('path')}, not the snapshot"
                    )
                seen[name].append(facts)
                page.wait_for_timeout(1500)  # a visit of a moment: what it starts after ready runs
                page.close()
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    medians = {name: median_marks(visits) for name, visits in seen.items()}
    stopped = ", the service worker stopped before each" if args.worker_stopped else ""
    print(f"\n{args.visits} repeat visits each{stopped}, median ms from navigation")
    print(f"{'mark':<18}{'before':>9}{'now':>9}")
    for mark in (*MARKS, "ready"):
        row = [medians[name].get(mark) for name in builds]
        print(
            f"{mark:<18}"
            + "".join(f"{value:9.0f}" if value is not None else f"{'-':>9}" for value in row)
        )
    print(
        "ready, each visit:  before "
        + " ".join(f"{visit['ready']:.0f}" for visit in seen["before"])
        + "\n                    now    "
        + " ".join(f"{visit['ready']:.0f}" for visit in seen["now"])
    )
    print(
        f"now / before (median ready): {medians['now']['ready'] / medians['before']['ready']:.2f}"
    )


if __name__ == "__main__":
    main()
