#!/usr/bin/env python3
"""Build, serve and test Egyptian War: a pipeline of small named steps that fills dist/.

Usage:
    python build.py [build]                     build everything into dist/
    python build.py serve [--port 8000] [--host 127.0.0.1]
    python build.py test [PYTEST ARGS...]       install test needs, build, run every test

What dist/ holds after a build:
    index.html ...                   everything under web/, same relative paths
    wheels/ewar-V-py3-none-any.whl   the engine, built from pyproject.toml (flit_core)
    pyodide/                         the Pyodide files loadPyodide() fetches, from node_modules
    pyodide/micropip-V-...whl        the micropip version pinned by pyodide-lock.json (from PyPI)
    build-info.json                  what the page loads; build_id is a hash of all of the above

Adding a step: write `def my_step(ctx: Context) -> None` that writes into dist/ only through
ctx.put_file / ctx.put_bytes (and records facts for the page in ctx.info), optionally a
`def my_inputs(ctx) -> Inputs` naming what it reads so that it is skipped when nothing changed,
and insert `Step("my_step", my_step, my_inputs)` into STEPS at the marked hook points.

Stdlib only (Python 3.11+). Steps are skipped when their inputs' content is unchanged, so a
rebuild with nothing changed takes well under a second and rewrites nothing.
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import hashlib
import importlib.metadata
import importlib.util
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import tomllib
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent
DEFAULT_DIST = ROOT / "dist"
DEFAULT_CACHE = ROOT / "build" / "cache"
STATE_FORMAT = 1
BUILD_INFO = "build-info.json"

# The files loadPyodide() fetches from its indexURL (pyodide.mjs itself is imported by the page).
# Checked against pyodide 314.0.7: pyodide.mjs imports pyodide.asm.mjs, which loads
# pyodide.asm.wasm; python_stdlib.zip and pyodide-lock.json are fetched from indexURL.
PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)
# Zip timestamps of the engine wheel: fixed, so that the same sources give the same bytes.
SOURCE_DATE_EPOCH = "315619200"  # 1980-01-02T00:00:00Z
SKIP_NAMES = {"__pycache__", ".DS_Store", ".git"}
ENGINE_WHEELS_KEPT = 8  # engine wheels remembered in build/cache/engine, by source fingerprint
QUIET_PIP = {"PIP_DISABLE_PIP_VERSION_CHECK": "1", "PIP_NO_INPUT": "1"}


class BuildError(Exception):
    """A build step failed; the message says what to do."""


# ---------------------------------------------------------------------------------------------
# File hashing with a stat cache (content hashes, but files are re-read only when they change)


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


class FileHashes:
    """sha256 of files, remembered by (size, mtime_ns) across builds."""

    def __init__(self, known: dict[str, list]) -> None:
        self.known = known
        self.seen: dict[str, list] = {}

    def sha(self, path: Path) -> str:
        stat = path.stat()
        key = str(path)
        record = self.seen.get(key) or self.known.get(key)
        if record and record[0] == stat.st_size and record[1] == stat.st_mtime_ns:
            digest = record[2]
        else:
            digest = sha256_file(path)
        self.seen[key] = [stat.st_size, stat.st_mtime_ns, digest]
        return digest

    def remember(self, path: Path, digest: str) -> None:
        stat = path.stat()
        self.seen[str(path)] = [stat.st_size, stat.st_mtime_ns, digest]


# ---------------------------------------------------------------------------------------------
# Pipeline machinery


@dataclass
class Inputs:
    """What a step reads: files (hashed by content) and parameters (compared as JSON)."""

    files: list[Path] = field(default_factory=list)
    params: dict = field(default_factory=dict)


@dataclass(frozen=True)
class Step:
    """One named stage. `inputs` None means: always run (the step must then be cheap)."""

    name: str
    run: Callable[[Context], None]
    inputs: Callable[[Context], Inputs] | None = None


@dataclass
class Context:
    """What steps share: paths, the files put into dist/ so far and the build-info facts."""

    root: Path
    dist: Path
    cache: Path
    hashes: FileHashes
    state: dict
    log: Callable[[str], None]
    info: dict = field(default_factory=dict)
    outputs: dict[str, str] = field(default_factory=dict)  # dist-relative path -> sha256
    owner: dict[str, str] = field(default_factory=dict)  # dist-relative path -> step name
    step: str = ""

    def put_file(self, rel: str, source: Path) -> None:
        """Copy `source` to dist/rel unless the same content is already there."""
        digest = self.hashes.sha(source)
        target = self._claim(rel, digest)
        if not (target.is_file() and self.hashes.sha(target) == digest):
            target.parent.mkdir(parents=True, exist_ok=True)
            partial = target.with_name(f".{target.name}.partial")
            shutil.copyfile(source, partial)
            os.replace(partial, target)
            self.hashes.remember(target, digest)

    def put_bytes(self, rel: str, data: bytes) -> None:
        """Write `data` to dist/rel unless the same content is already there."""
        digest = hashlib.sha256(data).hexdigest()
        target = self._claim(rel, digest)
        if not (target.is_file() and self.hashes.sha(target) == digest):
            target.parent.mkdir(parents=True, exist_ok=True)
            partial = target.with_name(f".{target.name}.partial")
            partial.write_bytes(data)
            os.replace(partial, target)
            self.hashes.remember(target, digest)

    def _claim(self, rel: str, digest: str) -> Path:
        rel = Path(rel).as_posix()
        if rel.startswith(("/", "../")) or "/../" in rel:
            raise BuildError(f"step {self.step}: output path {rel!r} leaves dist/")
        if rel in self.owner and self.owner[rel] != self.step:
            raise BuildError(
                f"step {self.step} writes {rel}, which step {self.owner[rel]} already wrote"
            )
        self.owner[rel] = self.step
        self.outputs[rel] = digest
        return self.dist / rel


@dataclass
class BuildResult:
    dist: Path
    info: dict
    ran: list[str]
    skipped: list[str]
    seconds: float


def fingerprint(ctx: Context, inputs: Inputs) -> str:
    files = {}
    for path in sorted(set(inputs.files)):
        if not path.is_file():
            raise BuildError(f"step {ctx.step}: input {path} is missing")
        files[display(path, ctx.root)] = ctx.hashes.sha(path)
    material = json.dumps({"files": files, "params": inputs.params}, sort_keys=True)
    return hashlib.sha256(material.encode()).hexdigest()


def still_built(ctx: Context, record: dict) -> bool:
    """True when every file the step wrote last time is still in dist/ unchanged."""
    for rel, digest in record["outputs"].items():
        path = ctx.dist / rel
        if not path.is_file() or ctx.hashes.sha(path) != digest:
            return False
    return True


def run_step(ctx: Context, step: Step) -> bool:
    """Run one step, or replay its last result when its inputs are unchanged. True if it ran."""
    ctx.step = step.name
    steps_state = ctx.state.setdefault("steps", {})
    record = steps_state.get(step.name)
    key = fingerprint(ctx, step.inputs(ctx)) if step.inputs else None
    if key and record and record["fingerprint"] == key and still_built(ctx, record):
        for rel, digest in record["outputs"].items():
            ctx._claim(rel, digest)
        ctx.info.update(record["info"])
        return False
    steps_state.pop(step.name, None)
    info_before = dict(ctx.info)
    outputs_before = set(ctx.outputs)
    step.run(ctx)
    steps_state[step.name] = {
        "fingerprint": key,
        "outputs": {rel: ctx.outputs[rel] for rel in ctx.outputs if rel not in outputs_before},
        "info": {k: v for k, v in ctx.info.items() if info_before.get(k, object()) != v},
    }
    return True


def prune(ctx: Context) -> None:
    """Remove from dist/ every file no step wrote in this build, then empty folders."""
    if not ctx.dist.is_dir():
        return
    for path in sorted(ctx.dist.rglob("*"), reverse=True):
        rel = path.relative_to(ctx.dist).as_posix()
        if path.is_dir() and not path.is_symlink():
            if not any(path.iterdir()):
                path.rmdir()
        elif rel not in ctx.outputs:
            path.unlink()


@contextlib.contextmanager
def locked(cache: Path) -> Iterator[None]:
    """One build at a time per cache folder (tests, `serve` and a shell may overlap)."""
    cache.mkdir(parents=True, exist_ok=True)
    with (cache / "build.lock").open("w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def state_path(cache: Path, dist: Path) -> Path:
    tag = hashlib.sha256(str(dist).encode()).hexdigest()[:16]
    return cache / "state" / f"{tag}.json"


def forget_states_of_gone_dists(folder: Path) -> None:
    """Drop the state of dist folders that no longer exist (tests build into temp folders)."""
    for path in folder.glob("*.json") if folder.is_dir() else []:
        with contextlib.suppress(OSError, ValueError, KeyError, TypeError):
            if not Path(json.loads(path.read_text())["dist"]).is_dir():
                path.unlink()


def load_state(path: Path) -> dict:
    try:
        state = json.loads(path.read_text())
    except (OSError, ValueError):
        return {"format": STATE_FORMAT}
    return state if state.get("format") == STATE_FORMAT else {"format": STATE_FORMAT}


def save_state(path: Path, state: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(".partial")
    partial.write_text(json.dumps(state, indent=1, sort_keys=True))
    os.replace(partial, path)


def build(
    root: Path = ROOT,
    dist: Path | None = None,
    cache: Path | None = None,
    steps: list[Step] | None = None,
    log: Callable[[str], None] = print,
) -> BuildResult:
    """Run the pipeline; return the build-info facts. Raises BuildError on failure."""
    started = time.monotonic()
    root = Path(root).resolve()
    dist = Path(dist).resolve() if dist else root / "dist"
    cache = Path(cache).resolve() if cache else DEFAULT_CACHE
    check_dist_folder(root, dist)
    ran, skipped = [], []
    with locked(cache):
        where = state_path(cache, dist)
        state = load_state(where)
        ctx = Context(root, dist, cache, FileHashes(state.get("hashes", {})), state, log)
        dist.mkdir(parents=True, exist_ok=True)
        try:
            for step in STEPS if steps is None else steps:
                step_started = time.monotonic()
                if run_step(ctx, step):
                    ran.append(step.name)
                    verb = "built in" if step.inputs else "checked in"
                    log(f"  {step.name:<16} {verb} {time.monotonic() - step_started:.2f} s")
                else:
                    skipped.append(step.name)
                    log(f"  {step.name:<16} unchanged")
            prune(ctx)
        finally:
            state["hashes"] = ctx.hashes.seen
            state["dist"] = str(dist)
            forget_states_of_gone_dists(where.parent)
            save_state(where, state)
    seconds = time.monotonic() - started
    log(f"Built {display(dist, Path.cwd())} ({ctx.info.get('build_id')}) in {seconds:.2f} s")
    return BuildResult(dist, dict(ctx.info), ran, skipped, seconds)


def check_dist_folder(root: Path, dist: Path) -> None:
    """dist/ is emptied of anything the build did not write: refuse folders holding sources."""
    sources = [root / name for name in ("web", "ewar", "node_modules", "tests", "netlify")]
    if root.is_relative_to(dist) or any(dist.is_relative_to(folder) for folder in sources):
        raise BuildError(f"refusing to build into {dist}: it holds or is inside the sources")


def display(path: Path, base: Path) -> str:
    try:
        return path.relative_to(base).as_posix()
    except ValueError:
        return str(path)


def run_quiet(cmd: list[str], what: str, **kwargs) -> subprocess.CompletedProcess:
    """Run a tool, keep its output unless it fails; then show it and raise BuildError."""
    env = {**os.environ, **QUIET_PIP, **kwargs.pop("env", {})}
    done = subprocess.run(cmd, check=False, capture_output=True, text=True, env=env, **kwargs)
    if done.returncode != 0:
        sys.stderr.write(done.stdout + done.stderr)
        raise BuildError(f"{what} failed (exit {done.returncode}): {' '.join(cmd)}")
    return done


def node_executable() -> str | None:
    """The project's own Node (package.json pins node@22 from npm), else the system's."""
    own = ROOT / "node_modules" / ".bin" / "node"
    return str(own) if own.is_file() else shutil.which("node")


def files_under(folder: Path) -> list[Path]:
    return sorted(
        path
        for path in folder.rglob("*")
        if path.is_file()
        and not SKIP_NAMES.intersection(path.relative_to(folder).parts)
        and path.suffix != ".pyc"
    )


# ---------------------------------------------------------------------------------------------
# Step: node_modules (npm ci when node_modules does not match package-lock.json)


def node_modules_match_lock(root: Path) -> bool:
    lock = json.loads((root / "package-lock.json").read_text())
    for key, entry in lock.get("packages", {}).items():
        if not key.startswith("node_modules/") or entry.get("link"):
            continue
        manifest = root / key / "package.json"
        if not manifest.is_file():
            if entry.get("optional") or entry.get("dev"):
                continue
            return False
        if json.loads(manifest.read_text()).get("version") != entry.get("version"):
            return False
    return True


def ensure_node_modules(ctx: Context) -> None:
    root = ctx.root
    lock = root / "package-lock.json"
    key = ctx.hashes.sha(lock if lock.is_file() else root / "package.json")
    installed = (root / "node_modules" / "pyodide" / "package.json").is_file()
    if installed and ctx.state.get("npm_lock") == key:
        return
    if installed and lock.is_file() and node_modules_match_lock(root):
        ctx.state["npm_lock"] = key
        return
    npm = shutil.which("npm")
    if not npm:
        raise BuildError("npm not found: install Node.js 22 (with npm) first")
    command = [npm, "ci" if lock.is_file() else "install", "--no-audit", "--no-fund"]
    ctx.log(f"  running {' '.join(command[1:])} (node_modules does not match the lock)")
    run_quiet(command, "npm", cwd=root)
    if not (root / "node_modules" / "pyodide" / "package.json").is_file():
        raise BuildError("npm finished but node_modules/pyodide is missing: is it in package.json?")
    ctx.state["npm_lock"] = key


# ---------------------------------------------------------------------------------------------
# Step: engine_wheel (the ewar wheel, built by pip + flit_core from a clean staging copy)


def read_pyproject(root: Path) -> dict:
    with (root / "pyproject.toml").open("rb") as handle:
        return tomllib.load(handle)


def engine_source_files(root: Path) -> list[Path]:
    """Exactly what flit_core puts in the wheel: pyproject, readme, licences, the package."""
    project = read_pyproject(root)["project"]
    files = [root / "pyproject.toml"]
    readme = project.get("readme")
    readme = readme.get("file") if isinstance(readme, dict) else readme
    if readme:
        if not (root / readme).is_file():
            raise BuildError(f"pyproject.toml names readme {readme!r}, which does not exist")
        files.append(root / readme)
    licence = project.get("license")
    if isinstance(licence, dict) and licence.get("file"):
        files.append(root / licence["file"])
    for pattern in ("LICEN[CS]E*", "COPYING*", "NOTICE*", "AUTHORS*"):
        files.extend(path for path in root.glob(pattern) if path.is_file())
    module = read_pyproject(root).get("tool", {}).get("flit", {}).get("module", {})
    name = module.get("name", project["name"]).replace("-", "_")
    package = root / name
    if (package / "__init__.py").is_file():
        files.extend(files_under(package))
    elif (root / f"{name}.py").is_file():
        files.append(root / f"{name}.py")
    else:
        raise BuildError(f"no package {name}/__init__.py (or {name}.py) to build a wheel from")
    return sorted(set(files))


def engine_inputs(ctx: Context) -> Inputs:
    return Inputs(engine_source_files(ctx.root), {"source_date_epoch": SOURCE_DATE_EPOCH})


def wheel_version(wheel: Path) -> str:
    with zipfile.ZipFile(wheel) as archive:
        metadata = next(n for n in archive.namelist() if n.endswith(".dist-info/METADATA"))
        for line in archive.read(metadata).decode().splitlines():
            if line.startswith("Version:"):
                return line.split(":", 1)[1].strip()
    raise BuildError(f"{wheel.name} has no Version in its METADATA")


def forget_old_engine_wheels(folder: Path, keep: int) -> None:
    """The wheel cache keeps the most recent builds only (switching branches stays fast)."""
    entries = sorted(folder.iterdir(), key=lambda entry: entry.stat().st_mtime, reverse=True)
    for entry in entries[keep:]:
        shutil.rmtree(entry, ignore_errors=True)


def build_engine_wheel(ctx: Context) -> None:
    key = fingerprint(ctx, engine_inputs(ctx))
    kept = ctx.cache / "engine" / key[:24]
    wheels = sorted(kept.glob("*.whl")) if kept.is_dir() else []
    if not wheels:
        with tempfile.TemporaryDirectory(prefix="ewar-wheel-") as tmp:
            stage, out = Path(tmp, "src"), Path(tmp, "out")
            for path in engine_source_files(ctx.root):
                copy = stage / path.relative_to(ctx.root)
                copy.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(path, copy)
            command = [
                sys.executable,
                "-m",
                "pip",
                "wheel",
                str(stage),
                "--no-deps",
                "-w",
                str(out),
            ]
            run_quiet(command, "pip wheel", env={"SOURCE_DATE_EPOCH": SOURCE_DATE_EPOCH})
            built = sorted(out.glob("*.whl"))
            if len(built) != 1:
                raise BuildError(f"pip wheel made {len(built)} wheels, expected 1")
            shutil.rmtree(kept, ignore_errors=True)
            kept.mkdir(parents=True)
            shutil.copyfile(built[0], kept / built[0].name)
        wheels = sorted(kept.glob("*.whl"))
    os.utime(kept)  # most recently used
    forget_old_engine_wheels(kept.parent, keep=ENGINE_WHEELS_KEPT)
    wheel = wheels[0]
    ctx.put_file(f"wheels/{wheel.name}", wheel)
    ctx.info["engine_wheel"] = f"wheels/{wheel.name}"
    ctx.info["engine_version"] = wheel_version(wheel)


# ---------------------------------------------------------------------------------------------
# Step: pyodide_runtime (copy what loadPyodide fetches)


def pyodide_dir(ctx: Context) -> Path:
    return ctx.root / "node_modules" / "pyodide"


def pyodide_inputs(ctx: Context) -> Inputs:
    folder = pyodide_dir(ctx)
    files = [folder / "package.json", *(folder / name for name in PYODIDE_FILES)]
    return Inputs(files, {"records": ["pyodide_version", "runtime_files"]})


def copy_pyodide_runtime(ctx: Context) -> None:
    folder = pyodide_dir(ctx)
    for name in PYODIDE_FILES:
        ctx.put_file(f"pyodide/{name}", folder / name)
    # The one list of runtime files (under pyodide/) with their sizes: the page's loader reads it.
    ctx.info["runtime_files"] = {name: (folder / name).stat().st_size for name in PYODIDE_FILES}
    ctx.info["pyodide_version"] = json.loads((folder / "package.json").read_text())["version"]


# ---------------------------------------------------------------------------------------------
# Step: micropip_wheel (the version pyodide-lock.json pins, from PyPI, cached under build/cache)


def micropip_inputs(ctx: Context) -> Inputs:
    return Inputs([pyodide_dir(ctx) / "pyodide-lock.json"])


def fetch_micropip(ctx: Context) -> None:
    lock = json.loads((pyodide_dir(ctx) / "pyodide-lock.json").read_text())
    entry = lock["packages"]["micropip"]
    version = entry["version"]
    python = ".".join(lock["info"]["python"].split(".")[:2])
    kept = ctx.cache / "downloads" / f"micropip-{version}"
    wheels = sorted(kept.glob("*.whl")) if kept.is_dir() else []
    if not wheels:
        ctx.log(f"  downloading micropip {version} from PyPI")
        with tempfile.TemporaryDirectory(prefix="micropip-") as tmp:
            command = [
                sys.executable,
                "-m",
                "pip",
                "download",
                f"micropip=={version}",
                "--no-deps",
                "--only-binary=:all:",
                "--python-version",
                python,
                "-d",
                tmp,
            ]
            run_quiet(command, "pip download micropip")
            got = sorted(Path(tmp).glob("*.whl"))
            if len(got) != 1 or not zipfile.is_zipfile(got[0]):
                raise BuildError(f"pip download gave {[p.name for p in got]}, not one wheel")
            kept.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(got[0], kept / f".{got[0].name}.partial")
            os.replace(kept / f".{got[0].name}.partial", kept / got[0].name)
        wheels = sorted(kept.glob("*.whl"))
    wheel = wheels[0]
    if wheel.name != entry["file_name"]:
        ctx.log(f"  note: PyPI wheel {wheel.name} is not named {entry['file_name']} as in the lock")
    ctx.put_file(f"pyodide/{wheel.name}", wheel)
    ctx.info["micropip_wheel"] = f"pyodide/{wheel.name}"


# ---------------------------------------------------------------------------------------------
# Step: web (the page shell, web/ -> dist/)


def web_inputs(ctx: Context) -> Inputs:
    web = ctx.root / "web"
    return Inputs(files_under(web) if web.is_dir() else [])


def copy_web(ctx: Context) -> None:
    web = ctx.root / "web"
    if not web.is_dir():
        return
    for path in files_under(web):
        rel = path.relative_to(web).as_posix()
        if rel == BUILD_INFO:
            raise BuildError(f"web/{BUILD_INFO} would be overwritten by the build")
        ctx.put_file(rel, path)


# ---------------------------------------------------------------------------------------------
# Step: page_snapshot (the page's Pyodide memory snapshot with the engine imported, made in Node)

PAGE_SNAPSHOT_TOOL = Path("tools") / "page_snapshot.mjs"
SNAPSHOTS_KEPT = 4  # page snapshots remembered in build/cache/snapshot, by input fingerprint


def page_snapshot_tool(ctx: Context) -> Path:
    """The project's own tool; a project copy without tools/ (build tests) uses this repo's."""
    own = ctx.root / PAGE_SNAPSHOT_TOOL
    return own if own.is_file() else ROOT / PAGE_SNAPSHOT_TOOL


def built_engine_wheel(ctx: Context) -> Path:
    return ctx.dist / ctx.info["engine_wheel"]


def page_snapshot_inputs(ctx: Context) -> Inputs:
    """The tool, the runtime and the wheel (by content: tests build it into other dist folders)."""
    wheel = {"engine_wheel_sha256": ctx.hashes.sha(built_engine_wheel(ctx))}
    return Inputs([page_snapshot_tool(ctx), *pyodide_inputs(ctx).files], wheel)


def run_page_snapshot_tool(ctx: Context, kept: Path) -> None:
    node = node_executable()
    if not node:
        raise BuildError("node not found: install Node.js 22")
    with tempfile.TemporaryDirectory(prefix="ewar-snapshot-") as tmp:
        out = Path(tmp, "engine.snapshot.gz")
        command = [
            node,
            str(page_snapshot_tool(ctx)),
            "--pyodide",
            str(pyodide_dir(ctx)),
            "--wheel",
            str(built_engine_wheel(ctx)),
            "--out",
            str(out),
        ]
        done = run_quiet(command, "making the page's memory snapshot", cwd=ctx.root)
        facts = json.loads(done.stdout.strip().splitlines()[-1])
        shutil.rmtree(kept, ignore_errors=True)
        kept.mkdir(parents=True)
        shutil.copyfile(out, kept / out.name)
        (kept / "facts.json").write_text(json.dumps(facts))  # last: marks a complete entry


def make_page_snapshot(ctx: Context) -> None:
    """dist/pyodide/engine-SHA.snapshot.gz and build-info's "snapshot" (what the page checks)."""
    kept = ctx.cache / "snapshot" / fingerprint(ctx, page_snapshot_inputs(ctx))[:24]
    if not (kept / "facts.json").is_file():
        run_page_snapshot_tool(ctx, kept)
    os.utime(kept)  # most recently used
    forget_old_engine_wheels(kept.parent, keep=SNAPSHOTS_KEPT)
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
        "engine_wheel_sha256": ctx.hashes.sha(built_engine_wheel(ctx)),
    }


# ---------------------------------------------------------------------------------------------
# Step: function_snapshot (netlify/make_snapshot.mjs -> build/function/, not published in dist/)


def function_snapshot_stamp(ctx: Context, tools: list[Path]) -> str:
    """What the function's snapshot was made from: its tools, the wheel and the runtime."""
    files = {display(path, ctx.root): path for path in [*tools, *pyodide_inputs(ctx).files]}
    files["engine_wheel"] = built_engine_wheel(ctx)  # wherever dist/ is (tests build elsewhere)
    return json.dumps({name: ctx.hashes.sha(path) for name, path in files.items()})


def make_function_snapshot(ctx: Context) -> None:
    """Runs the function engineer's tool unless build/function/ already holds its snapshot of
    exactly these inputs (checked here, not by the step cache: its output is outside dist/)."""
    tool = ctx.root / "netlify" / "make_snapshot.mjs"
    engine = ctx.root / "netlify" / "functions" / "scores" / "engine.mjs"
    if not (tool.is_file() and engine.is_file()):
        return
    out = ctx.root / "build" / "function"
    stamp_file = out / "engine.snapshot.made"
    stamp = function_snapshot_stamp(ctx, [tool, engine])
    made = all((out / name).is_file() for name in ("engine.snapshot", "engine.snapshot.json"))
    if made and stamp_file.is_file() and stamp_file.read_text() == stamp:
        return
    node = node_executable()
    if not node:
        raise BuildError("node not found: install Node.js 22")
    stamp_file.unlink(missing_ok=True)
    wheel = str(built_engine_wheel(ctx))
    command = [node, str(tool), "--root", str(ctx.root), "--wheel", wheel, "--out", str(out)]
    run_quiet(command, "making the function's memory snapshot", cwd=ctx.root)
    if (out / "engine.snapshot").is_file():
        stamp_file.write_text(stamp)
    else:
        ctx.log("  note: the function's snapshot did not restore; the function will load plainly")


# ---------------------------------------------------------------------------------------------
# Step: build_info (what the page reads first)

INFO_ORDER = ("engine_wheel", "micropip_wheel", "pyodide_version", "engine_version", "runtime_files")


def content_hash(outputs: dict[str, str]) -> str:
    """build_id: sha256 over 'path<TAB>sha256' lines of every dist file but build-info.json."""
    lines = "".join(f"{rel}\t{outputs[rel]}\n" for rel in sorted(outputs) if rel != BUILD_INFO)
    return hashlib.sha256(lines.encode()).hexdigest()[:16]


def write_build_info(ctx: Context) -> None:
    missing = [key for key in INFO_ORDER if key not in ctx.info]
    if missing:
        raise BuildError(f"build-info is missing {missing}: a step did not run")
    ctx.info["build_id"] = content_hash(ctx.outputs)
    keys = [*INFO_ORDER, *sorted(set(ctx.info) - set(INFO_ORDER) - {"build_id"}), "build_id"]
    # Nested facts (e.g. "snapshot") with sorted keys: a skipped step's facts come back from the state
    # file key-sorted, and build-info.json must be the same bytes whether its steps ran or were skipped.
    document = {key: json.loads(json.dumps(ctx.info[key], sort_keys=True)) for key in keys}
    ctx.put_bytes(BUILD_INFO, (json.dumps(document, indent=2) + "\n").encode())


# ---------------------------------------------------------------------------------------------
# Step: icons (the app icons web/manifest.webmanifest lists, drawn by tools/icons.py)


def icons_tool(root: Path) -> Path:
    """The project's own tool; a project copy without it (build tests) uses this repo's."""
    own = root / "tools" / "icons.py"
    return own if own.is_file() else ROOT / "tools" / "icons.py"


def icons_inputs(ctx: Context) -> Inputs:
    return Inputs([icons_tool(ctx.root)])


def draw_icons(ctx: Context) -> None:
    spec = importlib.util.spec_from_file_location("ewar_icons", icons_tool(ctx.root))
    if not spec or not spec.loader:
        raise BuildError(f"cannot load {icons_tool(ctx.root)}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    for rel, data in module.icon_files().items():
        ctx.put_bytes(rel, data)


# ---------------------------------------------------------------------------------------------
# Step: service_worker (dist/sw.js: sw/worker.js with the precache list of this build)

SERVICE_WORKER = "sw.js"
PRECACHE_MARK = "/* @precache */ { build_id: \"dev\", files: [] }"
# Files in dist/ that the page never loads: the worker itself and Netlify's control files.
NOT_PRECACHED = {SERVICE_WORKER, "_headers", "_redirects"}


def worker_source(root: Path) -> Path:
    """The project's own worker; a project copy without it (build tests) uses this repo's."""
    own = root / "sw" / "worker.js"
    return own if own.is_file() else ROOT / "sw" / "worker.js"


def precache_list(ctx: Context) -> list[list]:
    """[path, sha256, size] of every file in dist/ the page may load (all of them, so far)."""
    return [
        [rel, ctx.outputs[rel], (ctx.dist / rel).stat().st_size]
        for rel in sorted(ctx.outputs)
        if rel not in NOT_PRECACHED and not rel.endswith(".map")
    ]


def service_worker_inputs(ctx: Context) -> Inputs:
    return Inputs(
        [worker_source(ctx.root)],
        {"build_id": ctx.info["build_id"], "files": precache_list(ctx)},
    )


def write_service_worker(ctx: Context) -> None:
    source = worker_source(ctx.root).read_text()
    if source.count(PRECACHE_MARK) != 1:
        raise BuildError(f"{worker_source(ctx.root)} must hold the line {PRECACHE_MARK!r} once")
    for imported in re.findall(r"^import\b[^;]*?from\s+[\"']\./([^\"']+)[\"']", source, re.MULTILINE):
        if imported not in ctx.outputs:
            raise BuildError(f"{worker_source(ctx.root)} imports ./{imported}, which is not in dist/")
    manifest = {"build_id": ctx.info["build_id"], "files": precache_list(ctx)}
    listed = json.dumps(manifest, separators=(",", ":")).replace("],[", "],\n  [")
    ctx.put_bytes(SERVICE_WORKER, source.replace(PRECACHE_MARK, listed).encode())


# ---------------------------------------------------------------------------------------------
# The pipeline. Order matters: a step may read what earlier steps put in dist/ and ctx.info.

STEPS: list[Step] = [
    Step("node_modules", ensure_node_modules),
    Step("engine_wheel", build_engine_wheel, engine_inputs),
    Step("pyodide_runtime", copy_pyodide_runtime, pyodide_inputs),
    Step("micropip_wheel", fetch_micropip, micropip_inputs),
    Step("web", copy_web, web_inputs),
    Step("icons", draw_icons, icons_inputs),
    # HOOK: steps that add files the page loads go here, e.g. a Pyodide memory snapshot made
    # in Node from dist/pyodide + the engine wheel: Step("pyodide_snapshot", make, inputs).
    # Their files are covered by build_id; put their facts for the page in ctx.info.
    Step("page_snapshot", make_page_snapshot, page_snapshot_inputs),
    Step("function_snapshot", make_function_snapshot),  # writes build/function/, not dist/
    Step("build_info", write_build_info),
    # HOOK: steps that need the final file list and build_id go here, e.g. the service-worker
    # precache manifest (ctx.outputs lists every file; ctx.info["build_id"] names the cache).
    # Their own files are not covered by build_id.
    Step("service_worker", write_service_worker, service_worker_inputs),
]


# ---------------------------------------------------------------------------------------------
# serve


def devserver_command(
    dist: Path,
    host: str = "127.0.0.1",
    port: int = 8000,
    data_dir: Path | None = None,
    api_module: Path | None = None,
) -> list[str]:
    node = node_executable()
    if not node:
        raise BuildError("node not found: install Node.js 22")
    command = [
        node,
        str(ROOT / "tools" / "devserver.mjs"),
        "--dir",
        str(dist),
        "--host",
        host,
        "--port",
        str(port),
    ]
    if data_dir:
        command += ["--data-dir", str(data_dir)]
    if api_module:
        command += ["--api-module", str(api_module)]
    return command


class DevServer:
    """tools/devserver.mjs in the background on a free port, for tests: `with DevServer(d) as url`."""

    READY = re.compile(r"Serving Egyptian War at (http://\S+)")

    def __init__(
        self,
        dist: Path,
        *,
        data_dir: Path | None = None,
        api_module: Path | None = None,
        timeout: float = 30.0,
    ) -> None:
        self.command = devserver_command(dist, port=0, data_dir=data_dir, api_module=api_module)
        self.timeout = timeout
        self.lines: list[str] = []
        self.process: subprocess.Popen | None = None
        self.url = ""

    def __enter__(self) -> str:
        return self.start()

    def __exit__(self, *_exc: object) -> None:
        self.stop()

    def start(self) -> str:
        self.process = subprocess.Popen(
            self.command,
            cwd=ROOT,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        found: list[str] = []
        ready = threading.Event()
        reader = threading.Thread(target=self._read, args=(found, ready), daemon=True)
        reader.start()
        if not ready.wait(self.timeout) or not found:
            self.stop()
            output = "".join(self.lines)
            raise BuildError(f"the dev server did not start in {self.timeout} s:\n{output}")
        self.url = found[0]
        return self.url

    def _read(self, found: list[str], ready: threading.Event) -> None:
        assert self.process and self.process.stdout
        for line in self.process.stdout:
            self.lines.append(line)
            match = self.READY.search(line)
            if match and not found:
                found.append(match.group(1))
                ready.set()
        ready.set()

    def stop(self) -> int | None:
        if not self.process:
            return None
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        return self.process.returncode


def serve(host: str, port: int) -> int:
    """Build, then run the dev server in the foreground; Ctrl-C / SIGTERM stop it cleanly."""
    build()
    server = subprocess.Popen(devserver_command(DEFAULT_DIST, host, port), cwd=ROOT)

    def forward(signum: int, _frame: object) -> None:
        if server.poll() is None:
            server.send_signal(signum)

    previous = {sig: signal.signal(sig, forward) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        try:
            return server.wait(timeout=None)
        finally:
            if server.poll() is None:
                server.terminate()
                server.wait(timeout=10)
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


# ---------------------------------------------------------------------------------------------
# test


def version_tuple(text: str) -> tuple[int, ...]:
    match = re.match(r"\d+(\.\d+)*", text)
    return tuple(int(part) for part in match.group().split(".")) if match else ()


def requirement_met(requirement: str) -> bool:
    """A small check for 'name', 'name>=1.2', 'name==1.2.3,<2' (markers: presence only)."""
    spec = requirement.split(";", 1)[0].strip()
    match = re.fullmatch(r"([A-Za-z0-9._-]+)(\[[^\]]*\])?\s*(.*)", spec)
    if not match:
        return False
    try:
        installed = importlib.metadata.version(match.group(1))
    except importlib.metadata.PackageNotFoundError:
        return False
    have = version_tuple(installed)
    compare = {
        "==": lambda a, b: a == b,
        "!=": lambda a, b: a != b,
        ">=": lambda a, b: a >= b,
        "<=": lambda a, b: a <= b,
        ">": lambda a, b: a > b,
        "<": lambda a, b: a < b,
    }
    for clause in filter(None, (c.strip() for c in match.group(3).split(","))):
        operator = re.match(r"(==|!=|>=|<=|>|<)\s*(.+)", clause)
        if not operator:
            return False
        want = version_tuple(operator.group(2))
        width = max(len(have), len(want))
        padded = have + (0,) * (width - len(have)), want + (0,) * (width - len(want))
        if not compare[operator.group(1)](*padded):
            return False
    return True


def engine_installed_editable(root: Path, name: str) -> bool:
    try:
        direct = importlib.metadata.distribution(name).read_text("direct_url.json")
    except importlib.metadata.PackageNotFoundError:
        return False
    if not direct:
        return False
    origin = json.loads(direct)
    return origin.get("url") == root.as_uri() and origin.get("dir_info", {}).get("editable", False)


def ensure_python_test_deps(root: Path) -> None:
    project = read_pyproject(root)["project"]
    needs = project.get("dependencies", []) + project.get("optional-dependencies", {}).get(
        "test", []
    )
    if engine_installed_editable(root, project["name"]) and all(map(requirement_met, needs)):
        return
    print("Installing the engine (editable) and its test requirements with pip")
    command = [sys.executable, "-m", "pip", "install", "-e", ".[test]"]
    done = subprocess.run(command, check=False, cwd=root, env={**os.environ, **QUIET_PIP})
    if done.returncode != 0:
        raise BuildError("pip install -e '.[test]' failed")


def playwright_chromium() -> str | None:
    """Path of Playwright's own Chromium if it is installed, else None."""
    probe = (
        "from playwright.sync_api import sync_playwright\n"
        "with sync_playwright() as p:\n    print(p.chromium.executable_path)\n"
    )
    try:
        done = subprocess.run(
            [sys.executable, "-c", probe],
            check=False,
            capture_output=True,
            text=True,
            timeout=120,
        )
    except subprocess.TimeoutExpired:
        return None
    path = done.stdout.strip()
    return path if done.returncode == 0 and path and Path(path).is_file() else None


def choose_chromium() -> str:
    """The EWAR_CHROMIUM value for tests: '' = Playwright's own, else a path."""
    chosen = os.environ.get("EWAR_CHROMIUM", "")
    if chosen and Path(chosen).is_file():
        return chosen
    if playwright_chromium():
        return ""
    if Path("/usr/bin/chromium").is_file():
        return "/usr/bin/chromium"
    raise BuildError(
        "No Chromium for the browser tests: install Debian's with\n"
        "    apt-get install -y chromium\n"
        "(or set EWAR_CHROMIUM to a Chromium executable)"
    )


def node_test_files(root: Path) -> list[Path]:
    folder = root / "netlify"
    if not folder.is_dir():
        return []
    return sorted(path for path in folder.glob("**/*.test.mjs") if "node_modules" not in path.parts)


def run_tests(pytest_args: list[str]) -> int:
    root = ROOT
    if pytest_args[:1] == ["--"]:
        pytest_args = pytest_args[1:]
    ensure_python_test_deps(root)
    chromium = choose_chromium()
    print(f"Chromium for tests: {chromium or 'Playwright’s own'}")
    build()
    env = {**os.environ, "EWAR_CHROMIUM": chromium}
    failures = []
    pytest_command = [sys.executable, "-m", "pytest", *pytest_args]
    pytest = subprocess.run(pytest_command, check=False, cwd=root, env=env)
    if pytest.returncode == 5:
        print("pytest collected no tests: that is a failure", file=sys.stderr)
    if pytest.returncode != 0:
        failures.append(f"pytest (exit {pytest.returncode})")
    node_tests = node_test_files(root)
    if node_tests:
        files = [path.relative_to(root).as_posix() for path in node_tests]
        node = subprocess.run([node_executable() or "node", "--test", *files], check=False, cwd=root, env=env)
        if node.returncode != 0:
            failures.append(f"node --test (exit {node.returncode})")
    else:
        print("No netlify/**/*.test.mjs files: node --test not run")
    if failures:
        print("build.py test FAILED: " + ", ".join(failures), file=sys.stderr)
        return 1
    print("build.py test: all steps succeeded")
    return 0


# ---------------------------------------------------------------------------------------------
# command line


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="build.py", description=__doc__.split("\n\n")[0])
    commands = top.add_subparsers(dest="command")
    commands.add_parser("build", help="build everything into dist/ (the default)")
    serve_cmd = commands.add_parser("serve", help="build, then serve dist/ and the scores API")
    serve_cmd.add_argument("--port", type=int, default=8000)
    serve_cmd.add_argument("--host", default="127.0.0.1")
    commands.add_parser(
        "test", help="install test needs, build, run pytest and node --test (args go to pytest)"
    )
    return top


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    try:
        if argv[:1] == ["test"]:
            return run_tests(argv[1:])
        options = parser().parse_args(argv)
        if options.command == "serve":
            return serve(options.host, options.port)
        build()
        return 0
    except BuildError as error:
        print(f"build.py: {error}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
