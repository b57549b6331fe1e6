"""The trimmed standard library: the build publishes only the files of Pyodide's python_stdlib.zip the game
imports, and refuses a zip that lacks one (the game is run in Pyodide with it: micropip installs the engine,
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
FINDER = ROOT / "tools" / "build" / "stdlib.mjs"


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


def test_the_trimmed_zip_is_part_of_pyodides_own_byte_for_byte(trimmed, built_info):
    with zipfile.ZipFile(PYODIDE / "python_stdlib.zip") as whole, zipfile.ZipFile(trimmed) as part:
        names = part.namelist()
        assert names == sorted(names) and len(names) < len(whole.namelist()) / 2
        for name in names:
            assert part.read(name) == whole.read(name), name
    assert built_info["runtime_files"]["python_stdlib.zip"] == trimmed.stat().st_size
    assert trimmed.stat().st_size < (PYODIDE / "python_stdlib.zip").stat().st_size / 2


def test_it_holds_what_pyodide_micropip_and_the_engine_import(trimmed, built_dist, built_info):
    with zipfile.ZipFile(trimmed) as part:
        names = set(part.namelist())
    # Pyodide's start-up, micropip's install and the engine (its source names json, hashlib, dataclasses ...)
    for module in ("_pyodide/_base.py", "asyncio/__init__.py", "importlib/metadata/__init__.py"):
        assert module in names
    for module in ("json/decoder.py", "dataclasses.py", "datetime.py", "bisect.py", "pkgutil.py"):
        assert module in names
    # what nothing in the game imports stays out
    for module in (
        "unittest/__init__.py",
        "xml/dom/minidom.py",
        "argparse.py",
        "sqlite3/__init__.py",
    ):
        assert module not in names
    done = run_the_game(built_dist, built_info, trimmed)
    assert done.returncode == 0, done.stderr[-2000:]
    used = json.loads(done.stdout.strip().splitlines()[-1])["entries"]
    assert set(used) <= names and "json/decoder.py" in used


def test_a_zip_that_lacks_a_module_the_engine_imports_is_refused(
    trimmed, built_dist, built_info, tmp_path
):
    lacking = tmp_path / "python_stdlib.zip"
    with zipfile.ZipFile(trimmed) as part, zipfile.ZipFile(lacking, "w") as copy:
        for info in part.infolist():
            if info.filename != "bisect.py":  # imported by the engine only (ewar/game.py)
                copy.writestr(info, part.read(info.filename))
    done = run_the_game(built_dist, built_info, lacking)
    assert done.returncode == 1
    assert "No module named 'bisect'" in done.stderr
