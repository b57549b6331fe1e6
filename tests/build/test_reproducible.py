"""Reproducible builds: two fresh clones of the same commit build byte-identical dist/ folders and the
same function snapshot, each from an empty build cache, in different folders."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow


def clone(target: Path) -> Path:
    """The repository's tracked files as the working tree has them (node_modules linked: the lock pins it)."""
    listed = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, check=True, capture_output=True
    ).stdout
    for rel in filter(None, listed.decode().split("\0")):
        source = ROOT / rel
        if source.is_file():
            (target / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, target / rel)
    (target / "node_modules").symlink_to(ROOT / "node_modules")
    return target


def tree(folder: Path) -> dict[str, str]:
    return {
        path.relative_to(folder).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


def test_two_clones_build_the_same_bytes(tmp_path):
    clones = [clone(tmp_path / name) for name in ("first", "second")]
    env = {**os.environ, "PYTHONHASHSEED": "random"}
    builds = [
        subprocess.Popen(
            [sys.executable, "build.py", "build"],
            cwd=folder,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
        )
        for folder in clones
    ]
    for build in builds:
        output = build.communicate(timeout=600)[0].decode()
        assert build.returncode == 0, output
    first, second = (tree(folder / "dist") for folder in clones)
    assert first.keys() == second.keys()
    assert [rel for rel in first if first[rel] != second[rel]] == []
    snapshots = [tree(folder / "build" / "function") for folder in clones]
    assert snapshots[0] == snapshots[1] and "engine.snapshot" in snapshots[0]
