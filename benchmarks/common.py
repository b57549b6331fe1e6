"""What the browser benchmarks share: build.py as a module (the tests' loader) and how Chromium is started."""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from tools.harness.build_module import load_build_module  # noqa: E402 (after the path insert) — the tests' loader of build.py too

CHROMIUM = os.environ.get("EWAR_CHROMIUM") or "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-background-networking", "--disable-component-update"]

__all__ = ["CHROMIUM", "CHROMIUM_ARGS", "ROOT", "load_build_module"]
