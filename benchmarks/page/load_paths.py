"""The load-path runs: cold and warm loads of each way to load the page against the bare page, a repeat
visit served by the service worker, and cold loads under DevTools network throttling."""

from __future__ import annotations

import gzip
import sys
from pathlib import Path

from tools.harness.network_link import emulate_link

from .scripts import page_script
from .stats import median
from .visits import READY_TIMEOUT_MS, fresh_profile, load, wait_for_precache

RTT_MS = 40
# Each page and how it is reached from the site's address (a full address is a baseline build's).
LOAD_VARIANTS = {
    "bare loadPyodide": "bare.html",
    "micropip path": "?load=micropip",
    "snapshot path": "?load=snapshot",
    "default policy": "",
}


def visit(context, url: str, mbps: float | None = None) -> dict:
    """One load in a new page of this context, throttled to `mbps` (RTT_MS round trip) when given."""
    page = context.new_page()
    try:
        if mbps:
            emulate_link(page, mbps, RTT_MS)
        return load(page, url)
    finally:
        page.close()


def cold_and_warm(
    browser, url: str, mbps: float | None = None, warm: bool = True
) -> tuple[dict, dict | None]:
    """A first visit with an empty profile, then a second one (from its disk cache; service workers
    blocked so that the HTTP cache is measured)."""
    with fresh_profile(browser.browser_type, service_workers="block") as context:
        cold = visit(context, url, mbps)
        return cold, visit(context, url, mbps) if warm else None


def service_worker_visit(browser, url: str) -> dict | None:
    """A repeat visit once the service worker controls the page and has precached the build."""
    from playwright.sync_api import Error as PlaywrightError

    context = browser.new_context(bypass_csp=True)  # see visits.fresh_profile
    context.add_init_script(page_script("init.js"))
    try:
        page = context.new_page()
        page.goto(url)
        page.wait_for_function("window.__bench.readyAt !== null", timeout=READY_TIMEOUT_MS)
        if wait_for_precache(page, poll_ms=500) is None:
            return None
        page.close()
        return visit(context, url)
    except (RuntimeError, PlaywrightError) as error:  # report it; the other numbers still count
        print(f"  (service-worker visit skipped: {error})", file=sys.stderr)
        return None
    finally:
        context.close()


class GzipSizes:
    """What each served file would weigh compressed with gzip -6 (the dev server sends it raw)."""

    def __init__(self, site: Path) -> None:
        self.site = site
        self.known: dict[str, int] = {}

    def of(self, path: str, transferred: int) -> int:
        if not transferred:
            return 0
        rel = path.lstrip("/") or "index.html"
        if rel.endswith("/"):
            rel += "index.html"
        if rel not in self.known:
            file = self.site / rel
            self.known[rel] = (
                len(gzip.compress(file.read_bytes(), 6)) if file.is_file() else transferred
            )
        return self.known[rel]

    def total(self, facts: dict) -> int:
        return sum(self.of(path, size) for path, size in facts["files"])


def measure_loads(
    browser, results: dict, variants: dict, url: str, site: Path, runs: int, throttle: list[float]
) -> None:
    """Loads every variant in turn `runs` times, then the service-worker visit and the throttled loads,
    into results["variants"], results["service_worker_repeat"] and results["throttled"]."""
    sizes = GzipSizes(site)

    def address(suffix: str) -> str:
        return suffix if "://" in suffix else url + suffix

    # warm the OS file cache and V8's code cache of the server, not the browser's
    cold_and_warm(browser, url + "?load=micropip", warm=False)
    measured = {name: {"cold": [], "warm": []} for name in variants}
    for run_index in range(runs):
        for name, suffix in variants.items():
            cold, warm = cold_and_warm(browser, address(suffix))
            measured[name]["cold"].append(cold)
            measured[name]["warm"].append(warm)
        print(f"  load run {run_index + 1}/{runs} done", file=sys.stderr)
    for name, loads in measured.items():
        cold, warm = loads["cold"], loads["warm"]
        results["variants"][name] = {
            "cold_tti_ms": median([r["ready"] for r in cold]),
            "warm_tti_ms": median([r["ready"] for r in warm]),
            "cold_tti_all_ms": [round(r["ready"]) for r in cold],
            "warm_tti_all_ms": [round(r["ready"]) for r in warm],
            "fcp_ms": median([r["fcp"] for r in cold if r["fcp"] is not None]),
            "cold_bytes": median([r["bytes"] for r in cold]),
            "cold_bytes_gzip": median([sizes.total(r) for r in cold]),
            "warm_bytes": median([r["bytes"] for r in warm]),
            "path": cold[0]["path"],
            "reason": cold[0]["reason"],
        }
    results["service_worker_repeat"] = service_worker_visit(browser, url)
    for mbps in throttle:
        row = {}
        throttled = ["micropip path", "snapshot path", "bare loadPyodide"]
        throttled += [name for name in variants if name.startswith("baseline")]
        for name in throttled:
            cold, _ = cold_and_warm(browser, address(variants[name]), mbps, warm=False)
            row[name] = {"cold_tti_ms": cold["ready"], "connection": cold["connection"]}
        default, _ = cold_and_warm(browser, url, mbps, warm=False)
        row["default policy"] = {
            "cold_tti_ms": default["ready"],
            "path": default["path"],
            "connection": default["connection"],
        }
        results["throttled"][str(mbps)] = row
        print(f"  throttled {mbps} Mbps done", file=sys.stderr)
