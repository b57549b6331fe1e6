"""Test-wide settings: markers, and the one headless Chromium every browser test shares."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import group_times
import pytest

from tools.harness.browser import CHROMIUM_ARGS

TESTS = Path(__file__).resolve().parent
DEBIAN_CHROMIUM = "/usr/bin/chromium"
NO_CHROMIUM = (
    "No Chromium to run the browser tests. Install Debian's (apt-get install -y chromium) or set "
    "EWAR_CHROMIUM to a Chromium executable ('' = Playwright's own, if installed)."
)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "web: needs the built site, the dev server and Chromium")
    config.addinivalue_line("markers", "build: exercises build.py and tools/devserver.mjs")
    config.addinivalue_line("markers", "slow: takes more than a few seconds")
    group_times.register(config)


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """Collect tests/build although pytest's default norecursedirs skips folders named build."""
    if collection_path == TESTS / "build":
        return False
    return None


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark tests by folder, so `-m web` / `-m "not web"` select them."""
    for item in items:
        path = Path(str(item.fspath)).resolve()
        if path.is_relative_to(TESTS) and path.relative_to(TESTS).parts[0] in ("web", "build"):
            item.add_marker(path.relative_to(TESTS).parts[0])


def chromium_executable() -> str | None:
    """EWAR_CHROMIUM if set ('' = Playwright's own browser, None here), else Debian's."""
    chosen = os.environ.get("EWAR_CHROMIUM")
    if chosen is None:
        return DEBIAN_CHROMIUM if Path(DEBIAN_CHROMIUM).is_file() else None
    if chosen and not Path(chosen).is_file():
        pytest.fail(f"EWAR_CHROMIUM={chosen} does not exist. {NO_CHROMIUM}", pytrace=False)
    return chosen or None


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    """Headless Chromium (sync Playwright). Fails, never skips, when there is none."""
    try:
        from playwright.sync_api import Error, sync_playwright
    except ImportError:
        pytest.fail("playwright is not installed: python build.py test installs it", pytrace=False)
    executable = chromium_executable()
    playwright = sync_playwright().start()
    try:
        launched = playwright.chromium.launch(
            executable_path=executable, args=CHROMIUM_ARGS, headless=True
        )
    except Error as error:
        playwright.stop()
        pytest.fail(
            f"Chromium did not start ({executable or 'Playwright’s own'}): "
            f"{error.message.splitlines()[0]}\n{NO_CHROMIUM}",
            pytrace=False,
        )
    try:
        yield launched
    finally:
        launched.close()
        playwright.stop()


@pytest.fixture(scope="session")
def launch_chromium(browser) -> Callable[[list[str]], object]:
    """launch_chromium(args): another headless Chromium from the session browser's executable, started with `args`
    instead of the tests' flags; the caller closes it."""
    executable = chromium_executable()
    return lambda args: browser.browser_type.launch(
        executable_path=executable, args=args, headless=True
    )
