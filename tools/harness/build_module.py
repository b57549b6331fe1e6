"""The build package (tools/builder/, behind build.py) for the tests and benchmarks, and a copy of the
project for tests that edit its inputs and rebuild."""

from __future__ import annotations

import importlib
import shutil
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]
# What a build reads besides the engine's own sources (pyproject, readme, licence, ewar/).
BUILD_INPUTS = ("package.json", "package-lock.json", "web", "tools")


def load_build_module() -> ModuleType:
    """tools.builder of this checkout: build(), STEPS, DevServer, BuildError..."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    return importlib.import_module("tools.builder")


def copy_path(source: Path, copy: Path) -> None:
    if source.is_dir():
        shutil.copytree(
            source, copy, dirs_exist_ok=True, ignore=shutil.ignore_patterns("__pycache__")
        )
    else:
        copy.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, copy)


def copy_project(target: Path, extra: tuple[str, ...] = ()) -> Path:
    """What the build of this repository reads, copied into `target` (node_modules linked), for
    tests that edit and rebuild; each of `extra` (a file or a folder) is copied too."""
    builder = load_build_module()
    target.mkdir()
    for path in builder.engine_source_files(ROOT):
        copy_path(path, target / path.relative_to(ROOT))
    for name in (*BUILD_INPUTS, *extra):
        copy_path(ROOT / name, target / name)
    (target / "node_modules").symlink_to(ROOT / "node_modules")
    return target
