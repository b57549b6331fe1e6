"""One run of the page benchmarks: the site served, then the first visits and/or the load paths and play."""

from __future__ import annotations

import argparse
import contextlib

from common import CHROMIUM, CHROMIUM_ARGS, load_build_module

from .first_visit import measure_first_visits
from .latency import play_for_latency
from .load_paths import LOAD_VARIANTS, measure_loads
from .serve import served_site


def run(options: argparse.Namespace) -> dict:
    """Everything the command line's options ask for, as one dict of results (what --json writes)."""
    from playwright.sync_api import sync_playwright

    builder = load_build_module()
    results: dict = {"runs": options.runs, "variants": {}, "throttled": {}}
    variants = dict(LOAD_VARIANTS)
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


def measure(options, results: dict, variants: dict, url: str, site, playwright) -> None:
    """Loads every variant in turn, then the service-worker visit, throttled loads and play."""
    browser = playwright.chromium.launch(
        executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True
    )
    try:
        measure_loads(browser, results, variants, url, site, options.runs, options.throttle)
        if options.inputs:
            results["play"] = play_for_latency(browser, url, options.inputs, options.play_seconds)
            if options.baseline:
                baseline_url = variants["baseline snapshot path"].split("?")[0]
                results["play_baseline"] = play_for_latency(
                    browser, baseline_url, options.inputs, options.play_seconds
                )
    finally:
        browser.close()
