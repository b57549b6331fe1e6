#!/usr/bin/env python3
"""A newcomer's first minutes (issue 21), side by side in one run: a fresh clone to a served game, and visits 1-4.

    python benchmarks/first_minutes.py [--no-clone] [--no-visits] [--visits 4] [--stay 9]

- Fresh clone: `git clone` of this checkout into a temporary folder, npm's cache pointed at an empty folder
  (npm_config_cache), then `python build.py serve` timed until the server answers `/` with 200 and until its
  background build (trimmed standard library, snapshots) has ended, with the time each line of its output
  appeared. Then a warm restart of the same clone, and the disk its first run took (node_modules, build, dist).
- Visits 1..N of one fresh browser profile (service workers allowed, as for a player): time to interactive
  (navigation -> the body says "ready"), the engine's path, the bytes before ready; each visit stays --stay
  seconds (the snapshot for the next visit is made on the device 5 s after the game is ready, at an idle moment;
  benchmarks/device_snapshot.py measures that in full). Once with
  Chromium's navigator.connection, once with it removed (Safari, Firefox).

The load average is printed before and after: on this shared machine a busy minute doubles every figure.
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

from common import ROOT, load_build_module
from page.serve import served_site
from page.visits import fresh_profile, load

SERVE_TIMEOUT_S = 1200
SNAPSHOT_KEPT_TIMEOUT_S = 60
NO_CONNECTION = "delete Navigator.prototype.connection;"
# The page's marks (web/js/engine/loader.js, web/js/app/main.js) in the order a snapshot visit passes them.
MARK_LABELS = {
    "html": "html",
    "load-start": "loader",
    "load-path-chosen": "path",
    "pyodide-imported": "pyodide",
    "app-start": "app",
    "snapshot-read": "snapshot",
    "restored": "restored",
    "warm-up (ms)": "warm-up",
    "engine-ready": "engine",
    "ready": "ready",
}


def load_average() -> str:
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return response.status == 200
    except OSError:
        return False


def disk_mb(path: Path) -> float:
    """Megabytes on disk under `path`, each file once however many hard links it has (as du counts)."""
    if not path.exists():
        return 0.0
    seen: set[int] = set()
    total = 0
    for entry in path.rglob("*"):
        info = entry.lstat()
        if info.st_ino not in seen:
            seen.add(info.st_ino)
            total += info.st_blocks * 512
    return total / 1e6


BACKGROUND_DONE = ("[background] Built dist", "[background] the snapshots failed")


def timed_serve(
    clone: Path, env: dict[str, str]
) -> tuple[float, float | None, list[tuple[float, str]]]:
    """Seconds from `python build.py serve` to the first 200 on `/` and to the end of its background build (the
    snapshots; None if it did not end in SERVE_TIMEOUT_S), and its output lines with their times."""
    port = free_port()
    url = f"http://127.0.0.1:{port}/"
    started = time.monotonic()
    server = subprocess.Popen(
        [sys.executable, "build.py", "serve", "--port", str(port)],
        cwd=clone,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,  # its dev server is its child: both are stopped by this group's id
    )
    lines: list[tuple[float, str]] = []

    def read() -> None:
        for line in server.stdout:
            lines.append((time.monotonic() - started, line.rstrip()))

    threading.Thread(target=read, daemon=True).start()
    try:
        while True:
            if server.poll() is not None:
                raise RuntimeError(
                    "build.py serve stopped:\n" + "\n".join(text for _t, text in lines[-30:])
                )
            if answers(url):
                served = time.monotonic() - started
                while time.monotonic() - started < SERVE_TIMEOUT_S:
                    done = [at for at, text in lines if text.startswith(BACKGROUND_DONE)]
                    if done:
                        return served, done[0], lines
                    time.sleep(0.25)
                return served, None, lines
            if time.monotonic() - started > SERVE_TIMEOUT_S:
                raise RuntimeError(f"build.py serve did not answer in {SERVE_TIMEOUT_S} s")
            time.sleep(0.25)
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)


def fresh_clone_figures() -> dict:
    with tempfile.TemporaryDirectory(prefix="ewar-fresh-clone-") as tmp:
        clone = Path(tmp, "clone")
        subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)], check=True)
        env = {**os.environ, "npm_config_cache": str(Path(tmp, "npm-cache"))}
        cold_s, snapshots_s, lines = timed_serve(clone, env)
        disk = {name: disk_mb(clone / name) for name in ("node_modules", "build", "dist")}
        warm_s, warm_snapshots_s, _ = timed_serve(clone, env)
        shutil.rmtree(Path(tmp, "npm-cache"), ignore_errors=True)
    return {
        "cold_s": cold_s,
        "snapshots_s": snapshots_s,
        "warm_s": warm_s,
        "warm_snapshots_s": warm_snapshots_s,
        "lines": lines,
        "disk_mb": disk,
    }


# Whether the next visit has a snapshot here: the one the page made on the device (issue 34), or the build's kept by
# the worker (an older build fetched it for the next visit).
NEXT_VISIT_SNAPSHOT = """
async () => Boolean(
  (await caches.match(new URL("device-snapshot.bin", document.baseURI).href, { cacheName: "ewar.device-snapshot" }))
  || (navigator.serviceWorker.controller && (await window.ewarOffline.status()).notYetUsed?.length === 0)
)
"""


def snapshot_kept(page) -> bool:
    """Whether the next visit has a snapshot here now (waits for it a while: the page makes it after its delay)."""
    if not page.evaluate("Boolean(window.ewarOffline && navigator.serviceWorker)"):
        return False
    deadline = time.monotonic() + SNAPSHOT_KEPT_TIMEOUT_S
    while time.monotonic() < deadline:
        if page.evaluate(NEXT_VISIT_SNAPSHOT):
            return True
        page.wait_for_timeout(250)
    return False


def visits(playwright, url: str, count: int, stay_s: float, without_connection: bool) -> list[dict]:
    """Visits 1..count of one fresh profile: TTI, path, bytes before ready, and whether the snapshot was kept."""
    rows = []
    with fresh_profile(playwright.chromium, service_workers="allow") as context:
        if without_connection:
            context.add_init_script(NO_CONNECTION)
        for _ in range(count):
            page = context.new_page()
            facts = load(page, url)
            page.wait_for_timeout(stay_s * 1000)
            rows.append({**facts, "kept": snapshot_kept(page)})
            page.close()
    return rows


def visit_figures(count: int, stay_s: float) -> dict:
    from playwright.sync_api import sync_playwright

    builder = load_build_module()
    with served_site(builder) as (url, _site), sync_playwright() as playwright:
        return {
            "with": visits(playwright, url, count, stay_s, without_connection=False),
            "without": visits(playwright, url, count, stay_s, without_connection=True),
        }


def print_clone(figures: dict) -> None:
    print("\nFresh clone -> `python build.py serve` answers (npm cache empty):")
    for at, text in figures["lines"]:
        print(f"  {at:7.1f} s  {text}")
    disk = figures["disk_mb"]

    def seconds(value: float | None) -> str:
        return "never" if value is None else f"{value:.1f} s"

    print(
        f"  first run: serving at {seconds(figures['cold_s'])}, snapshots ready at"
        f" {seconds(figures['snapshots_s'])}   warm restart: serving at {seconds(figures['warm_s'])},"
        f" snapshots at {seconds(figures['warm_snapshots_s'])}"
    )
    print("  disk: " + ", ".join(f"{name} {size:.0f} MB" for name, size in disk.items()))


def print_visits(figures: dict) -> None:
    print(
        "\nVisits of one profile (TTI; path; bytes before ready; snapshot kept for the next visit):"
    )
    print(
        f"  {'visit':<6}{'navigator.connection (Chromium)':<44}{'no navigator.connection (Safari, Firefox)'}"
    )
    for number, (with_it, without) in enumerate(
        zip(figures["with"], figures["without"], strict=True), 1
    ):
        cells = [
            f"{row['ready'] / 1000:5.2f} s  {row['path']:<9}{row['bytes'] / 1e6:6.2f} MB  kept {row['kept']!s:<5}"
            for row in (with_it, without)
        ]
        print(f"  {number:<6}{cells[0]:<44}{cells[1]}")
    print("\nWhere each visit's time went (ms from navigation; the page's marks):")
    print("  " + "".join(f"{label:>9}" for label in ("visit", *MARK_LABELS.values())))
    for column, rows in (("with", figures["with"]), ("without", figures["without"])):
        for number, row in enumerate(rows, 1):
            marks = row.get("marks", {})
            cells = [marks.get(name) for name in MARK_LABELS]
            cells[-1] = row["ready"]
            text = "".join("        -" if cell is None else f"{cell:9.0f}" for cell in cells)
            print(f"  {f'{number} {column}':>9}{text}")


def main() -> int:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument(
        "--no-clone", action="store_true", help="skip the fresh clone's serve time"
    )
    options.add_argument("--no-visits", action="store_true", help="skip the visits")
    options.add_argument("--visits", type=int, default=4)
    options.add_argument("--stay", type=float, default=9.0, help="seconds each visit stays open")
    args = options.parse_args()
    print(f"load average before: {load_average()} ({os.cpu_count()} cores)")
    clone = None if args.no_clone else fresh_clone_figures()
    seen = None if args.no_visits else visit_figures(args.visits, args.stay)
    if clone:
        print_clone(clone)
    if seen:
        print_visits(seen)
    print(f"\nload average after: {load_average()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
