"""build.py as an importable module for the tests (it is a script at the repo root), and a copy of the
project for tests that edit its inputs and rebuild."""

from __future__ import annotations

import importlib.util
import shutil
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]
# What dist/pyodide/ must hold of the runtime: the files loadPyodide() fetches.
RUNTIME_FILES = {
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
}


def load_build_module() -> ModuleType:
    """Import build.py once, as ``ewar_build``."""
    if "ewar_build" not in sys.modules:
        spec = importlib.util.spec_from_file_location("ewar_build", ROOT / "build.py")
        assert spec and spec.loader
        module = importlib.util.module_from_spec(spec)
        sys.modules["ewar_build"] = module
        spec.loader.exec_module(module)
    return sys.modules["ewar_build"]


def copy_project(target: Path, extra: tuple[str, ...] = ()) -> Path:
    """This repository's build inputs copied into `target` (node_modules linked), for tests that edit and
    rebuild: the package files, the engine's sources, web/, and each of `extra` (a file or a folder)."""
    builder = load_build_module()
    target.mkdir()
    for name in ("pyproject.toml", "package.json", "package-lock.json"):
        shutil.copyfile(ROOT / name, target / name)
    for path in builder.engine_source_files(ROOT):
        copy = target / path.relative_to(ROOT)
        copy.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, copy)
    for name in ("web", *extra):
        source, copy = ROOT / name, target / name
        if source.is_dir():
            shutil.copytree(source, copy)
        else:
            copy.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, copy)
    (target / "node_modules").symlink_to(ROOT / "node_modules")
    return target
