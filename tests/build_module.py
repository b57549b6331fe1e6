"""build.py as an importable module for the tests (it is a script at the repo root)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]


def load_build_module() -> ModuleType:
    """Import build.py once, as ``ewar_build``."""
    if "ewar_build" not in sys.modules:
        spec = importlib.util.spec_from_file_location("ewar_build", ROOT / "build.py")
        assert spec and spec.loader
        module = importlib.util.module_from_spec(spec)
        sys.modules["ewar_build"] = module
        spec.loader.exec_module(module)
    return sys.modules["ewar_build"]
