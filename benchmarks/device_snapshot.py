#!/usr/bin/env python3
"""The snapshot without the download (issue 34), side by side in one run: a first visit's bytes and every later
visit's start from the snapshot the device made itself, against a bare loadPyodide() page.

    python benchmarks/device_snapshot.py [--visits 4] [--bare-runs 3] [--no-phone]

Everything goes through tools/builder/cdn.py's CDN stand-in (brotli as an edge sends it; every byte counted,
headers included), each profile fresh with service workers allowed, as a player's browser:

- Visits 1..N of one profile, with Chromium's navigator.connection and with it removed (Safari, Firefox). Visit 1:
  the bytes until ready, the worker's precache after it, and what is fetched until the page has made the next
  visit's snapshot (web/js/engine/device-snapshot.js), by file and in total; the maker's own figures (time, the
  snapshot's size, the renderer processes' memory at their peak above what they held before). Each later visit:
  time to interactive, path and the snapshot's origin ("device": made by this browser).
- A bare loadPyodide() page over Pyodide's own files and ours, --bare-runs fresh profiles each, taking turns: the
  cold ratio is the median of ours (these and both profiles' visit 1) over the bare page's; the repeat median is
  that of visits 2..N of both profiles.
- The phone (unless --no-phone): one more profile with DevTools' CPU throttling 4x and a 10 Mbit/s, 40 ms link:
  visit 1, the maker's time and memory under it, and visit 2.
"""

from __future__ import annotations

import argparse
import importlib
import os
import statistics
import sys
import threading
from pathlib import Path

from common import ROOT, load_build_module
from page.first_visit import PHONE, by_file, emulate
from page.serve import served_site, stock_bare_page
from page.visits import fresh_profile, load, wait_for_precache

BUDGET = 5_000_000
NO_CONNECTION = "delete Navigator.prototype.connection;"
MADE = """
() => performance.getEntriesByName("ewar:device-snapshot-made")[0]?.detail
  ?? performance.getEntriesByName("ewar:device-snapshot-failed")[0]?.detail
  ?? (performance.getEntriesByName("ewar:device-snapshot-not-made")[0]?.detail ?? null)
"""
MAKER_TIMEOUT_MS = 180_000


def load_average() -> str:
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


def descendants(root: int) -> list[int]:
    """Every process under `root` (this benchmark: Playwright's driver, Chromium and its children)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(entry.name))
    found, todo = [], [root]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def renderers_rss() -> int:
    """Bytes resident in this run's Chromium renderer processes (the page and its workers live there)."""
    total = 0
    for pid in descendants(os.getpid()):
        try:
            if b"--type=renderer" not in Path(f"/proc/{pid}/cmdline").read_bytes():
                continue
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1]) * 1024
        except OSError:
            continue
    return total


class PeakMemory:
    """Samples renderers_rss() every 50 ms in a thread: the peak above the first sample."""

    def __enter__(self) -> PeakMemory:
        self.start = renderers_rss()
        self.peak = self.start
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()
        return self

    def _sample(self) -> None:
        while not self._stop.wait(0.05):
            self.peak = max(self.peak, renderers_rss())

    def __exit__(self, *_exc: object) -> None:
        self._stop.set()
        self._thread.join()

    @property
    def above(self) -> int:
        return self.peak - self.start


def first_visit(context, cdn, url: str, link: dict | None) -> dict:
    """Visit 1: ready, the precache, then the snapshot's making; the CDN's bytes of each stretch."""
    cdn.take_ledger()
    page = context.new_page()
    emulate(page, link)
    facts = load(page, url)
    page_ledger = cdn.take_ledger()
    wait_for_precache(page, poll_ms=200)
    precache_ledger = cdn.take_ledger()
    with PeakMemory() as memory:
        page.wait_for_function(MADE, timeout=MAKER_TIMEOUT_MS, polling=100)
    maker = page.evaluate(MADE)
    next_ledger = cdn.take_ledger()
    page.close()
    return {
        **facts,
        "maker": maker,
        "maker_memory": memory.above,
        "ledgers": {"page": page_ledger, "precache": precache_ledger, "next visit": next_ledger},
    }


def later_visit(context, cdn, url: str, link: dict | None) -> dict:
    page = context.new_page()
    emulate(page, link)
    facts = load(page, url)
    facts["sent"] = sum(sent for *_, sent in cdn.take_ledger())
    page.close()
    return facts


def profile_visits(playwright, cdn, count: int, without_connection: bool, link=None) -> list[dict]:
    with fresh_profile(playwright.chromium, service_workers="allow") as context:
        if without_connection:
            context.add_init_script(NO_CONNECTION)
        rows = [first_visit(context, cdn, cdn.url, link)]
        rows += [later_visit(context, cdn, cdn.url, link) for _ in range(count - 1)]
    return rows


def cold_visits(playwright, cdn, runs: int) -> tuple[list[float], list[float], list[dict]]:
    """Cold TTI of the bare page and of ours, each on fresh profiles, taking turns: (bare, ours, our marks)."""
    bare, ours, marks = [], [], []
    for _ in range(runs):
        for times, suffix, workers in ((bare, "bare/", "block"), (ours, "", "allow")):
            with fresh_profile(playwright.chromium, service_workers=workers) as context:
                facts = load(context.new_page(), cdn.url + suffix)
            times.append(facts["ready"])
            if suffix == "":
                marks.append(facts["marks"])
            cdn.take_ledger()
    return bare, ours, marks


# The cold visit's steps, in order (the page's marks: web/js/engine/loader.js, progress.js, the app's).
COLD_STEPS = (
    "load-start",
    "plain-runtime-start",
    "load-path-chosen",
    "plain-runtime-ready",
    "runtime-done",
    "micropip-done",
    "engine-done",
    "app-ready",
)


def print_cold_marks(marks: list[dict]) -> None:
    """Where a cold visit's time goes: the median of each mark (ms from navigation) and the step before it."""
    print(
        "\nOur cold visits, where the time goes (median ms from navigation; + the step from the mark before):"
    )
    previous = 0.0
    for name in COLD_STEPS:
        values = [mark[name] for mark in marks if mark.get(name) is not None]
        if not values:
            continue
        at = statistics.median(values)
        print(f"  {name:<22}{at:8.0f}{at - previous:+8.0f}")
        previous = at


def device_against_kept(playwright, cdn, runs: int) -> dict[str, list[dict]]:
    """Repeat visits of one profile taking turns: from the device's snapshot (the loader's own choice) and from
    the build's snapshot as the worker kept it before issue 34 (?load=snapshot, fetched once first)."""
    rows: dict[str, list[dict]] = {"device's snapshot": [], "build's, kept by the worker": []}
    with fresh_profile(playwright.chromium, service_workers="allow") as context:
        page = context.new_page()
        load(page, cdn.url)
        page.wait_for_function(MADE, timeout=MAKER_TIMEOUT_MS, polling=100)
        page.close()
        later_visit(context, cdn, cdn.url + "?load=snapshot", None)
        for _ in range(runs):
            for name, suffix in zip(rows, ("", "?load=snapshot"), strict=True):
                rows[name].append(later_visit(context, cdn, cdn.url + suffix, None))
    return rows


def print_against_kept(rows: dict[str, list[dict]]) -> None:
    print("\nRepeat visits taking turns (median ms from navigation; the page's marks):")
    print(
        f"  {'snapshot':<30}{'origin':>8}{'path chosen':>13}{'read':>8}{'restored':>10}{'ready':>8}"
    )
    for name, visits in rows.items():
        marks = [visit["marks"] for visit in visits]

        def mid(key: str, marks=marks) -> float:
            return statistics.median(mark.get(key, float("nan")) for mark in marks)

        ready = statistics.median(visit["ready"] for visit in visits)
        print(
            f"  {name:<30}{str(visits[-1]['origin']):>8}{mid('load-path-chosen'):13.0f}"
            f"{mid('snapshot-read'):8.0f}{mid('restored'):10.0f}{ready:8.0f}"
        )


def print_bytes(columns: dict[str, list[dict]]) -> None:
    print(
        "\nFirst visit over the wire (bytes as the CDN stand-in sent them, headers included), by file:"
    )
    names = list(columns)
    files: dict[str, list[int]] = {}
    totals = {name: {} for name in names}
    for index, name in enumerate(names):
        for stretch, ledger in columns[name][0]["ledgers"].items():
            for path, sent in by_file(ledger).items():
                files.setdefault(f"{path} ({stretch})", [0] * len(names))[index] += sent
            totals[name][stretch] = sum(sent for *_, sent in ledger)
    print(f"  {'file (stretch)':<64}" + "".join(f"{name:>26}" for name in names))
    for label, sizes in sorted(files.items(), key=lambda item: -max(item[1])):
        if max(sizes) >= 2000:
            print(f"  {label:<64}" + "".join(f"{size / 1e6:>23.3f} MB" for size in sizes))
    small = [label for label, sizes in files.items() if max(sizes) < 2000]
    print(f"  ({len(small)} files under 2 kB each not listed, counted in the totals)")
    for stretch in ("page", "precache", "next visit"):
        cells = "".join(f"{totals[name][stretch] / 1e6:>23.3f} MB" for name in names)
        print(f"  {'total: ' + stretch:<64}{cells}")
    cells = "".join(f"{sum(totals[name].values()) / 1e6:>23.3f} MB" for name in names)
    print(f"  {'TOTAL first visit (budget 5 MB)':<64}{cells}")


def print_visits(columns: dict[str, list[dict]]) -> None:
    print(
        "\nVisits of one profile (TTI from navigation; path; the snapshot's origin; bytes the CDN sent):"
    )
    print(f"  {'visit':<7}" + "".join(f"{name:<44}" for name in columns))
    for number in range(len(next(iter(columns.values())))):
        cells = []
        for rows in columns.values():
            row = rows[number]
            sent = row.get("sent")
            if sent is None:
                sent = sum(sum(s for *_, s in ledger) for ledger in row["ledgers"].values())
            cells.append(
                f"{row['ready'] / 1000:5.2f} s  {row['path']:<9}{str(row['origin'] or '-'):<7}{sent / 1e6:6.2f} MB"
            )
        print(f"  {number + 1:<7}" + "".join(f"{cell:<44}" for cell in cells))
    for name, rows in columns.items():
        maker = rows[0]["maker"] or {}
        print(
            f"  the maker ({name}): {maker.get('made')} in {maker.get('totalMs')} ms"
            f" (snapshot taken at {maker.get('madeMs')} ms), {maker.get('size', 0) / 1e6:.1f} MB heap,"
            f" {maker.get('kept', 0) / 1e6:.1f} MB kept; renderers' memory at its peak"
            f" +{rows[0]['maker_memory'] / 2**20:.0f} MiB {maker.get('error', '')}"
        )


def main() -> int:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--visits", type=int, default=4)
    options.add_argument("--bare-runs", type=int, default=3)
    options.add_argument("--no-phone", action="store_true")
    options.add_argument(
        "--against-kept",
        type=int,
        default=4,
        help="repeat visits of each snapshot, taking turns (0: none)",
    )
    args = options.parse_args()
    from playwright.sync_api import sync_playwright

    print(f"load average before: {load_average()} ({os.cpu_count()} cores)")
    builder = load_build_module()
    cdn_module = importlib.import_module(f"{builder.__name__}.cdn")
    with served_site(builder) as (url, site), sync_playwright() as playwright:
        stock_bare_page(site, ROOT / "node_modules" / "pyodide")
        with cdn_module.CdnProxy(url) as cdn:
            cold_visits(
                playwright, cdn, 1
            )  # not counted: the server's, the disk's and Chromium's first loads
            columns = {
                "navigator.connection": profile_visits(playwright, cdn, args.visits, False),
                "no navigator.connection": profile_visits(playwright, cdn, args.visits, True),
            }
            bare, ours_cold, cold_marks = cold_visits(playwright, cdn, args.bare_runs)
            phone = None if args.no_phone else profile_visits(playwright, cdn, 2, False, PHONE)
            kept = (
                device_against_kept(playwright, cdn, args.against_kept)
                if args.against_kept
                else None
            )
    print_bytes(columns)
    print_visits(columns)
    every_cold = cold_marks + [rows[0]["marks"] for rows in columns.values()]
    print_cold_marks(every_cold)
    bare_ms = statistics.median(bare)
    ours_cold += [rows[0]["ready"] for rows in columns.values()]
    ours_ms = statistics.median(ours_cold)
    repeats = [row["ready"] for rows in columns.values() for row in rows[1:]]
    print("\nRatios (this run):")
    print(f"  bare loadPyodide, cold: {', '.join(f'{t / 1000:.2f}' for t in bare)} s")
    print(f"  our page, cold: {', '.join(f'{t / 1000:.2f}' for t in ours_cold)} s")
    print(
        f"  cold time to interactive: ours {ours_ms / 1000:.2f} s / bare {bare_ms / 1000:.2f} s"
        f" = {ours_ms / bare_ms:.2f}x (aim <= 0.5x)"
    )
    floor = [
        m["plain-runtime-ready"] for m in every_cold if m.get("plain-runtime-ready") is not None
    ]
    if floor:
        runtime_ms = statistics.median(floor)
        print(
            f"  of which Pyodide's own start (plain-runtime-ready): {runtime_ms / 1000:.2f} s = {runtime_ms / bare_ms:.2f}x"
            f" bare; micropip, the engine and the app after it: {(ours_ms - runtime_ms) / 1000:.2f} s"
            f" = {(ours_ms - runtime_ms) / bare_ms:.2f}x"
        )
    if repeats:
        print(
            f"  repeat visits 2-{args.visits}: median {statistics.median(repeats) / 1000:.2f} s"
            f" (aim <= 0.4 s); origins {sorted({str(r['origin']) for rows in columns.values() for r in rows[1:]})}"
        )
    if phone:
        maker = phone[0]["maker"] or {}
        print(
            f"\nThe phone ({PHONE['mbps']:g} Mbit/s, {PHONE['rtt_ms']} ms, CPU {PHONE['cpu']}x):"
            f" visit 1 {phone[0]['ready'] / 1000:.2f} s ({phone[0]['path']}), the maker {maker.get('totalMs')} ms"
            f" (renderers +{phone[0]['maker_memory'] / 2**20:.0f} MiB at the peak), visit 2"
            f" {phone[1]['ready'] / 1000:.2f} s ({phone[1]['path']}, {phone[1]['origin']})"
        )
    if kept:
        print_against_kept(kept)
    print(f"\nload average after: {load_average()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
