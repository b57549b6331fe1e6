"""The build pipeline: named steps that fill dist/, each skipped when its inputs are unchanged.

A step writes into dist/ only through ``ctx.put_file`` / ``ctx.put_bytes`` and records facts for the
page in ``ctx.info``; its optional ``inputs`` names what it reads (files by content, parameters as
JSON). The state (fingerprints, what each step wrote, a stat cache of file hashes) lives in the cache
folder, so a rebuild with nothing changed rewrites nothing and takes well under a second.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import shutil
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

STATE_FORMAT = 1


class BuildError(Exception):
    """A build step failed; the message says what to do."""


def sha256_file(path: Path) -> str:
    """Hex sha256 of a file's bytes."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def display(path: Path, base: Path) -> str:
    """`path` relative to `base` when it is inside it, else absolute."""
    try:
        return path.relative_to(base).as_posix()
    except ValueError:
        return str(path)


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
            replace_file(target, lambda partial: shutil.copyfile(source, partial))
            self.hashes.remember(target, digest)

    def put_bytes(self, rel: str, data: bytes) -> None:
        """Write `data` to dist/rel unless the same content is already there."""
        digest = hashlib.sha256(data).hexdigest()
        target = self._claim(rel, digest)
        if not (target.is_file() and self.hashes.sha(target) == digest):
            replace_file(target, lambda partial: partial.write_bytes(data))
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


def replace_file(target: Path, write: Callable[[Path], object]) -> None:
    """Write a file beside `target`, then move it into place: readers never see half a file."""
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(f".{target.name}.partial")
    write(partial)
    os.replace(partial, target)


@dataclass
class BuildResult:
    """What a build made: the dist folder, its build-info facts, the steps run and skipped."""

    dist: Path
    info: dict
    ran: list[str]
    skipped: list[str]
    seconds: float


def fingerprint(ctx: Context, inputs: Inputs) -> str:
    """sha256 over the content of a step's input files and its parameters."""
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
    replace_file(
        path, lambda partial: partial.write_text(json.dumps(state, indent=1, sort_keys=True))
    )


def check_dist_folder(root: Path, dist: Path) -> None:
    """dist/ is emptied of anything the build did not write: refuse folders holding sources."""
    sources = [root / name for name in ("web", "ewar", "node_modules", "tests", "netlify", "tools")]
    if root.is_relative_to(dist) or any(dist.is_relative_to(folder) for folder in sources):
        raise BuildError(f"refusing to build into {dist}: it holds or is inside the sources")


def run_pipeline(
    steps: list[Step],
    root: Path,
    dist: Path,
    cache: Path,
    log: Callable[[str], None] = print,
) -> BuildResult:
    """Run `steps` in order for the project at `root` into `dist`; then drop what none wrote."""
    started = time.monotonic()
    check_dist_folder(root, dist)
    ran, skipped = [], []
    with locked(cache):
        where = state_path(cache, dist)
        state = load_state(where)
        ctx = Context(root, dist, cache, FileHashes(state.get("hashes", {})), state, log)
        dist.mkdir(parents=True, exist_ok=True)
        try:
            for step in steps:
                step_started = time.monotonic()
                if run_step(ctx, step):
                    ran.append(step.name)
                    verb = "built in" if step.inputs else "checked in"
                    log(f"  {step.name:<17} {verb} {time.monotonic() - step_started:.2f} s")
                else:
                    skipped.append(step.name)
                    log(f"  {step.name:<17} unchanged")
            prune(ctx)
        finally:
            state["hashes"] = ctx.hashes.seen
            state["dist"] = str(dist)
            forget_states_of_gone_dists(where.parent)
            save_state(where, state)
    seconds = time.monotonic() - started
    log(f"Built {display(dist, Path.cwd())} ({ctx.info.get('build_id')}) in {seconds:.2f} s")
    return BuildResult(dist, dict(ctx.info), ran, skipped, seconds)
