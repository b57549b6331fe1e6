"""The build step kept_engines (tools/builder/kept_engines.py): the earlier engines the scores function keeps
are the wheels netlify/engines/kept.json lists, each checked, and build-info names them (issue 30)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from ewar import __version__ as CURRENT
from tools.builder.kept_engines import KEPT_DIR, MANIFEST, check_kept_engines
from tools.builder.pipeline import BuildError, Context, FileHashes

ROOT = Path(__file__).resolve().parents[2]


def context(root: Path, current: str = CURRENT) -> Context:
    return Context(
        root=root,
        dist=root / "dist",
        cache=root / "cache",
        hashes=FileHashes({}),
        state={},
        log=lambda _line: None,
        info={"engine_version": current},
    )


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    """A checkout holding the repository's kept engines."""
    shutil.copytree(ROOT / KEPT_DIR, tmp_path / KEPT_DIR)
    return tmp_path


def manifest(root: Path) -> dict:
    return json.loads((root / MANIFEST).read_text())


def rewrite(root: Path, change) -> None:
    data = manifest(root)
    change(data["engines"][0])
    (root / MANIFEST).write_text(json.dumps(data))


def test_the_repository_s_kept_engines_are_named_in_build_info(checkout: Path) -> None:
    ctx = context(checkout)
    check_kept_engines(ctx)
    listed = {entry["version"]: entry["wheel"] for entry in manifest(checkout)["engines"]}
    assert listed, "at least the engine before this one is kept"
    assert ctx.info["kept_engines"] == {v: f"netlify/engines/{w}" for v, w in listed.items()}


def test_a_wheel_that_is_not_the_one_listed_fails_the_build(checkout: Path) -> None:
    rewrite(checkout, lambda entry: entry.update(sha256="0" * 64))
    with pytest.raises(BuildError, match="is not the wheel"):
        check_kept_engines(context(checkout))


def test_a_wheel_of_another_version_fails_the_build(checkout: Path) -> None:
    rewrite(checkout, lambda entry: entry.update(version="3.0.9"))
    with pytest.raises(BuildError, match="holds engine"):
        check_kept_engines(context(checkout))


def test_keeping_the_build_s_own_engine_fails_the_build(checkout: Path) -> None:
    version = manifest(checkout)["engines"][0]["version"]
    with pytest.raises(BuildError, match="twice"):
        check_kept_engines(context(checkout, current=version))


def test_a_missing_wheel_fails_the_build(checkout: Path) -> None:
    for wheel in (checkout / KEPT_DIR).glob("*.whl"):
        wheel.unlink()
    with pytest.raises(BuildError, match="is missing"):
        check_kept_engines(context(checkout))
