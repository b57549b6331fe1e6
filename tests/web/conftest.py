"""Browser-test fixtures: dist/ built once and the dev server over it (Chromium: tests/conftest.py)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType

import pytest
from pagedriver import READY_MS, SNAPSHOT_PATH, loaded_page, on_test_time, open_held

from tools.harness.build_module import load_build_module

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def build_module() -> ModuleType:
    return load_build_module()


@pytest.fixture(scope="session")
def dist_dir(build_module: ModuleType) -> Path:
    """dist/, built (or found up to date) once per test session."""
    try:
        result = build_module.build(log=lambda _line: None)
    except build_module.BuildError as error:
        pytest.fail(f"build.py failed: {error}", pytrace=False)
    return result.dist


@pytest.fixture(scope="session")
def build_info(dist_dir: Path) -> dict:
    return json.loads((dist_dir / "build-info.json").read_text())


API_CLOCK_AHEAD_MS = 12 * 60 * 60 * 1000


@pytest.fixture(scope="session")
def server_url(
    build_module: ModuleType, dist_dir: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    """http://127.0.0.1:PORT/ of tools/devserver.mjs over dist/, scores kept in a temp folder. Without
    the posting rate limit (10 in 3 minutes): these tests post many games from one client; the page's
    handling of a 429 is tested with the server's answer stubbed (test_honest_messages.py). Its API's clock
    runs half a day ahead, so today's dailies the tests send always fit in the day so far (the judge's
    real-time rule), at any hour the suite runs: today is then the API's today or its yesterday, both open."""
    data_dir = tmp_path_factory.mktemp("board")
    server = build_module.DevServer(
        dist_dir, data_dir=data_dir, rate_limit=False, api_clock_ahead_ms=API_CLOCK_AHEAD_MS
    )
    try:
        url = server.start()
    except build_module.BuildError as error:
        pytest.fail(str(error), pytrace=False)
    try:
        yield url
    finally:
        server.stop()


def open_context(browser, server_url: str, **options) -> object:
    """A browser context whose relative URLs resolve against the dev server (or options' base_url) and whose
    pages load the engine from the memory snapshot. Service workers are blocked unless options say
    service_workers="allow": the worker's precaching (20 MB, each file's sha256) is the subject of a few tests
    and would only compete for the CPU in the others. The site's Content-Security-Policy is set aside
    (bypass_csp) unless options say bypass_csp=False: Playwright's string predicates (page.wait_for_function)
    are evaluated in the page, which the policy forbids; test_csp.py holds the page to it. Its pages load on test
    time (pagedriver.on_test_time: Playwright's fake clock, running like the real one until a test pauses it), at
    options' clock_time (a datetime or epoch seconds) if given; options' clock=False leaves the real clock."""
    clock_time = options.pop("clock_time", None)
    fake_clock = options.pop("clock", True)
    defaults = {"base_url": server_url, "service_workers": "block", "bypass_csp": True}
    fresh = browser.new_context(**{**defaults, **options})
    fresh.add_init_script(script=SNAPSHOT_PATH)
    # A navigation waits for the page's load event as long as the engine may take to load (Playwright's 30 s
    # default was exceeded once at a load average of 30).
    fresh.set_default_navigation_timeout(READY_MS)
    if fake_clock:
        on_test_time(fresh, time=clock_time)
    return fresh


@pytest.fixture(scope="session")
def context_opener(browser, server_url: str) -> Callable[..., object]:
    """open_context bound to this session's browser and server, for fixtures of a wider scope than a test
    (they close what they open). Test modules cannot import conftest: which conftest.py that name finds
    depends on the folders pytest collected first."""
    return lambda **options: open_context(browser, server_url, **options)


@pytest.fixture(scope="session")
def context_in(server_url: str) -> Callable[..., object]:
    """context_in(other_browser, **options): open_context in a browser a test launched itself (launch_chromium);
    the caller closes it."""
    return lambda other, **options: open_context(other, server_url, **options)


@pytest.fixture
def new_context(browser, server_url: str) -> Iterator[Callable[..., object]]:
    """new_context(**options): a fresh context (open_context), closed after the test."""
    made = []

    def make(**options) -> object:
        fresh = open_context(browser, server_url, **options)
        made.append(fresh)
        return fresh

    try:
        yield make
    finally:
        for fresh in made:
            fresh.close()


@pytest.fixture
def context(new_context) -> object:
    """A fresh browser context per test (see new_context)."""
    return new_context()


@pytest.fixture
def page(context) -> Iterator[object]:
    """A fresh page in a fresh context: page.goto("/") opens the game."""
    fresh = context.new_page()
    try:
        yield fresh
    finally:
        fresh.close()


@pytest.fixture(scope="module")
def shared_page(browser, server_url: str) -> Iterator[object]:
    """One loaded page for the tests of a module that need no fresh storage (a load costs seconds): each test
    brings it to the state it needs (pagedriver.open_menu, switch_language, its own viewport)."""
    with loaded_page(open_context(browser, server_url)) as page:
        yield page


@pytest.fixture
def bare_page(new_context):
    """The page without its engine, fresh for the test (pagedriver.open_held)."""
    return open_held(new_context())


@pytest.fixture(scope="module")
def shared_bare_page(browser, server_url: str) -> Iterator[object]:
    """One page without its engine (pagedriver.open_held) for the tests of a module whose scripts set all they use."""
    context = open_context(browser, server_url)
    try:
        yield open_held(context)
    finally:
        context.close()
