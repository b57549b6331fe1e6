"""The trimmed standard library: the build publishes only the modules of Pyodide's python_stdlib.zip the game
imports, compiled to .pyc by Pyodide's own Python, and refuses a zip that lacks one (the game is run in Pyodide with it: micropip installs the engine,
every engine module and every standard-library module its source names is imported, games are played,
verified, judged and resumed through the bridge)."""

from __future__ import annotations

import json
import subprocess
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PYODIDE = ROOT / "node_modules" / "pyodide"
NODE = ROOT / "node_modules" / ".bin" / "node"
FINDER = ROOT / "tools" / "builder" / "stdlib.mjs"


def run_the_game(built_dist, built_info, stdlib: Path) -> subprocess.CompletedProcess:
    dist = built_dist.dist
    command = [
        str(NODE),
        str(FINDER),
        *("--pyodide", str(PYODIDE), "--stdlib", str(stdlib)),
        *("--micropip", str(dist / built_info["micropip_wheel"])),
        *("--wheel", str(dist / built_info["engine_wheel"])),
    ]
    return subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)


@pytest.fixture(scope="module")
def trimmed(built_dist) -> Path:
    return built_dist.dist / "pyodide" / "python_stdlib.zip"


def test_the_trimmed_zip_holds_pyodides_own_modules_compiled(trimmed, built_info):
    with zipfile.ZipFile(PYODIDE / "python_stdlib.zip") as whole, zipfile.ZipFile(trimmed) as part:
        names = part.namelist()
        assert names == sorted(names) and len(names) < len(whole.namelist()) / 2
        sources = set(whole.namelist())
        headers = set()
        for name in names:
            assert name.endswith(".pyc") and name.removesuffix("c") in sources, name
            headers.add(part.read(name)[:16])
    # One header for all: Pyodide's Python's magic number, an unchecked hash-based .pyc (flags 1)
    [header] = headers
    assert header[4:8] == (1).to_bytes(4, "little") and header[2:4] == b"\r\n"
    assert built_info["runtime_files"]["python_stdlib.zip"] == trimmed.stat().st_size
    assert trimmed.stat().st_size < (PYODIDE / "python_stdlib.zip").stat().st_size / 2


def test_it_holds_what_pyodide_micropip_and_the_engine_import(trimmed, built_dist, built_info):
    with zipfile.ZipFile(trimmed) as part:
        names = set(part.namelist())
    # Pyodide's start-up, micropip's install and the engine (its source names json, hashlib, dataclasses ...)
    for module in ("_pyodide/_base", "asyncio/__init__", "importlib/metadata/__init__"):
        assert f"{module}.pyc" in names
    for module in ("json/decoder", "dataclasses", "datetime", "bisect", "pkgutil"):
        assert f"{module}.pyc" in names
    # what nothing in the game imports stays out
    for module in (
        "unittest/__init__",
        "xml/dom/minidom",
        "argparse",
        "sqlite3/__init__",
    ):
        assert f"{module}.pyc" not in names and f"{module}.py" not in names
    done = run_the_game(built_dist, built_info, trimmed)
    assert done.returncode == 0, done.stderr[-2000:]
    used = json.loads(done.stdout.strip().splitlines()[-1])["entries"]
    # frozen modules (abc, site, zipimport ...) name their source file, not the .pyc nobody loaded
    assert {entry.removesuffix("c") for entry in used} <= {name.removesuffix("c") for name in names}
    assert "json/decoder.pyc" in used


def test_a_zip_that_lacks_a_module_the_engine_imports_is_refused(
    trimmed, built_dist, built_info, tmp_path
):
    lacking = tmp_path / "python_stdlib.zip"
    with zipfile.ZipFile(trimmed) as part, zipfile.ZipFile(lacking, "w") as copy:
        for info in part.infolist():
            if info.filename != "bisect.pyc":  # imported by the engine only (ewar/game.py)
                copy.writestr(info, part.read(info.filename))
    done = run_the_game(built_dist, built_info, lacking)
    assert done.returncode == 1
    assert "No module named 'bisect'" in done.stderr
