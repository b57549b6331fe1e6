"""The two ways the page loads the engine: the build-time memory snapshot and micropip, and the fallback.

Each test opens the game in its own browser context with service workers blocked (the worker's precaching is
another test file's subject, and would only compete for the CPU here). `?load=snapshot|micropip` forces a path;
without it the loader's policy decides (see web/js/loader.js, chooseSnapshot).
"""

from __future__ import annotations

import gzip
import hashlib
import json
from collections.abc import Iterator

import pytest

READY_MS = 120_000


@pytest.fixture
def quiet_context(browser, server_url: str) -> Iterator[object]:
    fresh = browser.new_context(base_url=server_url, service_workers="block")
    try:
        yield fresh
    finally:
        fresh.close()


@pytest.fixture
def tab(quiet_context) -> Iterator[object]:
    page = quiet_context.new_page()
    try:
        yield page
    finally:
        page.close()


def open_game(page, query: str = "") -> dict:
    """Loads the page and waits until it is ready; answers window.ewar.engine (path, reason, version)."""
    page.goto("/" + query)
    page.wait_for_function(
        "['ready', 'error'].includes(document.body.dataset.state)", timeout=READY_MS
    )
    state = page.evaluate("document.body.dataset.state")
    assert state == "ready", page.inner_text('[data-testid="load-error"]')
    return page.evaluate("({ ...window.ewar.engine, buildInfo: undefined })")


def phases_shown(page) -> list[str]:
    return page.eval_on_selector_all(
        "#phases li", "items => items.filter((li) => !li.hidden).map((li) => li.dataset.phase)"
    )


def flip_and_slap(page) -> dict:
    """Starts a slow practice deal, flips with Enter on the human's turn, slaps with Space; the engine's record."""
    page.evaluate("window.ewar.newGame({ mode: 'practice', seed: 42, speed: 'slow' })")
    page.wait_for_function(
        "window.ewar.view().your_turn || window.ewar.view().over", timeout=60_000
    )
    assert not page.evaluate("window.ewar.view().over")
    cards = page.evaluate("window.ewar.view().seats[0].cards")
    page.keyboard.press("Enter")
    page.wait_for_function(f"window.ewar.view().seats[0].cards < {cards}", timeout=10_000)
    before = page.evaluate("window.ewar.view()")
    page.keyboard.press(" ")
    page.wait_for_function(
        f"window.ewar.view().wrong_slaps + window.ewar.view().piles_slapped > "
        f"{before['wrong_slaps'] + before['piles_slapped']}",
        timeout=10_000,
    )
    replay = json.loads(page.evaluate("window.ewar.replay()"))
    return replay


def bad_build_info(page, change) -> None:
    """Serves the build's own build-info.json with `change(info)` applied."""

    def handle(route) -> None:
        response = route.fetch()
        info = response.json()
        change(info)
        route.fulfill(response=response, body=json.dumps(info))

    page.route("**/build-info.json", handle)


# ---------------------------------------------------------------------------------------------
# What the build makes


def test_build_info_names_a_snapshot_that_matches_its_file(dist_dir, build_info):
    snapshot = build_info["snapshot"]
    assert snapshot["file"].startswith("pyodide/engine-") and snapshot["encoding"] == "gzip"
    raw = gzip.decompress((dist_dir / snapshot["file"]).read_bytes())
    assert len(raw) == snapshot["size"]
    assert hashlib.sha256(raw).hexdigest() == snapshot["sha256"]
    assert snapshot["pyodide_version"] == build_info["pyodide_version"]
    assert snapshot["engine_version"] == build_info["engine_version"]
    wheel = (dist_dir / build_info["engine_wheel"]).read_bytes()
    assert snapshot["engine_wheel_sha256"] == hashlib.sha256(wheel).hexdigest()
    # Pyodide 314 restores only snapshots of its default 30 MiB heap (pyodide#6254).
    assert snapshot["size"] <= 30 * 2**20 + 4096


# ---------------------------------------------------------------------------------------------
# Both paths load and play


def test_snapshot_path_loads_and_plays(tab, build_info):
    engine = open_game(tab, "?load=snapshot")
    assert engine["path"] == "snapshot", engine
    assert engine["version"] == build_info["engine_version"]
    assert phases_shown(tab) == ["runtime", "engine"]  # no package installer on this path
    assert tab.get_attribute("#progress", "aria-valuenow") == "100"
    fetched = tab.evaluate("performance.getEntriesByType('resource').map((r) => r.name)")
    assert any(name.endswith(build_info["snapshot"]["file"]) for name in fetched)
    assert not any(name.endswith(".whl") for name in fetched)  # neither micropip nor the wheel
    actions = [kind for _t, kind in flip_and_slap(tab)["actions"]]
    assert "f" in actions and "s" in actions


def test_micropip_path_loads_and_plays(tab, build_info):
    engine = open_game(tab, "?load=micropip")
    assert engine["path"] == "micropip", engine
    assert engine["version"] == build_info["engine_version"]
    assert phases_shown(tab) == ["runtime", "micropip", "engine"]
    assert tab.get_attribute("#progress", "aria-valuenow") == "100"
    assert engine["installer"] == "micropip"  # the engine wheel went through micropip.install
    fetched = tab.evaluate("performance.getEntriesByType('resource').map((r) => r.name)")
    assert not any(name.endswith(build_info["snapshot"]["file"]) for name in fetched)
    # Each wheel is downloaded once, alongside the runtime, not again by Pyodide or micropip.
    wheels = sorted(name.rsplit("/", 1)[-1] for name in fetched if name.endswith(".whl"))
    assert wheels == sorted(
        path.rsplit("/", 1)[-1]
        for path in (build_info["micropip_wheel"], build_info["engine_wheel"])
    )
    actions = [kind for _t, kind in flip_and_slap(tab)["actions"]]
    assert "f" in actions and "s" in actions


def test_both_paths_deal_the_same_game(quiet_context):
    views = []
    for query in ("?load=snapshot", "?load=micropip"):
        page = quiet_context.new_page()
        open_game(page, query)
        views.append(
            page.evaluate(
                "JSON.stringify(window.ewar.newGame({ mode: 'practice', seed: 7, speed: 'fast' }))"
            )
        )
        page.close()
    assert views[0] == views[1]


# ---------------------------------------------------------------------------------------------
# A snapshot that does not match falls back to micropip


@pytest.mark.parametrize(
    "change, why",
    [
        (lambda info: info["snapshot"].update(sha256="0" * 64), "sha256"),
        (lambda info: info["snapshot"].update(size=info["snapshot"]["size"] - 8), "larger"),
        (lambda info: info["snapshot"].update(pyodide_version="0.0.1"), "made for Pyodide"),
        (
            lambda info: info["snapshot"].update(file="pyodide/engine-missing.snapshot.gz"),
            "HTTP 404",
        ),
    ],
    ids=["wrong-sha", "wrong-size", "other-pyodide", "missing-file"],
)
def test_mismatched_snapshot_falls_back_to_micropip(tab, change, why):
    bad_build_info(tab, change)
    engine = open_game(tab, "?load=snapshot")
    assert engine["path"] == "micropip"
    assert engine["reason"].startswith("snapshot failed") and why in engine["reason"], engine
    assert phases_shown(tab) == ["runtime", "micropip", "engine"]
    actions = [kind for _t, kind in flip_and_slap(tab)["actions"]]
    assert "f" in actions and "s" in actions


def test_corrupted_snapshot_bytes_fall_back_to_micropip(tab, dist_dir, build_info):
    packed = bytearray((dist_dir / build_info["snapshot"]["file"]).read_bytes())
    middle = len(packed) // 2
    packed[middle : middle + 64] = bytes(64)  # gzip's CRC-32 (or the inflater) notices

    tab.route(
        "**/" + build_info["snapshot"]["file"],
        lambda route: route.fulfill(body=bytes(packed), content_type="application/octet-stream"),
    )
    engine = open_game(tab, "?load=snapshot")
    assert engine["path"] == "micropip"
    assert engine["reason"].startswith("snapshot failed"), engine


def test_a_build_without_a_snapshot_uses_micropip(tab):
    bad_build_info(tab, lambda info: info.pop("snapshot"))
    engine = open_game(tab, "?load=snapshot")
    assert engine == {**engine, "path": "micropip", "reason": "no snapshot in this build"}


# ---------------------------------------------------------------------------------------------
# The policy without a forced path


def test_first_visit_without_a_speed_estimate_takes_micropip_then_repeats_take_the_snapshot(
    quiet_context,
):
    first = quiet_context.new_page()
    # A fresh headless profile has no network-quality estimate above Chromium's default (~1.4 Mbps).
    assert open_game(first)["path"] == "micropip"
    first.close()
    forced = quiet_context.new_page()
    assert open_game(forced, "?load=snapshot")["path"] == "snapshot"
    forced.close()
    again = quiet_context.new_page()
    engine = open_game(again)
    assert (engine["path"], engine["reason"]) == ("snapshot", "snapshot loaded before")
    again.close()


def test_a_fast_connection_takes_the_snapshot_on_a_first_visit(tab):
    cdp = tab.context.new_cdp_session(tab)
    cdp.send("Network.enable")
    rate = 200_000_000 / 8  # 200 Mbps: navigator.connection then reports downlink 10 (its cap)
    cdp.send(
        "Network.emulateNetworkConditions",
        {"offline": False, "latency": 1, "downloadThroughput": rate, "uploadThroughput": rate},
    )
    engine = open_game(tab)
    assert (engine["path"], engine["reason"]) == ("snapshot", "fast connection")


def test_a_slow_connection_takes_micropip_on_a_first_visit(tab):
    cdp = tab.context.new_cdp_session(tab)
    cdp.send("Network.enable")
    rate = 4_000_000 / 8  # 4 Mbps: navigator.connection reports downlink 4
    cdp.send(
        "Network.emulateNetworkConditions",
        {"offline": False, "latency": 20, "downloadThroughput": rate, "uploadThroughput": rate},
    )
    tab.goto("/")
    chosen = "performance.getEntriesByName('ewar:load-path-chosen')[0]?.detail ?? null"
    tab.wait_for_function(chosen, timeout=READY_MS)
    # The choice is made: the rest may arrive at loopback speed.
    cdp.send(
        "Network.emulateNetworkConditions",
        {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1},
    )
    assert tab.evaluate(chosen) == {
        "snapshot": False,
        "reason": "first visit, connection not known to be fast",
    }
    tab.wait_for_function("document.body.dataset.state === 'ready'", timeout=READY_MS)
    assert tab.evaluate("window.ewar.engine.path") == "micropip"
