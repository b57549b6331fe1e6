"""The two ways the page loads the engine: the build-time memory snapshot and micropip, and the fallback.

Each test opens the game in its own browser context with service workers blocked (the worker's precaching is
another test file's subject, and would only compete for the CPU here). `?load=snapshot|micropip` forces a path;
without it the loader's policy decides (web/js/engine/load-path.js, chooseSnapshot). Each path loads and plays
once, and every kind of failed snapshot falls back all the way to a game; the policy's tests stop once the
loader has chosen, which is what they are about.
"""

from __future__ import annotations

import gzip
import hashlib
import json
from collections.abc import Iterator

import pytest
from pagedriver import (
    fake_connection,
    freeze_time,
    half_of_the_file,
    on_test_time,
    run_until,
    wait_for,
)

READY_MS = 120_000


@pytest.fixture
def quiet_context(browser, server_url: str) -> Iterator[object]:
    fresh = browser.new_context(base_url=server_url, service_workers="block", bypass_csp=True)
    on_test_time(fresh)  # its games play on test time (flip_and_slap)
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


def loaded_by(browser, server_url: str, path: str) -> Iterator[tuple[object, dict]]:
    """A page loaded with ?load=path in a context of its own, and its window.ewar.engine."""
    fresh = browser.new_context(base_url=server_url, service_workers="block", bypass_csp=True)
    on_test_time(fresh)  # its games play on test time (flip_and_slap)
    try:
        page = fresh.new_page()
        engine = open_game(page, f"?load={path}")
        yield page, engine
    finally:
        fresh.close()


@pytest.fixture(scope="module")
def snapshot_tab(browser, server_url: str) -> Iterator[tuple[object, dict]]:
    yield from loaded_by(browser, server_url, "snapshot")


@pytest.fixture(scope="module")
def micropip_tab(browser, server_url: str) -> Iterator[tuple[object, dict]]:
    yield from loaded_by(browser, server_url, "micropip")


CHOSEN = "performance.getEntriesByName('ewar:load-path-chosen')[0]?.detail ?? null"


def chosen_path(page, query: str = "") -> dict:
    """Opens the page and waits only until the loader has chosen its path: {snapshot, reason}."""
    page.goto("/" + query, wait_until="commit")
    return page.wait_for_function(CHOSEN, timeout=READY_MS).json_value()


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
    """Starts a slow practice deal on test time, flips with Enter on the human's turn, slaps with Space; the
    engine's record."""
    freeze_time(page)
    page.evaluate("window.ewar.newGame({ mode: 'practice', seed: 42, speed: 'slow' })")
    run_until(page, "window.ewar.view().your_turn || window.ewar.view().over")
    assert not page.evaluate("window.ewar.view().over")
    cards = page.evaluate("window.ewar.view().seats[0].cards")
    page.keyboard.press("Enter")
    assert page.evaluate("window.ewar.view().seats[0].cards") == cards - 1
    before = page.evaluate("window.ewar.view()")
    page.keyboard.press(" ")
    after = page.evaluate("window.ewar.view()")
    assert (
        after["wrong_slaps"] + after["piles_slapped"]
        == before["wrong_slaps"] + before["piles_slapped"] + 1
    )
    return json.loads(page.evaluate("window.ewar.replay()"))


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


def test_snapshot_path_loads_and_plays(snapshot_tab, build_info):
    tab, engine = snapshot_tab
    assert engine["path"] == "snapshot", engine
    assert engine["version"] == build_info["engine_version"]
    assert phases_shown(tab) == ["runtime", "engine"]  # no package installer on this path
    assert tab.get_attribute("#progress", "aria-valuenow") == "100"
    fetched = tab.evaluate("performance.getEntriesByType('resource').map((r) => r.name)")
    assert any(name.endswith(build_info["snapshot"]["file"]) for name in fetched)
    assert not any(name.endswith(".whl") for name in fetched)  # neither micropip nor the wheel
    actions = [kind for _t, kind in flip_and_slap(tab)["actions"]]
    assert "f" in actions and "s" in actions


def test_micropip_path_loads_and_plays(micropip_tab, build_info):
    tab, engine = micropip_tab
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
        for path in (build_info["micropip_wheel"], build_info["page_engine_wheel"])
    )
    # The benchmarks' floor (benchmarks/device_snapshot.py): Pyodide's own start ends before micropip's work.
    marks = tab.evaluate(
        "Object.fromEntries(performance.getEntriesByType('mark').map((m) => [m.name, m.startTime]))"
    )
    assert (
        marks["ewar:plain-runtime-start"]
        < marks["ewar:plain-runtime-ready"]
        <= marks["ewar:micropip-done"]
    ), marks
    actions = [kind for _t, kind in flip_and_slap(tab)["actions"]]
    assert "f" in actions and "s" in actions


def test_both_paths_deal_the_same_game(snapshot_tab, micropip_tab):
    deal = "JSON.stringify(window.ewar.newGame({ mode: 'practice', seed: 7, speed: 'fast' }))"
    assert snapshot_tab[0].evaluate(deal) == micropip_tab[0].evaluate(deal)


# ---------------------------------------------------------------------------------------------
# A snapshot that does not match falls back to micropip


@pytest.mark.parametrize(
    "change, why",
    [
        (lambda info: info["snapshot"].update(pyodide_version="0.0.1"), "made for Pyodide"),
        (
            lambda info: info["snapshot"].update(file="pyodide/engine-missing.snapshot.gz"),
            "HTTP 404",
        ),
    ],
    ids=["other-pyodide", "missing-file"],
)
def test_mismatched_snapshot_falls_back_to_micropip(tab, change, why):
    """The snapshot fails before Pyodide starts (made for another one), or while Pyodide waits for its bytes
    (not there; corrupted bytes below fail in the middle of their download): the plain load after it must work
    from each point, all the way to a game."""
    bad_build_info(tab, change)
    engine = open_game(tab, "?load=snapshot")
    assert engine["path"] == "micropip"
    assert engine["reason"].startswith("snapshot failed") and why in engine["reason"], engine
    assert phases_shown(tab) == ["runtime", "micropip", "engine"]
    actions = [kind for _t, kind in flip_and_slap(tab)["actions"]]
    assert "f" in actions and "s" in actions


@pytest.mark.parametrize(
    "change, why",
    [
        (lambda info: info["snapshot"].update(sha256="0" * 64), "sha256"),
        (lambda info: info["snapshot"].update(size=info["snapshot"]["size"] - 8), "larger"),
    ],
    ids=["wrong-sha", "wrong-size"],
)
def test_snapshot_bytes_are_checked_against_build_info(tab, change, why):
    """The snapshot's size and sha256 are checked as it arrives; a mismatch fails it at the point corrupted
    bytes do (tested to a game below), and the loader says why and turns to micropip."""
    bad_build_info(tab, change)
    with tab.expect_console_message(
        lambda message: message.text.startswith("ewar: memory snapshot not used"), timeout=READY_MS
    ) as warning:
        tab.goto("/?load=snapshot", wait_until="commit")
    assert why in warning.value.text and warning.value.text.endswith("; loading with micropip")
    assert phases_shown(tab) == ["runtime", "micropip", "engine"]


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
    assert phases_shown(tab) == ["runtime", "micropip", "engine"]
    actions = [kind for _t, kind in flip_and_slap(tab)["actions"]]  # all the way to a game
    assert "f" in actions and "s" in actions


def test_a_build_without_a_snapshot_uses_micropip(tab):
    bad_build_info(tab, lambda info: info.pop("snapshot"))
    assert chosen_path(tab, "?load=snapshot") == {
        "snapshot": False,
        "reason": "no snapshot in this build",
    }


# ---------------------------------------------------------------------------------------------
# The policy without a forced path


def test_a_first_visit_takes_micropip_then_repeats_take_the_snapshot_once_loaded(quiet_context):
    first = quiet_context.new_page()
    assert chosen_path(first) == {"snapshot": False, "reason": "snapshot not made yet"}
    first.close()
    forced = quiet_context.new_page()
    assert (
        open_game(forced, "?load=snapshot")["path"] == "snapshot"
    )  # remembered once it has loaded
    forced.close()
    again = quiet_context.new_page()
    assert chosen_path(again) == {"snapshot": True, "reason": "snapshot loaded before"}
    again.close()


@pytest.mark.parametrize(
    "link",
    [
        {"effectiveType": "4g", "downlink": 10, "rtt": 0},
        {"effectiveType": "3g", "downlink": 0.7, "rtt": 300},
    ],
    ids=["fast", "slow"],
)
def test_a_first_visit_takes_micropip_whatever_the_connection(tab, link):
    # Fast: navigator.connection's downlink at its cap (10), the "fast connection" of load-path.js. The snapshot
    # would still more than double the first visit's bytes (the 5 MB budget of issue 15).
    tab.add_init_script(fake_connection(**link, saveData=False))
    assert chosen_path(tab) == {"snapshot": False, "reason": "snapshot not made yet"}
    assert tab.evaluate("navigator.connection.downlink") == link["downlink"]


# ---------------------------------------------------------------------------------------------
# The snapshot this device makes (web/worker/snapshot-maker.js, web/js/engine/device-snapshot.js)

# Runs the maker's worker as the page does after a micropip visit, and answers what it said.
MAKE_ON_DEVICE = """
async () => {
  const info = window.ewar.engine.buildInfo;
  const worker = new Worker("js/snapshot-maker.js");
  const answer = await new Promise((resolve) => {
    worker.onmessage = (event) => resolve(event.data);
    worker.onerror = (event) => resolve({ made: false, error: event.message });
    worker.postMessage({ base: document.baseURI, key: info.device_snapshot_key, engineWheel: info.page_engine_wheel,
      pyodideVersion: info.pyodide_version, engineVersion: info.engine_version });
  });
  worker.terminate();
  return answer;
}
"""
# Rewrites the kept snapshot: `how` is "damage" (a byte of its body changed) or "rekey" (made for another key).
CHANGE_KEPT = """
async (how) => {
  const cache = await caches.open("ewar.device-snapshot");
  const url = new URL("device-snapshot.bin", document.baseURI).href;
  const hit = await cache.match(url);
  const body = new Uint8Array(await hit.arrayBuffer());
  const headers = new Headers(hit.headers);
  if (how === "damage") body[body.length >> 1] ^= 0xff;
  else headers.set("x-ewar-snapshot-key", "0000000000000000");
  await cache.put(url, new Response(body, { headers }));
}
"""
KEPT_KEY = """
caches.open("ewar.device-snapshot")
  .then((cache) => cache.match(new URL("device-snapshot.bin", document.baseURI).href))
  .then((hit) => hit?.headers.get("x-ewar-snapshot-key") ?? null)
"""


def engine_of(page) -> list:
    return page.evaluate(
        "[window.ewar.engine.path, window.ewar.engine.reason, window.ewar.engine.origin]"
    )


def visit(context, query: str = "") -> tuple[object, dict]:
    """A new page of the same browser (its Cache Storage and localStorage), loaded: (page, engine)."""
    page = context.new_page()
    return page, open_game(page, query)


def play_and_close(page) -> None:
    """Flips and slaps through the bridge (on test time: the page is closed after it)."""
    actions = [kind for _t, kind in flip_and_slap(page)["actions"]]
    assert "f" in actions and "s" in actions
    page.close()


def made_on_device(page, build_info) -> dict:
    made = page.evaluate(MAKE_ON_DEVICE)
    assert made["made"] is True, made
    assert made["key"] == build_info["device_snapshot_key"]
    assert (
        made["kept"] < made["size"] <= 30 * 2**20 + 4096
    )  # its zero pages left out; a restorable heap
    return made


def test_a_snapshot_made_on_the_device_is_restored_on_the_next_visit(quiet_context, build_info):
    first, _ = visit(quiet_context, "?load=micropip")
    made_on_device(first, build_info)
    fetched = first.evaluate("performance.getEntriesByType('resource').map((r) => r.name)")
    assert not any(name.endswith(".gz") for name in fetched)  # made, not downloaded
    first.close()

    # The next visit restores it, downloads neither a snapshot nor a wheel, and plays.
    second, engine = visit(quiet_context)
    assert (engine["path"], engine["reason"], engine["origin"]) == (
        "snapshot",
        "snapshot made on this device",
        "device",
    )
    assert phases_shown(second) == ["runtime", "engine"]
    fetched = second.evaluate("performance.getEntriesByType('resource').map((r) => r.name)")
    assert not any(name.endswith((".gz", ".whl")) for name in fetched), fetched
    play_and_close(second)  # the test clock stays with the context: its last page


def test_a_devices_snapshot_made_for_another_build_or_damaged_falls_back_to_micropip(
    quiet_context, build_info
):
    first, _ = visit(quiet_context, "?load=micropip")
    made_on_device(first, build_info)
    # Made for another build (its wheel or runtime): never restored, and removed at once.
    first.evaluate(CHANGE_KEPT, "rekey")
    first.close()
    second = quiet_context.new_page()
    assert chosen_path(second) == {"snapshot": False, "reason": "snapshot not made yet"}
    wait_for(second, f"({KEPT_KEY}).then((key) => key === null)")
    wait_ready_here = "document.body.dataset.state === 'ready'"
    second.wait_for_function(wait_ready_here, timeout=READY_MS)

    # Damaged in Cache Storage: its sha256 fails, micropip loads and plays, the copy is removed and not made
    # again for this build.
    made_on_device(second, build_info)
    second.evaluate(CHANGE_KEPT, "damage")
    second.close()
    third, engine = visit(quiet_context)
    assert engine["path"] == "micropip" and "damaged" in engine["reason"], engine
    assert third.evaluate(KEPT_KEY) is None
    failed = third.evaluate("localStorage.getItem('ewar.deviceSnapshotFailed')")
    assert failed == build_info["device_snapshot_key"]
    play_and_close(third)


def test_a_runtime_cut_off_on_a_repeat_visit_is_said_and_the_devices_snapshot_kept(
    quiet_context, build_info
):
    """The runtime's WebAssembly failing under a restore is no fault of the snapshot's: the page says which file
    failed, keeps the device's snapshot, and restores it on the next visit."""
    first, _ = visit(quiet_context, "?load=micropip")
    made_on_device(first, build_info)
    first.close()
    second = quiet_context.new_page()
    second.route("**/pyodide/pyodide.asm.wasm", half_of_the_file)
    second.goto("/", wait_until="commit")
    second.wait_for_function("document.body?.dataset.state === 'error'", timeout=READY_MS)
    assert "pyodide/pyodide.asm.wasm" in second.inner_text('[data-testid="load-error"]')
    assert second.evaluate(KEPT_KEY) == build_info["device_snapshot_key"]
    assert second.evaluate("localStorage.getItem('ewar.deviceSnapshotFailed')") is None
    second.close()
    third, engine = visit(quiet_context)
    assert engine_of(third) == ["snapshot", "snapshot made on this device", "device"], engine
    play_and_close(third)
