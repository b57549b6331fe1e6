"""build.py's icons and service_worker steps: sw.js precaches every file the page may load, by
content hash, whatever steps put into dist/; both steps are no-ops when nothing changed."""

from __future__ import annotations

import hashlib
import json
import re
import struct
from pathlib import Path

import pytest
from tools.harness.build_module import copy_project, load_build_module

ROOT = Path(__file__).resolve().parents[2]


builder = load_build_module()
from tools.builder import steps  # noqa: E402


def quiet(_line: str) -> None:
    pass


def precache_of(dist: Path) -> dict:
    """The PRECACHE object dist/sw.js was generated with."""
    source = (dist / "sw.js").read_text()
    match = re.search(r"^const PRECACHE = (\{.*?\});$", source, re.MULTILINE | re.DOTALL)
    assert match, "sw.js has no PRECACHE line"
    return json.loads(match.group(1))


def dist_files(dist: Path) -> dict[str, bytes]:
    return {
        p.relative_to(dist).as_posix(): p.read_bytes()
        for p in sorted(dist.rglob("*"))
        if p.is_file()
    }


@pytest.fixture(scope="module")
def built(built_dist):
    """The session's build into a throwaway dist (conftest.py): read, and rebuilt only with nothing changed."""
    return built_dist


def test_sw_js_lists_every_other_file_with_its_sha256_and_size(built):
    """Every file but sw.js, the page's modules under js/, which reach the page only inside the two scripts its
    index.html loads (tools/builder/bundle.py), and the engine's source wheel (the scores function's: the page
    installs its compiled twin, page_engine_wheel)."""
    precache = precache_of(built.dist)
    files = dist_files(built.dist)
    del files["sw.js"]
    del files[built.info["engine_wheel"]]
    assert built.info["page_engine_wheel"] in files
    loaded = re.findall(r'<script\b[^>]*\bsrc="\./([^"]+)"', files["index.html"].decode())
    assert loaded == ["js/engine-start.js", "js/app/early.js", "js/bundle.js"]
    # ... and the snapshot's maker, a worker's script: a first visit precaches it, the next visit's snapshot is
    # made from the worker's cache.
    for path in [
        path
        for path in files
        if path.startswith("js/") and path not in loaded + ["js/snapshot-maker.js"]
    ]:
        del files[path]
    assert [entry[0] for entry in precache["files"]] == sorted(files)
    for path, sha256, size in precache["files"]:
        assert sha256 == hashlib.sha256(files[path]).hexdigest(), path
        assert size == len(files[path]), path


def test_the_cache_is_named_by_the_build_id(built):
    info = json.loads((built.dist / "build-info.json").read_text())
    assert precache_of(built.dist)["build_id"] == info["build_id"] == built.info["build_id"]


def test_what_the_page_needs_offline_is_all_listed(built):
    listed = {entry[0] for entry in precache_of(built.dist)["files"]}
    needed = {
        "index.html",
        "build-info.json",
        "manifest.webmanifest",
        built.info["page_engine_wheel"],
        built.info["micropip_wheel"],
        "i18n/en.json",
        "js/app/early.js",
        "js/engine-start.js",
        "js/bundle.js",
        "worker/sync.js",
        "common/outbox.js",
        "css/main.css",
        "icons/icon-192.png",
        "icons/icon-512.png",
    }
    needed |= {f"pyodide/{name}" for name in built.info["runtime_files"]}
    assert needed <= listed


def test_the_worker_code_is_the_template_with_the_list_filled_in_and_its_imports_from_the_root(
    built,
):
    """web/worker/worker.js imports "./sync.js" and "../common/..." (kept-files.js, clock.js); dist/sw.js sits at
    the site's root, so it imports "./worker/sync.js" and "./common/..."."""
    template = (ROOT / "web" / "worker" / "worker.js").read_text()
    assert 'from "./sync.js"' in template and 'from "../common/kept-files.js"' in template
    rebased = template.replace('from "./sync.js"', 'from "./worker/sync.js"').replace(
        'from "../common/', 'from "./common/'
    )
    generated = (built.dist / "sw.js").read_text()
    before, after = rebased.split(steps.PRECACHE_MARK)
    assert generated.startswith(before) and generated.endswith(after)
    assert not (built.dist / "worker" / "worker.js").exists()


def test_a_rebuild_with_nothing_changed_skips_both_steps(built):
    before = dist_files(built.dist)
    again = builder.build(dist=built.dist, log=quiet)
    assert {"icons", "service_worker"} <= set(again.skipped)
    assert dist_files(built.dist) == before


def test_a_file_a_later_step_adds_is_precached_too(tmp_path):
    """E.g. a Pyodide memory snapshot added at the first hook: nothing in the worker names it."""

    def snapshot(ctx) -> None:
        ctx.put_bytes("pyodide/engine.snapshot", b"\0snapshot" * 1000)

    steps = list(builder.STEPS)
    at = next(i for i, step in enumerate(steps) if step.name == "build_info")
    steps.insert(at, builder.Step("pyodide_snapshot", snapshot))
    result = builder.build(dist=tmp_path / "dist", steps=steps, log=quiet)
    entries = {entry[0]: entry for entry in precache_of(result.dist)["files"]}
    assert entries["pyodide/engine.snapshot"][1] == hashlib.sha256(b"\0snapshot" * 1000).hexdigest()
    assert precache_of(result.dist)["build_id"] == result.info["build_id"]


def without_snapshots() -> list:
    """The pipeline without the snapshot steps (these tests edit the worker, not the engine)."""
    return [step for step in builder.STEPS if not step.name.endswith("_snapshot")]


def test_a_worker_template_without_the_mark_is_refused(tmp_path):
    project = copy_project(tmp_path / "project")
    (project / "web" / "worker" / "worker.js").write_text("const PRECACHE = {};\n")
    with pytest.raises(builder.BuildError, match="@precache"):
        builder.build(root=project, steps=without_snapshots(), log=quiet)


def test_every_icon_the_manifest_names_is_a_png_of_its_size(built):
    manifest = json.loads((built.dist / "manifest.webmanifest").read_text())
    purposes = set()
    for icon in manifest["icons"]:
        data = (built.dist / icon["src"]).read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n", icon["src"]
        width, height = struct.unpack(">II", data[16:24])
        assert icon["sizes"] == f"{width}x{height}"
        purposes.add((width, icon["purpose"]))
    assert {(192, "any"), (512, "any"), (192, "maskable"), (512, "maskable")} <= purposes


def test_maskable_icons_fill_the_square_and_any_icons_have_round_corners(built):
    import zlib

    def corner_alpha(path: str) -> int:
        data = (built.dist / path).read_bytes()
        width = struct.unpack(">I", data[16:20])[0]
        chunks, at = b"", 8
        while at < len(data):
            length = struct.unpack(">I", data[at : at + 4])[0]
            if data[at + 4 : at + 8] == b"IDAT":
                chunks += data[at + 8 : at + 8 + length]
            at += 12 + length
        first_row = zlib.decompress(chunks)[1 : 1 + width * 4]
        return first_row[3]

    assert corner_alpha("icons/icon-maskable-512.png") == 255
    assert corner_alpha("icons/icon-512.png") == 0


def test_a_worker_importing_a_file_not_in_the_build_is_refused(tmp_path):
    project = copy_project(tmp_path / "project")
    worker = project / "web" / "worker" / "worker.js"
    worker.write_text('import { gone } from "./js/not-built.js";\n' + worker.read_text())
    with pytest.raises(builder.BuildError, match="not-built.js"):
        builder.build(root=project, steps=without_snapshots(), log=quiet)
