"""First visits as a phone gets them (issue 15): through tools/builder/cdn.py's CDN stand-in, a fresh profile
with service workers allowed, the page's bytes and the offline precache's after it, against bare Pyodide."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

from common import ROOT

from tools.harness.network_link import emulate_link

from .serve import stock_bare_page
from .stats import median
from .visits import READY_TIMEOUT_MS, fresh_profile, load, wait_for_precache

# The emulated phone link of issue 15: 10 Mbit/s down, 40 ms round trip, CPU slowed 4x (DevTools Protocol).
PHONE = {"mbps": 10.0, "rtt_ms": 40, "cpu": 4}
FIRST_VISIT_BUDGET = 5_000_000
FIRST_VISIT_PAGES = {
    "bare loadPyodide": "bare/",
    "our page (its own choice)": "",
    "micropip path": "?load=micropip",
    "snapshot path": "?load=snapshot",
}


def phone_link() -> str:
    """The phone link in words, as the report and the chart name it."""
    return f"{PHONE['mbps']:g} Mbit/s, {PHONE['rtt_ms']} ms RTT, CPU {PHONE['cpu']}x slower"


def emulate(page, link: dict | None) -> None:
    """The phone link on this page's DevTools session (nothing when link is None)."""
    if link:
        emulate_link(page, link["mbps"], link["rtt_ms"], link["cpu"])


def by_file(ledger: list) -> dict[str, int]:
    """Bytes sent per path, from the CDN stand-in's ledger."""
    files: dict[str, int] = {}
    for _method, path, _status, sent in ledger:
        files[path] = files.get(path, 0) + sent
    return files


def first_visit(playwright, cdn, url: str, link: dict | None) -> dict:
    """A fresh profile's first visit through the CDN stand-in (service workers allowed, as for a player): TTI,
    the bytes of the page's requests and of the precache that follows; then a second visit (TTI)."""
    with fresh_profile(playwright.chromium, service_workers="allow") as context:
        cdn.take_ledger()
        page = context.new_page()
        emulate(page, link)
        facts = load(page, url)
        page_ledger = cdn.take_ledger()
        precache = wait_for_precache(page, poll_ms=200)
        precache_ledger = cdn.take_ledger()
        page.close()
        second = context.new_page()
        emulate(second, link)
        second.goto(url, wait_until="commit")
        second.wait_for_function(
            "window.__bench && window.__bench.readyAt !== null", timeout=READY_TIMEOUT_MS
        )
        warm_ready = second.evaluate("window.__bench.readyAt")
        second.close()
    return {
        "cold_tti_ms": facts["ready"],
        "warm_tti_ms": warm_ready,
        "path": facts["path"],
        "reason": facts["reason"],
        "page_files": by_file(page_ledger),
        "precache_files": by_file(precache_ledger),
        "page_bytes": sum(sent for *_, sent in page_ledger),
        "precache_bytes": sum(sent for *_, sent in precache_ledger),
        "precached": precache is not None,
    }


def measure_first_visits(playwright, site: Path, url: str, runs: int) -> dict:
    """Every page of FIRST_VISIT_PAGES in turn, `runs` times, unthrottled and on the phone link."""
    cdn_module = importlib.import_module("tools.builder.cdn")
    stock_bare_page(site, ROOT / "node_modules" / "pyodide")
    results: dict = {
        "budget": FIRST_VISIT_BUDGET,
        "brotli_quality": cdn_module.BROTLI_QUALITY,
        "links": {},
    }
    with cdn_module.CdnProxy(url) as cdn:
        first_visit(
            playwright, cdn, cdn.url + "?load=micropip", None
        )  # warms the server's caches only
        for link_name, link in (("unthrottled", None), ("phone", PHONE)):
            visits: dict[str, list[dict]] = {name: [] for name in FIRST_VISIT_PAGES}
            for run_index in range(runs):
                for name, suffix in FIRST_VISIT_PAGES.items():
                    visits[name].append(first_visit(playwright, cdn, cdn.url + suffix, link))
                print(
                    f"  first visits, {link_name}: run {run_index + 1}/{runs} done", file=sys.stderr
                )
            results["links"][link_name] = {
                name: summarise(runs_of) for name, runs_of in visits.items()
            }
    return results


def summarise(visits: list[dict]) -> dict:
    """The medians of one page's first visits, and the by-file bytes of the last."""
    last = visits[-1]
    return {
        "cold_tti_ms": median([v["cold_tti_ms"] for v in visits]),
        "warm_tti_ms": median([v["warm_tti_ms"] for v in visits]),
        "cold_tti_all_ms": [round(v["cold_tti_ms"]) for v in visits],
        "page_bytes": median([v["page_bytes"] for v in visits]),
        "precache_bytes": median([v["precache_bytes"] for v in visits]),
        "total_bytes": median([v["page_bytes"] + v["precache_bytes"] for v in visits]),
        "paths": sorted({str(v["path"]) for v in visits}),
        "page_files": last["page_files"],
        "precache_files": last["precache_files"],
    }
