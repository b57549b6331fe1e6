"""The snapshot steps: Pyodide memory snapshots of the engine (tools/builder/snapshot.mjs). The page's is made
with the page's trimmed standard library and published gzipped (dist/pyodide/engine-SHA.snapshot.gz,
build-info's "snapshot"); the scores function's is made with Pyodide's own standard library (which the function
loads) and published raw (build/function/engine.snapshot + engine.snapshot.json, outside dist/). A snapshot
must be restored with the standard-library zip it was made with."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path

from .pipeline import BuildError, Context, Inputs, Step, fingerprint, replace_file
from .stdlib import STDLIB_ZIP
from .steps import forget_least_recent, pyodide_inputs
from .toolchain import project_node, run_quiet

MAKER = Path("tools") / "builder" / "snapshot.mjs"
OPTIONS = Path("tools") / "builder" / "options.mjs"  # its command line
HOST = Path("web") / "common" / "host.js"
SNAPSHOTS_KEPT = 4  # snapshots remembered in build/cache/snapshot, by input fingerprint
FUNCTION_FOLDER = Path("build") / "function"
FUNCTION_SNAPSHOT_FORMAT = 1  # engine.snapshot.json's "format": the function refuses any other


def engine_wheel(ctx: Context) -> Path:
    return ctx.dist / ctx.info["engine_wheel"]


def page_stdlib(ctx: Context) -> Path:
    return ctx.dist / "pyodide" / STDLIB_ZIP


def snapshot_inputs(ctx: Context, stdlib: Path | None = None) -> Inputs:
    """The maker, the host it loads, the runtime, the wheel and the standard library (by content: tests build
    elsewhere)."""
    files = [ctx.root / MAKER, ctx.root / OPTIONS, ctx.root / HOST, *pyodide_inputs(ctx).files]
    params = {"engine_wheel_sha256": ctx.hashes.sha(engine_wheel(ctx))}
    if stdlib:
        params["stdlib_sha256"] = ctx.hashes.sha(stdlib)
    return Inputs(files, params)


def page_snapshot_inputs(ctx: Context) -> Inputs:
    return snapshot_inputs(ctx, page_stdlib(ctx))


def kept_snapshot(ctx: Context, stdlib: Path | None = None) -> Path:
    """The cache entry of the snapshot of this build's inputs with `stdlib` (None: Pyodide's own), made when
    missing."""
    kept = ctx.cache / "snapshot" / fingerprint(ctx, snapshot_inputs(ctx, stdlib))[:24]
    if not (kept / "facts.json").is_file():
        make_snapshot(ctx, kept, stdlib)
    os.utime(kept)  # most recently used
    forget_least_recent(kept.parent, keep=SNAPSHOTS_KEPT)
    return kept


def make_snapshot(ctx: Context, kept: Path, stdlib: Path | None) -> None:
    kept.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=".making-", dir=kept.parent))
    try:
        command = [
            str(project_node(ctx.root)),
            str(ctx.root / MAKER),
            *("--pyodide", str(ctx.root / "node_modules" / "pyodide")),
            *("--wheel", str(engine_wheel(ctx)), "--out", str(work)),
            *(("--stdlib", str(stdlib)) if stdlib else ()),
        ]
        done = run_quiet(command, "making the engine's memory snapshot", cwd=ctx.root)
        facts = json.loads(done.stdout.strip().splitlines()[-1])
        (work / "facts.json").write_text(json.dumps(facts))
        shutil.rmtree(kept, ignore_errors=True)
        os.replace(work, kept)  # whole entries only: a complete one holds facts.json
    finally:
        shutil.rmtree(work, ignore_errors=True)


def publish_page_snapshot(ctx: Context) -> None:
    """dist/pyodide/engine-SHA.snapshot.gz, named by its content, and build-info's "snapshot"."""
    kept = kept_snapshot(ctx, page_stdlib(ctx))
    facts = json.loads((kept / "facts.json").read_text())
    rel = f"pyodide/engine-{facts['sha256'][:16]}.snapshot.gz"
    ctx.put_file(rel, kept / "engine.snapshot.gz")
    ctx.info["snapshot"] = {
        "file": rel,
        "encoding": "gzip",
        "size": facts["size"],
        "sha256": facts["sha256"],
        "pyodide_version": facts["pyodide_version"],
        "engine_version": facts["engine_version"],
        "engine_wheel_sha256": ctx.hashes.sha(engine_wheel(ctx)),
    }


def function_snapshot_meta(ctx: Context, facts: dict) -> dict:
    """engine.snapshot.json: what the function checks before it restores the snapshot."""
    wheel = engine_wheel(ctx)
    return {
        "format": FUNCTION_SNAPSHOT_FORMAT,
        "pyodide_version": facts["pyodide_version"],
        "wasm_size": facts["wasm_size"],
        "wheel": wheel.name,
        "wheel_sha256": ctx.hashes.sha(wheel),
        "engine_version": facts["engine_version"],
        "modules": facts["modules"],
        "size": facts["size"],
    }


def publish_function_snapshot(ctx: Context) -> None:
    """build/function/: the same snapshot, raw, for the scores function (netlify.toml's
    included_files). Always checked, cheaply: its files are outside dist/ and the step cache."""
    kept = kept_snapshot(ctx)
    facts = json.loads((kept / "facts.json").read_text())
    folder = ctx.root / FUNCTION_FOLDER
    snapshot = folder / "engine.snapshot"
    if not (snapshot.is_file() and ctx.hashes.sha(snapshot) == facts["sha256"]):
        replace_file(snapshot, lambda partial: shutil.copyfile(kept / "engine.snapshot", partial))
        if ctx.hashes.sha(snapshot) != facts["sha256"]:
            raise BuildError(f"{snapshot} does not hold the snapshot the maker reported")
    meta = json.dumps(function_snapshot_meta(ctx, facts), indent=2) + "\n"
    described = folder / "engine.snapshot.json"
    if not (described.is_file() and described.read_text() == meta):
        replace_file(described, lambda partial: partial.write_text(meta))


SNAPSHOT_STEPS = [
    Step("page_snapshot", publish_page_snapshot, page_snapshot_inputs),
    Step("function_snapshot", publish_function_snapshot),
]
