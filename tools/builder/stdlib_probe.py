"""Runs inside Pyodide (tools/builder/stdlib.mjs): imports every standard-library module the engine's source names,
and lists the files of Pyodide's standard-library zip that the interpreter has imported so far."""

from __future__ import annotations

import ast
import importlib
import os
import sys

# The engine's command line (python -m ewar) never runs in a page: what only it imports is left out.
COMMAND_LINE = "__main__.py"


def _absolute_imports(source: str) -> set[str]:
    """Top-level names of the absolute imports in a module's source, wherever they sit (functions too)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def import_what_the_package_names(package: str) -> list[str]:
    """Imports each standard-library module (and from-imported submodule) that `package`'s source names,
    its command line excepted; returns the names imported. A missing module raises ModuleNotFoundError."""
    root = os.path.dirname(importlib.import_module(package).__file__)
    wanted: set[str] = set()
    for folder, _dirs, files in os.walk(root):
        for name in sorted(files):
            if name.endswith(".py") and name != COMMAND_LINE:
                with open(os.path.join(folder, name), encoding="utf-8") as source:
                    wanted |= _absolute_imports(source.read())
    imported = []
    for name in sorted(wanted):
        if name.split(".")[0] in (package, "__future__"):
            continue
        if "." in name and name.rsplit(".", 1)[0] in sys.modules:
            parent = sys.modules[name.rsplit(".", 1)[0]]
            if not hasattr(parent, "__path__"):
                continue  # "from json import dumps": a name in a module, not a submodule
        try:
            importlib.import_module(name)
        except ModuleNotFoundError as error:
            if "." in name and error.name == name:
                continue  # "from collections.abc import Iterable": not a module either
            raise
        imported.append(name)
    return imported


def zip_entries_in_use(zip_path: str) -> list[str]:
    """The entries of the standard-library zip at `zip_path` that imported modules were loaded from."""
    prefix = zip_path.rstrip("/") + "/"
    entries: set[str] = set()
    for module in list(sys.modules.values()):
        file = getattr(module, "__file__", None) or ""
        if file.startswith(prefix):
            entries.add(file[len(prefix) :])
    return sorted(entries)


def stdlib_zip_path() -> str:
    """Where Pyodide mounted its standard-library zip (the sys.path entry ending in .zip)."""
    zips = [entry for entry in sys.path if entry.endswith(".zip")]
    if len(zips) != 1:
        raise RuntimeError(f"expected one zip on sys.path, found {zips}")
    return zips[0]
