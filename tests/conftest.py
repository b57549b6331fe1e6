"""Test-wide settings: markers only (fixtures for browser tests live in tests/web/conftest.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "web: needs the built site, the dev server and Chromium")
    config.addinivalue_line("markers", "build: exercises build.py and tools/devserver.mjs")
    config.addinivalue_line("markers", "slow: takes more than a few seconds")


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
