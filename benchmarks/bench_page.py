#!/usr/bin/env python3
"""The game page in real Chromium: paint, time to interactive, bytes, input latency and long tasks.

    python benchmarks/bench_page.py [--runs 3] [--inputs 240] [--throttle 40,20,10,5] [--json FILE]
    python benchmarks/bench_page.py --only-first-visit [--first-visit-runs 3] [--chart docs/first-visit.svg]

Builds dist/ (build.py), serves a copy of it with tools/devserver.mjs (the same server the tests use) next to
a bare page that only calls loadPyodide(), and drives Debian's Chromium through Playwright:

- first visits as a player's browser makes them (issue 15): a fresh profile, service workers allowed, through
  tools/build/cdn.py's stand-in for the CDN (brotli for text and wasm; it counts the bytes it sends): cold and
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
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import importlib
import json
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from common import CHROMIUM, CHROMIUM_ARGS, ROOT, load_build_module

READY_TIMEOUT_MS = 180_000
RTT_MS = 40

BARE_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>bare loadPyodide</title></head>
<body data-state="loading"><p>Loading Pyodide…</p>
<script type="module">
  const { loadPyodide } = await import("./pyodide/pyodide.mjs");
  await loadPyodide({ indexURL: new URL("pyodide/", location.href).href });
  document.body.dataset.state = "ready";
</script></body></html>
"""

# Before any page script: when the body first says "ready", and every long task.
INIT_SCRIPT = """
(() => {
  window.__bench = { readyAt: null, longTasks: [] };
  const check = () => {
    if (window.__bench.readyAt === null && document.body?.dataset.state === "ready") {
      window.__bench.readyAt = performance.now();
    }
  };
  new MutationObserver(check).observe(document, { subtree: true, attributes: true, attributeFilter: ["data-state"] });
  try {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) window.__bench.longTasks.push([entry.startTime, entry.duration]);
    }).observe({ type: "longtask", buffered: true });
  } catch {}
})();
"""

LOAD_FACTS = """
() => {
  const nav = performance.getEntriesByType("navigation")[0];
  const resources = performance.getEntriesByType("resource");
  const fcp = performance.getEntriesByName("first-contentful-paint")[0];
  return {
    ready: window.__bench.readyAt,
    fcp: fcp ? fcp.startTime : null,
    bytes: (nav ? nav.transferSize : 0) + resources.reduce((sum, r) => sum + (r.transferSize || 0), 0),
    files: [[location.pathname, nav ? nav.transferSize : 0],
            ...resources.map((r) => [new URL(r.name).pathname, r.transferSize || 0])],
    path: window.ewar?.engine?.path ?? null,
    reason: window.ewar?.engine?.reason ?? null,
    connection: navigator.connection ? navigator.connection.effectiveType : null,
  };
}
"""

# Input latency instrumentation: an input counts when the engine's view of the pile or of your pack changed
# (read before and after the page's own handler); its latency runs from event.timeStamp to the end of the frame
# that first changed the pile or pack element after it (a message posted from that frame runs once it rendered).
LATENCY_HOOKS = """
() => {
  const pile = document.getElementById("pile");
  const pack = document.querySelector('[data-testid="pack-south"]');
  const state = { samples: [], unchanged: 0, current: null, longTasks: [], started: performance.now() };
  const snap = () => {
    const v = window.ewar.view();
    return v ? JSON.stringify([v.pile, v.seats[0].cards, v.seats[0].status]) : "";
  };
  const counts = (e) => e.type === "pointerdown" || e.key === "Enter" || e.key === " ";
  window.addEventListener("keydown", onCapture, true);
  window.addEventListener("pointerdown", onCapture, true);
  window.addEventListener("keydown", onBubble);
  window.addEventListener("pointerdown", onBubble);
  function onCapture(e) {
    if (!counts(e)) return;
    state.current = { type: e.type, t0: e.timeStamp, before: snap(), mutated: null, painted: null };
  }
  function onBubble(e) {
    const input = state.current;
    if (!counts(e) || !input || input.t0 !== e.timeStamp) return;
    if (snap() === input.before) {
      state.unchanged += 1;
      if (input.mutated === null) state.current = null;
      return;
    }
    delete input.before;
    state.samples.push(input);
  }
  // Every frame's start (the rAF timestamp), to tell whether a change was drawn in the first frame after input.
  state.frameStarts = [];
  const recordFrame = (ts) => {
    state.frameStarts.push(ts);
    if (state.frameStarts.length > 4000) state.frameStarts.splice(0, 2000);
    requestAnimationFrame(recordFrame);
  };
  requestAnimationFrame(recordFrame);
  const observer = new MutationObserver(() => {
    const input = state.current;
    if (!input || input.mutated !== null) return;
    input.mutated = performance.now();
    input.frame = document.timeline.currentTime; // the start of the frame drawing it (we are inside its rAF)
    input.framesSkipped = state.frameStarts.filter((ts) => ts > input.t0 && ts < input.frame).length;
    state.current = null;
    const channel = new MessageChannel();
    channel.port1.onmessage = () => { input.painted = performance.now(); };
    channel.port2.postMessage(0);
  });
  const watch = { subtree: true, childList: true, attributes: true, characterData: true };
  observer.observe(pile, watch);
  observer.observe(pack, watch);
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) state.longTasks.push([entry.startTime, entry.duration]);
  }).observe({ type: "longtask" });
  // Long animation frames say whose script took the time: ours (the engine call in game.js) or nobody's.
  state.longFrames = [];
  try {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        const scripts = entry.scripts.reduce((sum, script) => sum + script.duration, 0);
        const top = entry.scripts.reduce((a, b) => (b.duration > (a?.duration ?? -1) ? b : a), null);
        const where = top
          ? `${top.invoker} ${(top.sourceURL || "").split("/").pop()} ${top.sourceFunctionName || ""}`.trim()
          : "";
        state.longFrames.push([entry.startTime, entry.duration, scripts, where]);
      }
    }).observe({ type: "long-animation-frame" });
  } catch {}
  window.__latency = state;
}
"""


def link_tree(source: Path, target: Path) -> None:
    """A copy of dist/ (hard links where the file system allows) that can hold extra pages."""
    for path in source.rglob("*"):
        copy = target / path.relative_to(source)
        if path.is_dir():
            copy.mkdir(parents=True, exist_ok=True)
            continue
        copy.parent.mkdir(parents=True, exist_ok=True)
        try:
            os.link(path, copy)
        except OSError:
            shutil.copyfile(path, copy)


@contextlib.contextmanager
def served_site(builder, dist: Path | None = None) -> Iterator[tuple[str, Path]]:
    """dist/ (built now, unless another build's folder is given) and the bare page, served."""
    dist = dist or builder.build(log=lambda _line: None).dist
    with tempfile.TemporaryDirectory(prefix="ewar-bench-") as tmp:
        site = Path(tmp, "site")
        link_tree(dist, site)
        (site / "bare.html").write_text(BARE_PAGE)
        server = builder.DevServer(site, data_dir=Path(tmp, "blobs"))
        url = server.start()
        try:
            yield url.rstrip("/") + "/", site
        finally:
            server.stop()


# ---------------------------------------------------------------------------------------------
# Loading


def throttle(page, mbps: float | None) -> None:
    if not mbps:
        return
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    rate = mbps * 1_000_000 / 8
    cdp.send(
        "Network.emulateNetworkConditions",
        {"offline": False, "latency": RTT_MS, "downloadThroughput": rate, "uploadThroughput": rate},
    )


def visit(context, url: str, mbps: float | None = None) -> dict:
    page = context.new_page()
    try:
        throttle(page, mbps)
        page.goto(url, wait_until="commit")
        page.wait_for_function(
            "window.__bench && (window.__bench.readyAt !== null || document.body?.dataset.state === 'error')",
            timeout=READY_TIMEOUT_MS,
        )
        facts = page.evaluate(LOAD_FACTS)
        if facts["ready"] is None:
            raise RuntimeError(f"{url} did not become ready: {page.inner_text('body')[:300]}")
        return facts
    finally:
        page.close()


def cold_and_warm(
    browser, url: str, mbps: float | None = None, warm: bool = True
) -> tuple[dict, dict | None]:
    """A first visit with an empty profile, then a second one. A persistent profile, because its disk cache
    is what a player's browser has: an incognito context's in-memory cache does not keep the 9.6 MB wasm."""
    with tempfile.TemporaryDirectory(prefix="ewar-profile-") as profile:
        context = browser.browser_type.launch_persistent_context(
            profile,
            executable_path=CHROMIUM,
            args=CHROMIUM_ARGS,
            headless=True,
            service_workers="block",
        )
        context.add_init_script(INIT_SCRIPT)
        try:
            cold = visit(context, url, mbps)
            return cold, visit(context, url, mbps) if warm else None
        finally:
            context.close()


def service_worker_visit(browser, url: str) -> dict | None:
    """A repeat visit once the service worker controls the page and has precached the build."""
    from playwright.sync_api import Error as PlaywrightError

    context = browser.new_context()
    context.add_init_script(INIT_SCRIPT)
    try:
        page = context.new_page()
        page.goto(url)
        page.wait_for_function("window.__bench.readyAt !== null", timeout=READY_TIMEOUT_MS)
        if not page.evaluate("Boolean(window.ewarOffline)"):
            return None
        deadline = time.monotonic() + 180
        while True:
            status = page.evaluate("window.ewarOffline.status()")
            if status.get("complete") and status.get("controlled"):
                break
            if time.monotonic() > deadline:
                raise RuntimeError(f"the worker did not finish precaching: {status}")
            page.wait_for_timeout(500)
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


# ---------------------------------------------------------------------------------------------
# First visit as a phone gets it: through a CDN stand-in, page + offline precache, against bare Pyodide

# The emulated phone link of issue 15: 10 Mbit/s down, 40 ms round trip, CPU slowed 4x (DevTools Protocol).
PHONE = {"mbps": 10.0, "rtt_ms": 40, "cpu": 4}
# The bare page, its script in a file of its own: the site's Content-Security-Policy allows no inline script.
BARE_PAGE_HTML = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>bare loadPyodide</title></head>
<body data-state="loading"><p>Loading Pyodide…</p><script type="module" src="./bare.js"></script></body></html>
"""
BARE_PAGE_SCRIPT = """const { loadPyodide } = await import("./pyodide/pyodide.mjs");
await loadPyodide({ indexURL: new URL("pyodide/", location.href).href });
document.body.dataset.state = "ready";
"""
FIRST_VISIT_BUDGET = 5_000_000
FIRST_VISIT_PAGES = {
    "bare loadPyodide": "bare/",
    "our page (its own choice)": "",
    "micropip path": "?load=micropip",
    "snapshot path": "?load=snapshot",
}


def stock_bare_page(site: Path, pyodide: Path) -> None:
    """bare/: a page that only calls loadPyodide(), over Pyodide's own files (its whole standard library)."""
    folder = site / "bare"
    (folder / "pyodide").mkdir(parents=True, exist_ok=True)
    (folder / "index.html").write_text(BARE_PAGE_HTML)
    (folder / "bare.js").write_text(BARE_PAGE_SCRIPT)
    for name in (
        "pyodide.mjs",
        "pyodide.asm.mjs",
        "pyodide.asm.wasm",
        "python_stdlib.zip",
        "pyodide-lock.json",
    ):
        shutil.copyfile(pyodide / name, folder / "pyodide" / name)


def emulate(page, link: dict | None) -> None:
    """The phone link on this page's DevTools session (nothing when link is None)."""
    if not link:
        return
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    rate = link["mbps"] * 1_000_000 / 8
    cdp.send(
        "Network.emulateNetworkConditions",
        {
            "offline": False,
            "latency": link["rtt_ms"],
            "downloadThroughput": rate,
            "uploadThroughput": rate,
        },
    )
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": link["cpu"]})


def wait_for_precache(page) -> dict | None:
    """The worker's status once it controls the page with a complete cache; None for a page without one."""
    if not page.evaluate("Boolean(window.ewarOffline)"):
        return None
    deadline = time.monotonic() + 180
    while True:
        status = page.evaluate("window.ewarOffline.status()")
        if status.get("complete") and status.get("controlled"):
            return status
        if time.monotonic() > deadline:
            raise RuntimeError(f"the worker did not finish precaching: {status}")
        page.wait_for_timeout(200)


def by_file(ledger: list) -> dict[str, int]:
    files: dict[str, int] = {}
    for _method, path, _status, sent in ledger:
        files[path] = files.get(path, 0) + sent
    return files


def first_visit(playwright, cdn, url: str, link: dict | None) -> dict:
    """A fresh profile's first visit through the CDN stand-in (service workers allowed, as for a player): TTI,
    the bytes of the page's requests and of the precache that follows; then a second visit (TTI)."""
    with tempfile.TemporaryDirectory(prefix="ewar-profile-") as profile:
        context = playwright.chromium.launch_persistent_context(
            profile,
            executable_path=CHROMIUM,
            args=CHROMIUM_ARGS,
            headless=True,
            service_workers="allow",
            bypass_csp=True,  # Playwright's string predicates are evaluated in the page; loading is unchanged
        )
        context.add_init_script(INIT_SCRIPT)
        try:
            cdn.take_ledger()
            page = context.new_page()
            emulate(page, link)
            page.goto(url, wait_until="commit")
            page.wait_for_function(
                "window.__bench && (window.__bench.readyAt !== null || document.body?.dataset.state === 'error')",
                timeout=READY_TIMEOUT_MS,
            )
            facts = page.evaluate(LOAD_FACTS)
            if facts["ready"] is None:
                raise RuntimeError(f"{url} did not become ready: {page.inner_text('body')[:300]}")
            page_ledger = cdn.take_ledger()
            precache = wait_for_precache(page)
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
        finally:
            context.close()
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
    cdn_module = importlib.import_module("tools.build.cdn")
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


def first_visit_report(results: dict) -> list[str]:
    out = [
        "",
        (
            f"First visit through a CDN stand-in (tools/build/cdn.py: brotli q{results['brotli_quality']} for text"
            " and wasm, as sent, headers included): fresh profile, page + the offline precache after it"
        ),
    ]
    for link_name, pages in results["links"].items():
        bare = pages["bare loadPyodide"]
        rows = []
        for name, v in pages.items():
            rows.append(
                [
                    name + ("" if name.startswith("bare") else f" ({'/'.join(v['paths'])})"),
                    seconds(v["cold_tti_ms"]),
                    f"{v['cold_tti_ms'] / bare['cold_tti_ms']:.2f}",
                    seconds(v["warm_tti_ms"]),
                    megabytes(v["page_bytes"]),
                    megabytes(v["precache_bytes"]),
                    megabytes(v["total_bytes"]),
                    "yes" if v["total_bytes"] <= results["budget"] else "NO",
                ]
            )
        title = (
            "unthrottled"
            if link_name == "unthrottled"
            else (
                f"phone link: {PHONE['mbps']:g} Mbit/s, {PHONE['rtt_ms']} ms RTT, CPU {PHONE['cpu']}x slower"
            )
        )
        out += [
            f"{title} (median of {len(bare['cold_tti_all_ms'])}; runs cold ms: "
            + "; ".join(f"{name}: {v['cold_tti_all_ms']}" for name, v in pages.items())
            + ")",
            table(
                rows,
                [
                    "page",
                    "TTI cold",
                    "vs bare",
                    "TTI repeat",
                    "page bytes",
                    "precache",
                    "first visit",
                    "<= 5 MB",
                ],
            ),
        ]
    ours = results["links"]["unthrottled"]["our page (its own choice)"]
    files = sorted({**ours["page_files"]}.items(), key=lambda item: -item[1])
    rows = [
        [path, megabytes(sent), megabytes(ours["precache_files"].get(path, 0))]
        for path, sent in files[:14]
    ]
    extra = {p: s for p, s in ours["precache_files"].items() if p not in ours["page_files"]}
    rows += [
        [path + " (precache only)", megabytes(0), megabytes(sent)]
        for path, sent in extra.items()
        if sent > 2000
    ]
    out += [
        "Our page's first visit (unthrottled), by file",
        table(rows, ["file", "page", "precache"]),
    ]
    return out


def first_visit_chart(results: dict) -> str:
    """An SVG of the first visits: cold TTI against bare Pyodide per link, and bytes against the budget."""
    from html import escape

    pages = list(FIRST_VISIT_PAGES)
    colours = {
        "bare loadPyodide": "#8a8a8a",
        "our page (its own choice)": "#1f77b4",
        "micropip path": "#2ca02c",
        "snapshot path": "#d62728",
    }
    links = results["links"]
    width, left, bar, gap = 800, 210, 16, 6
    panel_height = len(pages) * (bar + gap) + 30
    height = 40 + panel_height * (len(links) + 1) + 30
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        'font-family="sans-serif" font-size="12">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
        '<text x="10" y="22" font-size="15" font-weight="bold">A first visit (fresh profile): time to interactive '
        "and bytes as a CDN sends them</text>",
    ]

    def panel(
        top: float, title: str, values: dict[str, float], unit: str, limit: float | None
    ) -> None:
        top_value = max([*values.values(), limit or 0]) * 1.15
        scale = (width - left - 60) / top_value
        parts.append(f'<text x="10" y="{top + 14}" font-weight="bold">{escape(title)}</text>')
        if limit:  # drawn first: the bars and their labels go over it
            x = left + limit * scale
            bottom = top + 24 + len(pages) * (bar + gap)
            parts.append(
                f'<line x1="{x:.1f}" y1="{top + 20}" x2="{x:.1f}" y2="{bottom}" stroke="black" '
                'stroke-dasharray="4 3"/>'
            )
            parts.append(
                f'<text x="{x + 3:.1f}" y="{bottom + 10}" font-size="11">{limit:g} {unit} budget</text>'
            )
        for index, name in enumerate(pages):
            y = top + 24 + index * (bar + gap)
            value = values[name]
            parts.append(
                f'<text x="{left - 8}" y="{y + bar - 4}" text-anchor="end">{escape(name)}</text>'
            )
            parts.append(
                f'<rect x="{left}" y="{y}" width="{value * scale:.1f}" height="{bar}" fill="{colours[name]}"/>'
            )
            label = f"{value:.2f} {unit}"
            if unit == "s":
                label += f" ({value / values[pages[0]]:.2f}× bare)"
            parts.append(
                f'<text x="{left + value * scale + 4:.1f}" y="{y + bar - 4}" stroke="white" '
                f'stroke-width="3" paint-order="stroke">{label}</text>'
            )

    top = 40.0
    for link_name, measured in links.items():
        title = (
            "Time to interactive, unthrottled (median)"
            if link_name == "unthrottled"
            else f"Time to interactive, phone link: {PHONE['mbps']:g} Mbit/s, {PHONE['rtt_ms']} ms RTT, "
            f"CPU {PHONE['cpu']}x slower (median)"
        )
        panel(top, title, {name: measured[name]["cold_tti_ms"] / 1000 for name in pages}, "s", None)
        top += panel_height
    bytes_title = f"First visit: page + offline precache (brotli q{results['brotli_quality']} as the CDN stand-in sends)"
    first = links["unthrottled"]
    panel(
        top,
        bytes_title,
        {name: first[name]["total_bytes"] / 1e6 for name in pages},
        "MB",
        results["budget"] / 1e6,
    )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


# ---------------------------------------------------------------------------------------------
# Play: input latency and long tasks


def slappable(view: dict) -> bool:
    top = [card[:-1] for card in view["pile"]["top"]]
    return (len(top) >= 2 and top[-1] == top[-2]) or (len(top) >= 3 and top[-1] == top[-3])


def element_centre(page, selector: str) -> tuple[float, float]:
    box = page.locator(selector).bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def play_for_latency(browser, url: str, inputs: int, max_seconds: float) -> dict:
    context = browser.new_context(service_workers="block", viewport={"width": 1280, "height": 800})
    context.add_init_script(INIT_SCRIPT)
    rng = random.Random(7)
    try:
        page = context.new_page()
        page.goto(url + "?load=snapshot")
        page.wait_for_function("window.__bench.readyAt !== null", timeout=READY_TIMEOUT_MS)
        # As a player does: Deal in the menu (a user gesture: audio is set up there), then fast deals by seed.
        page.click('[data-testid="start"]')
        page.wait_for_function("document.body.dataset.state === 'playing'")
        seed = 1000
        page.evaluate(f"window.ewar.newGame({{ mode: 'practice', seed: {seed}, speed: 'fast' }})")
        page.evaluate(LATENCY_HOOKS)
        pack = element_centre(page, '[data-testid="pack-south"]')
        pile = element_centre(page, "#pile")
        games, sent, use_pointer = 1, 0, False
        deadline = time.monotonic() + max_seconds
        while time.monotonic() < deadline:
            view = page.evaluate("window.ewar.view()")
            south = view["seats"][0]
            if view["over"] or south["status"] != "playing":
                seed += 1
                games += 1
                page.evaluate(
                    f"window.ewar.newGame({{ mode: 'practice', seed: {seed}, speed: 'fast' }})"
                )
                continue
            if view["your_turn"]:
                intent = "flip"
            elif slappable(view) or (south["cards"] > 8 and rng.random() < 0.08):
                intent = (
                    "slap"  # a real slap, or now and then a wrong one (a burn changes your pack)
                )
            else:
                page.wait_for_timeout(15)
                continue
            if use_pointer:
                x, y = pack if intent == "flip" else pile
                page.mouse.click(x, y)
            else:
                page.keyboard.press("Enter" if intent == "flip" else " ")
            use_pointer = not use_pointer
            sent += 1
            page.wait_for_timeout(20)
            if (
                sent % 20 == 0
                and page.evaluate(
                    "window.__latency.samples.filter((s) => s.painted !== null).length"
                )
                >= inputs
            ):
                break
        page.wait_for_timeout(200)
        state = page.evaluate(
            "({ samples: window.__latency.samples, unchanged: window.__latency.unchanged,"
            " longTasks: window.__latency.longTasks, longFrames: window.__latency.longFrames,"
            " started: window.__latency.started })"
        )
    finally:
        context.close()
    done = [s for s in state["samples"] if s["painted"] is not None]
    latencies = sorted(s["painted"] - s["t0"] for s in done)
    next_frame = sum(1 for s in done if s["framesSkipped"] == 0)
    in_frame = sorted(s["painted"] - s["frame"] for s in done)
    # The part no page can cut: from the input to the start of the next frame (vsync), ~U(0, 16.7 ms) at 60 Hz.
    to_frame = sorted(max(0.0, s["frame"] - s["t0"]) for s in done)
    by_type = {
        kind: sorted(s["painted"] - s["t0"] for s in done if s["type"] == kind)
        for kind in ("keydown", "pointerdown")
    }
    long_tasks = [duration for start, duration in state["longTasks"] if start >= state["started"]]
    frames = [(d, s, w) for start, d, s, w in state["longFrames"] if start >= state["started"]]
    heaviest = sorted(frames, key=lambda frame: -frame[1])[:3]
    return {
        "inputs_sent": sent,
        "samples": len(latencies),
        "unchanged_inputs": state["unchanged"],
        "undrawn_inputs": len(state["samples"]) - len(done),
        "games": games,
        "p50": percentile(latencies, 50),
        "p95": percentile(latencies, 95),
        "max": latencies[-1] if latencies else None,
        "drawn_in_next_frame": next_frame,
        "frame_work_p50": percentile(in_frame, 50),
        "frame_work_p95": percentile(in_frame, 95),
        "wait_for_frame_p50": percentile(to_frame, 50),
        "wait_for_frame_p95": percentile(to_frame, 95),
        "by_type": {
            k: {"n": len(v), "p50": percentile(v, 50), "p95": percentile(v, 95)}
            for k, v in by_type.items()
        },
        "long_tasks": len(long_tasks),
        "longest_task": max(long_tasks, default=0),
        "long_frames": len(frames),
        "longest_frame_script_ms": max((scripts for _d, scripts, _w in frames), default=0),
        "script_ms_in_long_frames": sum(scripts for _d, scripts, _w in frames),
        "frame_ms_in_long_frames": sum(d for d, _scripts, _w in frames),
        "heaviest_scripts": [[round(scripts), where] for _d, scripts, where in heaviest],
    }


def percentile(values: list[float], p: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    rank = max(0, min(len(ordered) - 1, round(p / 100 * len(ordered) + 0.5) - 1))
    return ordered[rank]


# ---------------------------------------------------------------------------------------------
# Report


def median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def seconds(ms: float | None) -> str:
    return "—" if ms is None else f"{ms / 1000:.2f} s"


def megabytes(n: float) -> str:
    return f"{n / 1e6:.2f} MB"


def table(rows: list[list[str]], header: list[str]) -> str:
    widths = [max(len(str(row[i])) for row in [header, *rows]) for i in range(len(header))]

    def line(cells: list[str]) -> str:
        return "  ".join(str(c).ljust(w) for c, w in zip(cells, widths)).rstrip()

    return "\n".join([line(header), line(["-" * w for w in widths]), *map(line, rows)])


def run(options: argparse.Namespace) -> dict:
    from playwright.sync_api import sync_playwright

    builder = load_build_module()
    results: dict = {"runs": options.runs, "variants": {}, "throttled": {}}
    variants = {
        "bare loadPyodide": "bare.html",
        "micropip path": "?load=micropip",
        "snapshot path": "?load=snapshot",
        "default policy": "",
    }
    with contextlib.ExitStack() as stack:
        url, site = stack.enter_context(served_site(builder))
        if options.baseline:
            # Another build (say main's), measured in turn with this one in the same run.
            other, _ = stack.enter_context(served_site(builder, options.baseline))
            variants["baseline micropip path"] = other + "?load=micropip"
            variants["baseline snapshot path"] = other + "?load=snapshot"
        playwright = stack.enter_context(sync_playwright())
        if options.first_visit_runs:
            results["first_visit"] = measure_first_visits(
                playwright, site, url, options.first_visit_runs
            )
        if not options.only_first_visit:
            measure(options, results, variants, url, site, playwright)
    return results


def measure(options, results: dict, variants: dict, url: str, site: Path, playwright) -> None:
    """Loads every variant in turn, then the service-worker visit, throttled loads and play."""
    sizes = GzipSizes(site)

    def address(suffix: str) -> str:
        return suffix if "://" in suffix else url + suffix

    browser = playwright.chromium.launch(
        executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True
    )
    try:
        # warm the OS file cache and V8's code cache of the server, not the browser's
        cold_and_warm(browser, url + "?load=micropip", warm=False)
        measured = {name: {"cold": [], "warm": []} for name in variants}
        for run_index in range(options.runs):
            for name, suffix in variants.items():
                cold, warm = cold_and_warm(browser, address(suffix))
                measured[name]["cold"].append(cold)
                measured[name]["warm"].append(warm)
            print(f"  load run {run_index + 1}/{options.runs} done", file=sys.stderr)
        for name, runs in measured.items():
            cold, warm = runs["cold"], runs["warm"]
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
        for mbps in options.throttle:
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
        if options.inputs:
            results["play"] = play_for_latency(browser, url, options.inputs, options.play_seconds)
            if options.baseline:
                baseline_url = variants["baseline snapshot path"].split("?")[0]
                results["play_baseline"] = play_for_latency(
                    browser, baseline_url, options.inputs, options.play_seconds
                )
    finally:
        browser.close()


def play_report(play: dict, title: str) -> list[str]:
    """The input-latency and long-task lines of one build's play."""
    out: list[str] = []
    rows = [
        [
            "all",
            str(play["samples"]),
            f"{play['p50']:.1f} ms",
            f"{play['p95']:.1f} ms",
            f"{play['max']:.1f} ms",
        ]
    ]
    for kind, v in play["by_type"].items():
        if v["n"]:
            rows.append([kind, str(v["n"]), f"{v['p50']:.1f} ms", f"{v['p95']:.1f} ms", ""])
    out += [
        "",
        (
            f"Input -> pile/pack drawn, {title} ({play['inputs_sent']} inputs sent over {play['games']} games"
            f" at fast speed; {play['unchanged_inputs']} changed nothing,"
            f" {play['undrawn_inputs']} not drawn before the next input)"
        ),
        table(rows, ["inputs", "n", "p50", "p95", "max"]),
        (
            f"Drawn in the first frame after the input: {play['drawn_in_next_frame']} of"
            f" {play['samples']}; input -> that frame's start (waiting for vsync): p50"
            f" {play['wait_for_frame_p50']:.1f} ms, p95 {play['wait_for_frame_p95']:.1f} ms;"
            f" frame start -> rendered: p50 {play['frame_work_p50']:.1f} ms,"
            f" p95 {play['frame_work_p95']:.1f} ms"
        ),
        f"Long tasks (> 50 ms) during play: {play['long_tasks']}, longest {play['longest_task']:.0f} ms",
        (
            f"Long animation frames (> 50 ms): {play['long_frames']}, in which scripts ran"
            f" {play['script_ms_in_long_frames']:.0f} of {play['frame_ms_in_long_frames']:.0f} ms"
            f" (longest script share in one frame {play['longest_frame_script_ms']:.0f} ms;"
            f" heaviest: {play['heaviest_scripts']})"
        ),
    ]
    return out


def report(results: dict) -> str:
    machine = (
        f"Machine: {os.cpu_count()} cores, load average {results['load_before']} before and"
        f" {results['load_after']} after (other processes share the CPU: compare with care)"
    )
    first = first_visit_report(results["first_visit"]) if results.get("first_visit") else []
    if not results["variants"]:
        return "\n".join([machine, *first])
    return "\n".join([machine, *first, "", page_report(results)])


def page_report(results: dict) -> str:
    variants = results["variants"]
    bare = variants["bare loadPyodide"]
    rows = []
    for name, v in variants.items():
        ratio_cold = v["cold_tti_ms"] / bare["cold_tti_ms"]
        ratio_warm = v["warm_tti_ms"] / bare["warm_tti_ms"]
        rows.append(
            [
                name + (f" ({v['path']})" if name == "default policy" else ""),
                seconds(v["fcp_ms"]),
                seconds(v["cold_tti_ms"]),
                seconds(v["warm_tti_ms"]),
                f"{ratio_cold:.2f} / {ratio_warm:.2f}",
                megabytes(v["cold_bytes"]),
                megabytes(v["cold_bytes_gzip"]),
            ]
        )
    out = [
        f"Page load (median of {results['runs']} runs; cold = empty profile, warm = second visit, disk cache)",
        table(
            rows,
            ["page", "FCP", "TTI cold", "TTI warm", "vs bare cold/warm", "cold bytes", "≈ gzip -6"],
        ),
        "runs (ms): "
        + "; ".join(
            f"{name}: cold {v['cold_tti_all_ms']} warm {v['warm_tti_all_ms']}"
            for name, v in variants.items()
        ),
    ]
    sw = results.get("service_worker_repeat")
    if sw:
        out.append(
            f"Repeat visit served by the service worker: TTI {seconds(sw['ready'])} via {sw['path']} "
            f"({sw['reason']}), {megabytes(sw['bytes'])} from the network"
        )
    if results["throttled"]:
        baseline = [name for name in variants if name.startswith("baseline")]
        rows = []
        for mbps, row in results["throttled"].items():
            rows.append(
                [
                    f"{mbps} Mbps, {RTT_MS} ms RTT",
                    seconds(row["bare loadPyodide"]["cold_tti_ms"]),
                    seconds(row["micropip path"]["cold_tti_ms"]),
                    seconds(row["snapshot path"]["cold_tti_ms"]),
                    f"{seconds(row['default policy']['cold_tti_ms'])} ({row['default policy']['path']})",
                    str(row["default policy"]["connection"]),
                    *(seconds(row[name]["cold_tti_ms"]) for name in baseline),
                ]
            )
        header = [
            "network",
            "bare",
            "micropip",
            "snapshot",
            "default policy",
            "effectiveType",
            *baseline,
        ]
        out += ["", "Cold loads under DevTools throttling", table(rows, header)]
    for key, title in (("play", "this build"), ("play_baseline", "the baseline build")):
        if results.get(key):
            out += play_report(results[key], title)
    return "\n".join(out)


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
