"""Browser-test fixtures: dist/ built once, the dev server over it, Chromium through Playwright."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest
from build_module import load_build_module

ROOT = Path(__file__).resolve().parents[2]
DEBIAN_CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-background-networking", "--disable-component-update"]
NO_CHROMIUM = (
    "No Chromium to run the browser tests. Install Debian's (apt-get install -y chromium) or set "
    "EWAR_CHROMIUM to a Chromium executable ('' = Playwright's own, if installed)."
)




def chromium_executable() -> str | None:
    """EWAR_CHROMIUM if set ('' = Playwright's own browser, None here), else Debian's."""
    chosen = os.environ.get("EWAR_CHROMIUM")
    if chosen is None:
        return DEBIAN_CHROMIUM if Path(DEBIAN_CHROMIUM).is_file() else None
    if chosen and not Path(chosen).is_file():
        pytest.fail(f"EWAR_CHROMIUM={chosen} does not exist. {NO_CHROMIUM}", pytrace=False)
    return chosen or None


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


@pytest.fixture(scope="session")
def server_url(
    build_module: ModuleType, dist_dir: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    """http://127.0.0.1:PORT/ of tools/devserver.mjs over dist/, scores kept in a temp folder."""
    data_dir = tmp_path_factory.mktemp("blobs")
    server = build_module.DevServer(dist_dir, data_dir=data_dir)
    try:
        url = server.start()
    except build_module.BuildError as error:
        pytest.fail(str(error), pytrace=False)
    try:
        yield url
    finally:
        server.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    """Headless Chromium (sync Playwright). Fails, never skips, when there is none."""
    try:
        from playwright.sync_api import Error, sync_playwright
    except ImportError:
        pytest.fail(
            "playwright is not installed: python -m pip install -e '.[test]'", pytrace=False
        )
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


@pytest.fixture
def context(browser, server_url: str) -> Iterator[object]:
    """A fresh browser context per test; relative URLs resolve against the dev server."""
    fresh = browser.new_context(base_url=server_url)
    try:
        yield fresh
    finally:
        fresh.close()


@pytest.fixture
def page(context) -> Iterator[object]:
    """A fresh page in a fresh context: page.goto("/") opens the game."""
    fresh = context.new_page()
    try:
        yield fresh
    finally:
        fresh.close()
