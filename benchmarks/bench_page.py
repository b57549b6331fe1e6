#!/usr/bin/env python3
"""The game page in real Chromium: paint, time to interactive, bytes, input latency and long tasks.

    python benchmarks/bench_page.py [--runs 3] [--inputs 240] [--throttle 40,20,10,5] [--json FILE]
    python benchmarks/bench_page.py --only-first-visit [--first-visit-runs 3] [--chart docs/first-visit.svg]

Builds dist/ (build.py), serves a copy of it with tools/devserver.mjs (the same server the tests use) next to
a bare page that only calls loadPyodide(), and drives Debian's Chromium through Playwright:

- first visits as a player's browser makes them (issue 15): a fresh profile, service workers allowed, through
  tools/builder/cdn.py's stand-in for the CDN (brotli for text and wasm; it counts the bytes it sends): cold and
  repeat TTI of our page (its own choice of path), each path forced, and a bare loadPyodide() page over
  Pyodide's own files, unthrottled and on a phone link (10 Mbit/s, 40 ms RTT, CPU 4x slower); the bytes of the
  page and of the worker's precache after it, by file, against the 5 MB budget; --chart draws them (SVG);
- first contentful paint, and time to interactive: navigation -> document.body.dataset.state === "ready"
  (the bare page sets "ready" when loadPyodide() resolves), cold (a fresh browser profile) and warm (a second
  visit with the same profile, from its disk cache; service workers blocked so that the HTTP cache is measured),
  for the snapshot path (?load=snapshot), the micropip path (?load=micropip), the default policy (no parameter)
  and the bare page; the ratio of our micropip path to the bare page;
- a repeat visit served by the service worker (allowed there), once it has precached the build;
- bytes transferred on a cold load (resource timing's transferSize; the dev server does not compress, so the
  gzip column says what a CDN compressing with gzip -6 would send);
- with --throttle MBPS,...: cold loads of both paths under DevTools network throttling (40 ms RTT), the numbers
  behind the loader's choice of path on a first visit;
- input latency: keydown / pointerdown -> the pile or your pack updated on screen (the engine's answer drawn in
  the next animation frame, stamped once that frame has been rendered), p50/p95 over --inputs inputs that
  changed the pile or your pack, half keyboard (Enter, Space) and half pointer (pack, pile); split into the
  wait for the next frame to start (vsync: at 60 Hz alone ~U(0, 16.7) ms, so its p95 is ~15.9 ms whatever
  the page does) and that frame's own work (script, style, layout, paint: the part the page controls);
- long tasks (PerformanceObserver "longtask", over 50 ms) during that play: count and longest.

Numbers are printed (and written as JSON with --json); nothing here asserts them.

This file is the command line; the measuring is in benchmarks/page/ (a module a concern: serve, visits,
first_visit, load_paths, latency, report, chart) and the JavaScript the page runs for it in benchmarks/page/js/.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from page.chart import first_visit_chart
from page.report import report
from page.runner import run


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--runs", type=int, default=3, help="cold+warm loads per page (median reported)"
    )
    parser.add_argument(
        "--inputs", type=int, default=240, help="inputs for the latency figures (0: skip)"
    )
    parser.add_argument(
        "--play-seconds", type=float, default=180, help="upper bound on the play phase"
    )
    parser.add_argument(
        "--throttle", default="", help="comma-separated Mbps for throttled cold loads"
    )
    parser.add_argument(
        "--baseline",
        type=Path,
        help="another build's dist/ (e.g. main's), loaded and played in turn with this one",
    )
    parser.add_argument(
        "--first-visit-runs",
        type=int,
        default=3,
        help="first visits per page through the CDN stand-in, unthrottled and on the phone link (0: skip)",
    )
    parser.add_argument(
        "--only-first-visit", action="store_true", help="measure the first visits only"
    )
    parser.add_argument("--chart", type=Path, help="write an SVG chart of the first visits here")
    parser.add_argument("--json", type=Path, help="also write the results here")
    options = parser.parse_args()
    options.throttle = [float(x) for x in options.throttle.split(",") if x.strip()]
    load_before = " ".join(f"{x:.1f}" for x in os.getloadavg())
    results = run(options)
    results["load_before"] = load_before
    results["load_after"] = " ".join(f"{x:.1f}" for x in os.getloadavg())
    print(report(results))
    if options.json:
        options.json.write_text(json.dumps(results, indent=1))
    if options.chart and results.get("first_visit"):
        options.chart.write_text(first_visit_chart(results["first_visit"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
