"""One page visit in Chromium as the benchmarks make it: a fresh persistent profile, the wait until the page
is ready and its load facts, the wait for the worker's precache."""

from __future__ import annotations

import contextlib
import tempfile
import time
from collections.abc import Iterator

from common import CHROMIUM, CHROMIUM_ARGS

from .scripts import page_script

READY_TIMEOUT_MS = 180_000
READY_OR_ERROR = "window.__bench && (window.__bench.readyAt !== null || document.body?.dataset.state === 'error')"


@contextlib.contextmanager
def fresh_profile(browser_type, service_workers: str) -> Iterator:
    """A persistent context over an empty profile, with js/init.js before every page and the site's
    Content-Security-Policy set aside (as in the tests). Persistent, because its disk cache is what a
    player's browser has: an incognito context's in-memory cache does not keep the wasm."""
    with tempfile.TemporaryDirectory(prefix="ewar-profile-") as profile:
        context = browser_type.launch_persistent_context(
            profile,
            executable_path=CHROMIUM,
            args=CHROMIUM_ARGS,
            headless=True,
            service_workers=service_workers,
            bypass_csp=True,  # Playwright's string predicates are evaluated in the page; loading is unchanged
        )
        context.add_init_script(page_script("init.js"))
        try:
            yield context
        finally:
            context.close()


def load(page, url: str) -> dict:
    """Navigate, wait until the body says "ready" (or "error": then raise) and return js/load_facts.js's facts."""
    page.goto(url, wait_until="commit")
    page.wait_for_function(READY_OR_ERROR, timeout=READY_TIMEOUT_MS)
    facts = page.evaluate(page_script("load_facts.js"))
    if facts["ready"] is None:
        raise RuntimeError(f"{url} did not become ready: {page.inner_text('body')[:300]}")
    return facts


def wait_for_precache(page, poll_ms: float) -> dict | None:
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
        page.wait_for_timeout(poll_ms)
