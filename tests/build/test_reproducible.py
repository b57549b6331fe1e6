"""Reproducible builds: a fresh clone, built from an empty build cache in another folder with another hash
seed, makes a dist/ folder and a function snapshot byte-identical to this checkout's (built with its own,
warm cache)."""

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
    """The repository's files as the working tree has them, tracked or new but not ignored (what this
    checkout's build reads); node_modules linked: the lock pins it."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        check=True,
        capture_output=True,
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


def test_a_fresh_clone_builds_the_same_bytes(tmp_path, built_dist):
    fresh = clone(tmp_path / "clone")
    env = {**os.environ, "PYTHONHASHSEED": "random"}
    done = subprocess.run(
        [sys.executable, "build.py", "build"],
        cwd=fresh,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stdout.decode()
    ours, theirs = tree(built_dist.dist), tree(fresh / "dist")
    assert ours.keys() == theirs.keys()
    assert [rel for rel in ours if ours[rel] != theirs[rel]] == []
    snapshots = [tree(ROOT / "build" / "function"), tree(fresh / "build" / "function")]
    assert snapshots[0] == snapshots[1] and "engine.snapshot" in snapshots[0]
