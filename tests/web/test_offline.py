"""Offline play: after one visit the service worker serves the whole game with no network, a new
deploy is offered at the next pause and taken only on the player's reload, and the app installs."""

from __future__ import annotations

import importlib.util
import json
import re
import struct
import tempfile
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from pagedriver import (
    PRECACHED,
    SNAPSHOT_PATH,
    fake_connection,
    lose_by_wrong_slaps,
    on_test_clock,
    on_test_time,
    start_from_menu,
    wait_for,
    wait_ready,
    wait_until,
)

from tools.harness.build_module import copy_project

ROOT = Path(__file__).resolve().parents[2]
WORKER_MS = 60_000


CACHE_NAMES = "caches.keys()"
OFFER_STATE = """async () => {
  const r = await navigator.serviceWorker.getRegistration();
  return {status: await window.ewarOffline.status(), phase: document.body.dataset.state,
          installing: r?.installing?.state ?? null, waiting: r?.waiting?.state ?? null, active: r?.active?.state ?? null,
          controller: navigator.serviceWorker.controller?.state ?? null,
          banner: document.querySelector("[data-testid=update-banner]").hidden};
}"""
# What the worker serves each kind of file as (module scripts and instantiateStreaming insist).
SERVED_AS = {
    "pyodide/pyodide.asm.wasm": "application/wasm",
    "pyodide/pyodide.mjs": "text/javascript; charset=utf-8",
    "js/bundle.js": "text/javascript; charset=utf-8",
    "manifest.webmanifest": "application/manifest+json; charset=utf-8",
    "index.html": "text/html; charset=utf-8",
    "css/main.css": "text/css; charset=utf-8",
}
CONTENT_TYPES = """
async (paths) => {
  const types = {};
  for (const path of paths) {
    const response = await fetch(path);
    types[path] = response.ok ? response.headers.get("content-type") : `HTTP ${response.status}`;
  }
  return types;
}
"""
SCORES_API = re.compile(r"/api/scores\?")
# Resolves once the page has made this device's snapshot for the next visit (web/js/engine/device-snapshot.js).
SNAPSHOT_MADE = """
() => performance.getEntriesByName("ewar:device-snapshot-made")[0]?.detail
  ?? performance.getEntriesByName("ewar:device-snapshot-failed")[0]?.detail
"""


# The maker starts a few seconds after a first visit is ready, once the worker controls the page, at an idle moment
# (web/js/engine/device-snapshot.js), on the page's clock: its wait is pending.
MAKER_WAITS = """
() => Boolean(navigator.serviceWorker?.controller)
  && performance.getEntriesByName("ewar:device-snapshot-planned").length > 0
  && performance.getEntriesByName("ewar:device-snapshot-start").length === 0
"""
# At least device-snapshot.js's MAKE_DELAY_MS; then up to two jumps of 1 s for its idle wait (2 s at most).
MAKER_DELAY_MS = 5_000


def wait_snapshot_made(page) -> dict:
    """The figures of the page's own making of this device's snapshot, which must say it was made. On test time
    (on_test_time) the test moves the page's clock through the maker's wait instead of waiting it out."""
    jumps = 0

    def made() -> dict | None:
        nonlocal jumps
        if jumps < 3 and on_test_clock(page.context) and page.evaluate(MAKER_WAITS):
            page.clock.fast_forward(MAKER_DELAY_MS if jumps == 0 else 1_000)
            jumps += 1
        return page.evaluate(SNAPSHOT_MADE)

    answer = wait_until(page, made, timeout_ms=WORKER_MS, what="the device's snapshot made")
    assert answer["made"] is True, answer
    return answer


NO_CONNECTION = "delete Navigator.prototype.connection;"  # as in Safari and Firefox


def web_conftest():
    """tests/conftest.py by path (where the Chromium settings live; `conftest` is not importable)."""
    spec = importlib.util.spec_from_file_location(
        "ewar_tests_conftest", Path(__file__).parents[1] / "conftest.py"
    )
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def context(new_context):
    """A fresh context where the page may register its service worker (the subject of this file)."""
    return new_context(service_workers="allow")


PRACTICE_DEAL = 7  # any deal: the games played here end by wrong slaps (finish_game)


def wait_precached(page) -> dict:
    """First visit: the worker installs after the page is ready, claims it, and has every file."""
    status = page.evaluate(PRECACHED)
    assert status["controlled"], status
    assert status["complete"] and status["missing"] == [], status
    return status


def build_id(page) -> str:
    return page.evaluate("window.ewar.engine.buildInfo.build_id")


def track_responses(page) -> list[tuple[str, bool, int]]:
    """(url, served by the worker, status) of every response the page receives from now on."""
    seen: list[tuple[str, bool, int]] = []
    page.on("response", lambda r: seen.append((r.url, r.from_service_worker, r.status)))
    return seen


def go_offline_and_reload(
    context, page, origin: str, query: str = ""
) -> list[tuple[str, bool, int]]:
    context.set_offline(True)
    assert page.evaluate("navigator.onLine") is False
    responses = track_responses(page)
    if query:
        page.goto("/" + query)
    else:
        page.reload()
    wait_ready(page)
    ours = [r for r in responses if r[0].startswith(origin)]
    assert ours, "the offline reload loaded nothing"
    not_from_worker = [r for r in ours if not r[1] or r[2] != 200]
    assert not_from_worker == [], not_from_worker
    return ours


def finish_game(page) -> dict:
    """The game played to its end the short way (wrong slaps until you are out), its result shown."""
    view = lose_by_wrong_slaps(page, tries=200)
    assert view["over"] and view["result"] is not None, view
    page.wait_for_function("document.body.dataset.state === 'over'")
    assert page.is_visible("[data-testid=result]")
    return view


# ---------------------------------------------------------------------------------------------
# Playing with no network


@pytest.fixture(scope="module")
def visited(browser, server_url: str) -> Iterator[tuple[object, object]]:
    """(context, page) after a first visit, once the worker controls the page with its whole cache: shared by
    the tests that go offline from there (each comes back online). The loader makes its own choice of path
    (nothing forced): micropip on this first visit, and the worker does not download the build's snapshot. The
    page then makes this device's own for the next visit, though the browser asks to save data (it costs no
    bytes)."""
    context = browser.new_context(base_url=server_url, bypass_csp=True)
    context.add_init_script(fake_connection(saveData=True, effectiveType="4g", downlink=10))
    on_test_time(context)  # its games play on test time
    try:
        page = context.new_page()
        page.goto("/")
        wait_ready(page)
        wait_precached(page)
        wait_snapshot_made(page)
        yield context, page
    finally:
        context.close()


@pytest.fixture
def online(visited) -> Iterator[tuple[object, object]]:
    context, page = visited
    try:
        yield visited
    finally:
        context.set_offline(False)
        page.unroute_all(behavior="ignoreErrors")


def test_a_practice_game_loads_and_plays_offline(online, server_url, build_info):
    context, page = online
    status = wait_precached(page)
    assert status["buildId"] == build_info["build_id"]
    # The build's cache, and the device's snapshot, kept apart (no build's activation deletes it).
    assert sorted(page.evaluate(CACHE_NAMES)) == [
        f"ewar-{build_info['build_id']}",
        "ewar.device-snapshot",
    ]

    loaded = go_offline_and_reload(context, page, server_url)
    paths = {r[0][len(server_url) - 1 :].split("?")[0] for r in loaded}
    assert {"/", "/build-info.json", "/pyodide/pyodide.mjs", "/pyodide/pyodide.asm.wasm"} <= paths
    assert page.evaluate("navigator.serviceWorker.controller !== null")
    types = page.evaluate(CONTENT_TYPES, list(SERVED_AS))
    assert types == SERVED_AS  # from the cache, offline
    # The first visit took micropip; the worker holds that path's files, not the build's snapshot nobody used.
    # Offline, the second visit restores the snapshot this device made after the first.
    assert status["notYetUsed"] == [build_info["snapshot"]["file"]]
    engine = page.evaluate("[window.ewar.engine.path, window.ewar.engine.reason]")
    assert engine == ["snapshot", "snapshot made on this device"]

    first = start_from_menu(page, speed="fast", deal=PRACTICE_DEAL)
    assert (first["mode"], first["seed"]) == ("practice", PRACTICE_DEAL)
    finish_game(page)


def test_the_worker_keeps_the_snapshot_once_the_page_has_used_it(online, server_url, build_info):
    context, page = online
    snapshot = build_info["snapshot"]["file"]
    page.goto("/?load=snapshot")
    wait_ready(page)
    assert page.evaluate("window.ewar.engine.path") == "snapshot"
    # the worker checks and keeps it
    wait_until(
        page,
        lambda: not page.evaluate("window.ewarOffline.status()")["notYetUsed"],
        timeout_ms=WORKER_MS,
        what="the worker kept the snapshot",
    )
    # Kept inflated without its zero pages (the page reads it straight into Pyodide's heap), marked so: rebuilt as
    # the page rebuilds it, the bytes build-info names.
    kept = page.evaluate(KEPT_SNAPSHOT, snapshot)
    assert kept["inflated"] == "gzip" and kept["checked"] is not None
    assert kept["size"] == build_info["snapshot"]["size"]
    assert kept["sha256"] == build_info["snapshot"]["sha256"]
    assert kept["kept"] < kept["size"] / 2  # more than half of the heap is zero pages
    # Offline, the loader's own choice is now the snapshot, from the worker's checked copy, which the page does
    # not hash again (the snapshot this device made, which it would choose first, is taken away here).
    page.evaluate("caches.delete('ewar.device-snapshot')")
    context.add_init_script(COUNT_DIGESTS)
    go_offline_and_reload(context, page, server_url, query="?")
    assert page.evaluate(f"caches.match({json.dumps(snapshot)}).then((hit) => hit?.ok === true)")
    engine = page.evaluate("[window.ewar.engine.path, window.ewar.engine.reason]")
    assert engine == ["snapshot", "snapshot in the service worker's cache"]
    assert build_info["snapshot"]["size"] not in page.evaluate("window.__digested")
    # A remembered file this build does not have (the snapshot of an earlier deploy) is not used: the page finds
    # this build's own.
    page.evaluate(
        "localStorage.setItem('ewar.snapshotFile', 'pyodide/engine-0000000000000000.snapshot.gz')"
    )
    page.reload()
    wait_ready(page)
    engine = page.evaluate("[window.ewar.engine.path, window.ewar.engine.reason]")
    assert engine == ["snapshot", "snapshot in the service worker's cache"]
    assert page.evaluate("localStorage.getItem('ewar.snapshotFile')") == snapshot


# Records the length of everything the page hashes with WebCrypto.
COUNT_DIGESTS = """
window.__digested = [];
const digest = crypto.subtle.digest.bind(crypto.subtle);
crypto.subtle.digest = (algorithm, data) => {
  window.__digested.push(data.byteLength);
  return digest(algorithm, data);
};
"""


KEPT_SNAPSHOT = """
async (file) => {
  const { zeroPagesReader } = await import("/common/kept-files.js");
  const hit = await caches.match(file);
  const body = new Uint8Array(await hit.arrayBuffer());
  const reader = zeroPagesReader(hit.headers.get("x-ewar-kept-runs"));
  reader.add(body);
  const bytes = reader.bytes();
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return {
    inflated: hit.headers.get("x-ewar-inflated"),
    checked: hit.headers.get("x-ewar-sha256"),
    kept: body.byteLength,
    size: bytes.byteLength,
    sha256: Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join(""),
  };
}
"""


def not_yet_used(page) -> list[str]:
    return page.evaluate("window.ewarOffline.status()")["notYetUsed"]


def first_visit(browser, server_url, link: str):
    """(context, page, requested urls) of a first visit over the link named, once the page is ready."""
    context = browser.new_context(base_url=server_url, service_workers="allow", bypass_csp=True)
    on_test_time(context)  # the maker's wait is moved through (wait_snapshot_made)
    if link == "no navigator.connection":
        context.add_init_script(NO_CONNECTION)
    elif link == "saves data":
        context.add_init_script(fake_connection(saveData=True, effectiveType="4g", downlink=10))
    elif link == "cellular":
        context.add_init_script(fake_connection(type="cellular", effectiveType="4g", downlink=10))
    elif (
        link == "fast"
    ):  # as Chromium says it on a fast link: downlink 10 (its cap), effectiveType 4g
        context.add_init_script(
            fake_connection(effectiveType="4g", downlink=10, rtt=0, saveData=False)
        )
    page = context.new_page()
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    page.goto("/", wait_until="commit")
    wait_ready(page)
    return context, page, asked


@pytest.mark.parametrize("link", ["fast", "no navigator.connection", "cellular"])
def test_a_first_visit_makes_the_snapshot_on_the_device_and_the_next_restores_it(
    browser, server_url, build_info, link
):
    context, page, asked = first_visit(browser, server_url, link)
    try:
        assert page.evaluate("'connection' in navigator") is (link != "no navigator.connection")
        first = page.evaluate("[window.ewar.engine.path, window.ewar.engine.reason]")
        # The plain path: micropip installs the wheel.
        assert first == ["micropip", "snapshot not made yet"]
        wait_precached(page)
        made = wait_snapshot_made(
            page
        )  # from the files the worker holds: no snapshot crosses the network
        assert made["key"] == build_info["device_snapshot_key"]
        assert not [url for url in asked if url.endswith(".gz")], asked
        assert not_yet_used(page) == [build_info["snapshot"]["file"]]
        # The next visit starts reading the kept snapshot as its load starts, before build-info.json answers.
        context.add_init_script(READS_IN_ORDER)
        before = len(asked)
        page.reload()
        wait_ready(page)
        engine = page.evaluate(
            "[window.ewar.engine.path, window.ewar.engine.reason, window.ewar.engine.origin]"
        )
        assert engine == ["snapshot", "snapshot made on this device", "device"]
        order = page.evaluate("window.__reads")
        kept_read = "match /device-snapshot.bin"
        assert kept_read in order and order.index(kept_read) < order.index("build-info answered"), (
            order
        )
        assert not [url for url in asked[before:] if url.endswith((".gz", ".whl"))], asked[before:]
    finally:
        context.close()


# Records, in order, the page's Cache Storage lookups and when build-info.json answered.
READS_IN_ORDER = """
window.__reads = [];
const pathOf = (input) => new URL(String(input?.url ?? input), location.href).pathname;
for (const kind of [CacheStorage, Cache]) {
  const match = kind.prototype.match;
  kind.prototype.match = function (request, options) {
    window.__reads.push(`match ${pathOf(request)}`);
    return match.call(this, request, options);
  };
}
const fetchFirst = window.fetch;
window.fetch = function (input, init) {
  const answer = fetchFirst.call(this, input, init);
  if (pathOf(input).endsWith("/build-info.json")) answer.then(() => window.__reads.push("build-info answered"));
  return answer;
};
"""


def test_the_daily_game_plays_offline_with_the_devices_utc_date(
    new_context, server_url, build_info
):
    # UTC+14: for most of the day the local date is not the UTC date the daily must use.
    context = new_context(timezone_id="Pacific/Kiritimati", service_workers="allow")
    try:
        page = context.new_page()
        page.goto("/")
        wait_ready(page)
        wait_precached(page)
        # The loader's ordinary path this time: micropip and the page's engine wheel, from the worker's cache.
        loaded = go_offline_and_reload(context, page, server_url, query="?load=micropip")
        assert page.evaluate("window.ewar.engine.path") == "micropip"
        paths = {r[0][len(server_url) - 1 :].split("?")[0] for r in loaded}
        assert {"/" + build_info["page_engine_wheel"], "/" + build_info["micropip_wheel"]} <= paths
        before = datetime.now(UTC).date().isoformat()
        first = start_from_menu(page, mode="daily")
        after = datetime.now(UTC).date().isoformat()
        assert first["mode"] == "daily" and first["speed"] == "normal"
        assert first["date"] in {before, after}
        view = lose_by_wrong_slaps(page, tries=200)  # a short game, played to its end
        assert view["over"] and view["result"] is not None
        assert view["mode"] == "daily"
    finally:
        context.close()


def open_leaderboard(page) -> str:
    """The menu's leaderboard panel text, once it has loaded a board (or said it cannot)."""
    page.wait_for_selector("[data-testid=leaderboard]", state="visible")
    page.wait_for_function(
        "document.querySelector('[data-testid=leaderboard]').innerText.includes('Ada')"
        " || document.querySelector('[data-testid=leaderboard-offline]') !== null"
    )
    return page.inner_text("[data-testid=leaderboard]")


def fake_board(date: str) -> dict:
    entry = {
        "rank": 1,
        "name": "Ada",
        "score": 1900,
        "duration_ms": 50_000,
        "wrong_slaps": 0,
        "won": True,
    }
    return {"date": date, "entries": [entry], "total": 1, "you": None}


def test_the_leaderboard_says_offline_and_shows_the_last_board_seen(online):
    context, page = online
    today = datetime.now(UTC).date().isoformat()
    page.route(SCORES_API, lambda route: route.fulfill(json=fake_board(today)))
    page.reload()
    wait_ready(page)
    online = open_leaderboard(page)
    assert "Ada" in online and page.query_selector("[data-testid=leaderboard-offline]") is None
    page.unroute(SCORES_API)

    context.set_offline(True)
    page.reload()
    wait_ready(page)
    offline = open_leaderboard(page)
    note = page.inner_text("[data-testid=leaderboard-offline]")
    assert note.startswith("You're offline: this is the leaderboard as it was at "), note
    assert "Ada" in offline  # the last board seen, from before going offline
    assert page.evaluate("window.ewar.missingKeys()") == []

    page.evaluate("localStorage.removeItem('ewar.leaderboards')")  # no board of that day kept
    page.reload()
    wait_ready(page)
    open_leaderboard(page)
    note = page.inner_text("[data-testid=leaderboard-offline]")
    assert note == "You're offline: the leaderboard will show when you're back online."


def test_fetch_board_tells_offline_from_a_server_that_failed(online):
    """The small function the leaderboard asks for a board (web/js/scores/board-api.js), on its own."""
    context, page = online
    page.route(SCORES_API, lambda route: route.fulfill(json=fake_board("2026-11-30")))
    fetch_board = """
      async (url) => {
        const clock = (await import("./common/clock.js")).systemClock();
        return (await import("./js/scores/board-api.js")).createBoardApi({ clock }).fetchBoard(url);
      }
    """
    online = page.evaluate(fetch_board, "/api/scores?date=2026-11-30")
    assert online == {"board": fake_board("2026-11-30"), "offline": False, "failed": False}
    page.unroute(SCORES_API)
    page.route(SCORES_API, lambda route: route.fulfill(status=503, json={"error": "busy"}))
    failed = page.evaluate(fetch_board, "/api/scores?date=2026-11-30")
    assert failed == {"board": None, "offline": False, "failed": True}
    context.set_offline(True)
    offline = page.evaluate(fetch_board, "/api/scores?date=2026-12-01")
    assert offline == {"board": None, "offline": True, "failed": False}


# ---------------------------------------------------------------------------------------------
# A new deploy


@pytest.fixture(scope="module")
def site(build_module, tmp_path_factory) -> Iterator[dict]:
    """A project copy built into its own dist/ and served: tests change web/ and redeploy. site["current"] is
    the build_id deployed now (each test starts from whatever the one before left)."""
    tmp_path = tmp_path_factory.mktemp("site")
    project = copy_project(tmp_path / "project", extra=("tools/icons.py",))
    dist = tmp_path / "dist"

    # Without the page's memory snapshot: its step would remake it for every new dist folder (~20 s),
    # and nothing here depends on it (the other tests load the real dist/ with it).
    steps = [step for step in build_module.STEPS if step.name != "page_snapshot"]

    def deploy() -> str:
        built = build_module.build(root=project, dist=dist, steps=steps, log=lambda _line: None)
        deployed["current"] = built.info["build_id"]
        return deployed["current"]

    deployed = {"project": project, "dist": dist, "deploy": deploy}
    deploy()
    with build_module.DevServer(dist, data_dir=tmp_path / "board") as url:
        deployed["url"] = url
        yield deployed


def change_web_file(project: Path, marker: str) -> None:
    css = project / "web" / "css" / "main.css"
    css.write_text(css.read_text() + f"\n/* {marker} */\n")


def record_worker_versions(context, page) -> list[str]:
    """What the browser says of each service worker version (DevTools' ServiceWorker domain), one line each, in
    the order the test heard it: a failure can say which version went where."""
    lines: list[str] = []
    cdp = context.new_cdp_session(page)
    cdp.on(
        "ServiceWorker.workerVersionUpdated",
        lambda event: lines.extend(
            f"version {v['versionId']} {v['status']} {v['runningStatus']}"
            for v in event["versions"]
        ),
    )
    cdp.on(
        "ServiceWorker.workerErrorReported",
        lambda event: lines.append(f"error {event['errorMessage']['errorMessage']}"),
    )
    cdp.send("ServiceWorker.enable")
    return lines


def wait_for_waiting_worker(page) -> None:
    assert page.evaluate("window.ewarOffline.checkForUpdate()") is True
    wait_for(
        page,
        "navigator.serviceWorker.getRegistration().then((r) => Boolean(r && r.waiting))",
        timeout_ms=WORKER_MS,
    )
    # the page learns of the waiting worker from its own statechange event, a moment after the browser
    wait_for(page, "window.ewarOffline.status().then((s) => s.waiting)", timeout_ms=WORKER_MS)


def test_a_new_deploy_is_offered_at_the_next_pause_and_taken_on_reload(new_context, site):
    context = new_context(base_url=site["url"], service_workers="allow")
    try:
        page = context.new_page()
        page.goto("/")
        wait_ready(page)
        wait_precached(page)
        first = site["current"]
        assert build_id(page) == first

        start_from_menu(page, speed="fast", deal=PRACTICE_DEAL)
        fetched: list[str] = []
        context.on("request", lambda request: fetched.append(urlsplit(request.url).path))
        change_web_file(site["project"], "deploy two")
        second = site["deploy"]()
        assert second != first
        wait_for_waiting_worker(page)
        # The new worker downloads what changed; the scripts the old one kept as the server sent them (no mark
        # of their sha256) it reuses once their bytes check out. (The browser reports a worker's requests to the
        # test a moment after they are made: the waiting state may come first.)
        wait_until(
            page, lambda: "/css/main.css" in fetched, timeout_ms=10_000, what=f"main.css: {fetched}"
        )
        assert not {"/js/bundle.js", "/js/engine-start.js", "/pyodide/pyodide.asm.js"} & set(
            fetched
        ), fetched
        # Mid-game: nothing is offered, the old worker still serves the old files (the page knows of the waiting
        # worker: its status said so above).
        assert page.evaluate("document.body.dataset.state") == "playing"
        assert page.is_hidden("[data-testid=update-banner]")
        # (Whether the registration still says "waiting" here is Chromium's affair: under load it was seen to
        # drop it a moment later, the old worker still in charge and the update still offered at the pause.)
        assert page.evaluate("window.ewarOffline.status()")["buildId"] == first
        assert "deploy two" not in page.evaluate("fetch('css/main.css').then((r) => r.text())")

        finish_game(page)
        page.wait_for_selector("[data-testid=update-banner]", state="visible")
        assert page.inner_text("[data-testid=update-banner]") == "New version available — reload"
        assert build_id(page) == first

        with page.expect_navigation():
            page.click("[data-testid=update-reload]")
        wait_ready(page)
        assert build_id(page) == second
        status = wait_precached(page)
        assert status["buildId"] == second
        assert page.evaluate(CACHE_NAMES) == [f"ewar-{second}"]  # the old cache is gone
        assert "deploy two" in page.evaluate("fetch('css/main.css').then((r) => r.text())")
        assert page.is_hidden("[data-testid=update-banner]")
    finally:
        context.close()


def test_a_deploy_whose_files_do_not_match_never_takes_over(new_context, site):
    """A file that is not what the new sw.js lists (a stale CDN copy, a half-finished upload) fails
    the install: the old version stays in charge with its complete cache, and nothing is offered."""
    context = new_context(base_url=site["url"], service_workers="allow")
    try:
        page = context.new_page()
        versions = record_worker_versions(context, page)
        page.goto("/")
        wait_ready(page)
        wait_precached(page)
        first = site["current"]
        change_web_file(site["project"], "deploy three")
        second = site["deploy"]()
        served = site["dist"] / "css" / "main.css"
        good = served.read_bytes()
        served.write_bytes(good.replace(b"deploy three", b"deploy 3!!!!"))

        assert page.evaluate("window.ewarOffline.checkForUpdate()") is True
        wait_for(
            page,
            "navigator.serviceWorker.getRegistration().then((r) => !r.installing && !r.waiting)",
            timeout_ms=WORKER_MS,
        )
        # The failed install's partial cache is deleted (Chromium lists it a moment longer).
        wait_for(page, f"caches.keys().then((names) => names.join() === 'ewar-{first}')")
        assert page.evaluate("window.ewarOffline.status()")["complete"] is True
        # The install failed and is gone (above): nothing waits that could be offered.
        assert page.is_hidden("[data-testid=update-banner]")

        served.write_bytes(good)  # the upload completes: the next check installs it
        wait_for_waiting_worker(page)
        try:
            page.wait_for_selector("[data-testid=update-banner]", state="visible")
        except Exception as error:  # what the page knew when it did not offer the update
            raise AssertionError(
                f"no update offered (first {first}, second {second}): {page.evaluate(OFFER_STATE)}\n"
                + "\n".join(versions)
            ) from error
        assert sorted(page.evaluate(CACHE_NAMES)) == sorted([f"ewar-{first}", f"ewar-{second}"])
    finally:
        context.close()


# ---------------------------------------------------------------------------------------------
# Installable app


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def test_the_manifest_is_valid_and_chromium_finds_the_app_installable(browser, server_url):
    fixtures = web_conftest()
    with tempfile.TemporaryDirectory(prefix="ewar-profile-") as profile:
        # A persistent profile: Chromium never offers installation in an incognito-like context.
        context = browser.browser_type.launch_persistent_context(
            profile,
            executable_path=fixtures.chromium_executable(),
            args=fixtures.CHROMIUM_ARGS,
            headless=True,
            base_url=server_url,
            bypass_csp=True,
        )
        context.add_init_script(
            script=SNAPSHOT_PATH
        )  # the quicker load: the path is not the subject here
        try:
            page = context.new_page()
            page.goto("/")
            wait_ready(page)
            cdp = context.new_cdp_session(page)
            app = cdp.send("Page.getAppManifest")
            assert app["url"] == server_url + "manifest.webmanifest"
            assert app["errors"] == []
            assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []

            manifest = json.loads(app["data"])
            assert manifest["display"] == "standalone"
            assert manifest["start_url"] == "./" and manifest["scope"] == "./"
            assert manifest["name"] and manifest["short_name"]
            theme = page.get_attribute("meta[name=theme-color]", "content")
            assert manifest["theme_color"] == theme
            assert re.fullmatch(r"#[0-9a-f]{6}", manifest["background_color"])
            kinds = set()
            for icon in manifest["icons"]:
                response = page.request.get(icon["src"])
                assert (
                    response.ok and response.headers["content-type"] == icon["type"] == "image/png"
                )
                width, height = png_size(response.body())
                assert f"{width}x{height}" == icon["sizes"]
                kinds.add((width, icon["purpose"]))
            assert {(192, "any"), (512, "any"), (192, "maskable"), (512, "maskable")} <= kinds
        finally:
            context.close()


# ---------------------------------------------------------------------------------------------
# What a first visit costs over the wire

FIRST_VISIT_BUDGET = (
    5_000_000  # bytes as the CDN sends them (issue 15), page and offline precache together
)


@pytest.fixture
def cdn(build_module, server_url) -> Iterator[object]:
    """The dev server behind tools/builder/cdn.py's stand-in for the CDN (compresses like it, counts bytes)."""
    cdn_module = importlib.import_module(f"{build_module.__name__}.cdn")
    with cdn_module.CdnProxy(server_url) as proxy:
        yield proxy


def test_a_first_visit_costs_at_most_5_mb_and_the_daily_then_plays_offline(
    browser, cdn, build_info
):
    # A player's context: the loader's own choice of path (nothing forced), the worker allowed.
    context = browser.new_context(base_url=cdn.url, service_workers="allow", bypass_csp=True)
    on_test_time(context)  # its daily plays on test time
    try:
        page = context.new_page()
        page.goto("/")
        wait_ready(page)
        assert page.evaluate("window.ewar.engine.path") == "micropip"
        wait_precached(page)
        wait_snapshot_made(
            page
        )  # what the next visit needs, made here: counted, though it costs nothing
        sent = cdn.take_ledger()
        total = sum(size for *_, size in sent)
        biggest = sorted(sent, key=lambda entry: -entry[3])[:6]
        assert total <= FIRST_VISIT_BUDGET, f"{total} bytes; the largest: {biggest}"
        assert "/" + build_info["snapshot"]["file"] not in [path for _, path, _, _ in sent]

        go_offline_and_reload(context, page, cdn.url)
        assert page.evaluate("window.ewar.engine.origin") == "device"
        first = start_from_menu(page, mode="daily")
        assert first["mode"] == "daily" and first["seed"] is not None
    finally:
        context.close()
