"""The tests' Chromium does what tools/harness/browser.py's flags ask: no omnibox popup loaded beside each page, and
no optimizing compiles of WebAssembly. A later Chromium may rename a feature or a flag and quietly ignore the old
name; the browser tests would then take about 40 % longer and still pass. A Chromium launched without the two flags
is the control: the same trace of the same game shows both there."""

from __future__ import annotations

import json

from pagedriver import keyboard, loaded_page, play_to_end, short_practice_seeds, start_from_menu

from tools.harness.browser import CHROMIUM_ARGS, NO_OMNIBOX_POPUP, WASM_BASELINE_ONLY

# The trace's categories that record a page's loads (the popup's URL) and V8's WebAssembly compiles.
CATEGORIES = ["loading", "v8.wasm"]
POPUP_URL = "chrome://omnibox-popup"
TOP_TIER_COMPILE = "wasm.TopTierCompilation"


def traced_game(browser, context_in, seed: int, trace_file) -> dict:
    """A new context of `browser`, a page loaded and a short game played, all traced: how many of the trace's
    events name the omnibox popup's page, and how many are optimizing compiles of WebAssembly."""
    browser.start_tracing(path=str(trace_file), categories=CATEGORIES)
    try:
        with loaded_page(context_in(browser)) as page:
            start_from_menu(page, mode="new", speed="fast", deal=seed)
            play_to_end(page, keyboard(page), reaction_ms=300)
    finally:
        browser.stop_tracing()
    trace = json.loads(trace_file.read_text())
    events = trace["traceEvents"] if isinstance(trace, dict) else trace
    return {
        "popup": sum(POPUP_URL in json.dumps(event.get("args", {})) for event in events),
        "top tier": sum(event.get("name") == TOP_TIER_COMPILE for event in events),
    }


def test_no_omnibox_popup_and_no_optimizing_wasm_compiles_where_the_control_has_both(
    browser, launch_chromium, context_in, tmp_path
) -> None:
    assert NO_OMNIBOX_POPUP in CHROMIUM_ARGS and WASM_BASELINE_ONLY in CHROMIUM_ARGS
    seed = short_practice_seeds(1)[0]
    control_args = [
        arg for arg in CHROMIUM_ARGS if arg not in (NO_OMNIBOX_POPUP, WASM_BASELINE_ONLY)
    ]
    control = launch_chromium(control_args)
    try:
        unflagged = traced_game(control, context_in, seed, tmp_path / "control.json")
    finally:
        control.close()
    assert unflagged["popup"] > 0 and unflagged["top tier"] > 0, unflagged
    assert traced_game(browser, context_in, seed, tmp_path / "tests.json") == {
        "popup": 0,
        "top tier": 0,
    }
