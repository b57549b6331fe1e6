#!/usr/bin/env python3
"""Two bundled scripts or sixty modules (issue 21): a fresh page's load, side by side in one run.

    python benchmarks/page_script.py [--runs 8]

One build, served with two pages: index.html as built, which runs the page's modules bundled into two classic
scripts (js/engine-start.js and js/bundle.js, tools/builder/bundle.py), and modules.html, the same page running its
modules one by one as before the bundle (js/engine/start.js and js/app/main.js, which dist/ still holds as written, with the modulepreload
hints the page had then). Every load is a fresh browser context (an empty cache, as each browser test has) on the
snapshot path (as the tests load), the two pages alternating; once in Chromium as the tests start it (lazy
WebAssembly compilation) and once with Chromium's defaults. Prints each mark's median (ms from navigation) and
the ratio of the times to ready.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys

from common import CHROMIUM, CHROMIUM_ARGS, load_build_module
from page.scripts import page_script
from page.serve import served_site

# The browser tests' Chromium, lazy WebAssembly included (common puts the checkout on the path).
from tools.harness.browser import CHROMIUM_ARGS as TESTS_CHROMIUM_ARGS

ENGINE_START_TAG = '<script async src="./js/engine-start.js"></script>'
BUNDLE_TAG = '<script defer src="./js/bundle.js"></script>'
MODULE_TAGS = "\n".join(
    [
        *(
            f'<link rel="modulepreload" href="./{path}">'
            for path in (
                "js/app/main.js",
                "js/engine/loader.js",
                "js/engine/downloads.js",
                "js/engine/load-path.js",
                "js/engine/progress.js",
                "common/host.js",
                "js/engine/loader-store.js",
                "js/base/local-store.js",
            )
        ),
        '<script type="module" async src="./js/engine/start.js"></script>',
        '<script type="module" src="./js/app/main.js"></script>',
    ]
)
SNAPSHOT_QUERY = "?load=snapshot"  # the path the browser tests load by (web/js/engine/load-path.js)
MARKS = ("load-start", "load-path-chosen", "snapshot-read", "restored", "ready")
READY = "window.__bench && window.__bench.readyAt !== null"
FACTS = """() => Object.fromEntries([
  ...performance.getEntriesByType("mark").map((m) => [m.name.replace(/^ewar:/, ""), m.startTime]),
  ["ready", window.__bench.readyAt],
  ["requests", performance.getEntriesByType("resource").length + 1],
])"""


def modules_page(index_html: str) -> str:
    if index_html.count(BUNDLE_TAG) != 1 or index_html.count(ENGINE_START_TAG) != 1:
        raise SystemExit(
            "dist/index.html does not load js/engine-start.js and js/bundle.js once: rebuild, or update this"
            " benchmark"
        )
    return index_html.replace(ENGINE_START_TAG, "").replace(BUNDLE_TAG, MODULE_TAGS)


def one_load(browser, url: str) -> dict:
    context = browser.new_context(service_workers="block", bypass_csp=True)
    context.add_init_script(script=page_script("init.js"))
    try:
        page = context.new_page()
        page.goto(url + SNAPSHOT_QUERY, wait_until="commit")
        page.wait_for_function(READY, timeout=120_000)
        return page.evaluate(FACTS)
    finally:
        context.close()


def run(playwright, base: str, args: list[str], runs: int) -> dict[str, list[dict]]:
    browser = playwright.chromium.launch(executable_path=CHROMIUM, args=args, headless=True)
    seen: dict[str, list[dict]] = {"bundle": [], "modules": []}
    try:
        one_load(browser, base)  # Chromium's own start-up, counted in neither
        for _ in range(runs):
            seen["bundle"].append(one_load(browser, base))
            seen["modules"].append(one_load(browser, base + "modules.html"))
    finally:
        browser.close()
    return seen


def medians(rows: list[dict]) -> dict[str, float]:
    return {key: statistics.median(row[key] for row in rows) for key in (*MARKS, "requests")}


def main() -> int:
    from playwright.sync_api import sync_playwright

    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument(
        "--runs", type=int, default=8, help="loads of each page per Chromium setting"
    )
    runs = options.parse_args().runs
    print(
        f"load average before: {' '.join(f'{v:.2f}' for v in os.getloadavg())} ({os.cpu_count()} cores)"
    )
    builder = load_build_module()
    with served_site(builder) as (base, site), sync_playwright() as playwright:
        (site / "modules.html").write_text(modules_page((site / "index.html").read_text()))
        settings = {
            "tests' Chromium (lazy wasm)": TESTS_CHROMIUM_ARGS,
            "Chromium's defaults": CHROMIUM_ARGS,
        }
        results = {name: run(playwright, base, args, runs) for name, args in settings.items()}
    print(f"\nA fresh page on the snapshot path, median of {runs} loads each (ms from navigation):")
    print(f"  {'':<30}{'page':<9}" + "".join(f"{mark:>17}" for mark in (*MARKS, "requests")))
    for name, seen in results.items():
        table = {page: medians(rows) for page, rows in seen.items()}
        for page, row in table.items():
            cells = "".join(f"{row[key]:17.0f}" for key in (*MARKS, "requests"))
            print(f"  {name:<30}{page:<9}{cells}")
        ratio = table["bundle"]["ready"] / table["modules"]["ready"]
        print(f"  {'':<30}ready: bundle / modules = {ratio:.2f}")
    print(f"\nload average after: {' '.join(f'{v:.2f}' for v in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
