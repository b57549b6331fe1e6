"""The stdlib step: dist/pyodide/python_stdlib.zip trimmed to the files the game imports and compiled to .pyc
(loadPyodide reads it from indexURL as it would Pyodide's own). tools/builder/stdlib.mjs finds the files by running
the game in Pyodide with the whole zip, compiles them with Pyodide's own Python (tools/builder/stdlib_compile.py),
then runs the game again with the result: a module missing there fails the build."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
import zipfile
from pathlib import Path

from .pipeline import BuildError, Context, Inputs, fingerprint
from .steps import (
    forget_least_recent,
    micropip_download_inputs,
    pyodide_dir,
    pyodide_python,
    pypi_micropip,
)
from .toolchain import project_node, run_quiet

STDLIB_ZIP = "python_stdlib.zip"
FINDER = Path("tools") / "builder" / "stdlib.mjs"
OPTIONS = Path("tools") / "builder" / "options.mjs"  # its command line
PROBE = Path("tools") / "builder" / "stdlib_probe.py"
COMPILER = Path("tools") / "builder" / "stdlib_compile.py"
THIS_MODULE = Path("tools") / "builder" / "stdlib.py"
HOST = Path("web") / "common" / "host.js"
TRIMMED_KEPT = 3  # trimmed zips remembered in build/cache/stdlib, by input fingerprint
ZIP_TIME = (1980, 1, 1, 0, 0, 0)  # fixed entry times: the same inputs give the same bytes


def wheels(ctx: Context) -> tuple[Path, Path]:
    return ctx.dist / ctx.info["micropip_wheel"], ctx.dist / ctx.info["engine_wheel"]


def stdlib_inputs(ctx: Context) -> Inputs:
    folder = pyodide_dir(ctx.root)
    files = [
        ctx.root / FINDER,
        ctx.root / OPTIONS,
        ctx.root / PROBE,
        ctx.root / COMPILER,
        ctx.root / HOST,
    ]
    files += [
        folder / name
        for name in ("package.json", "pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm")
    ]
    files += [folder / STDLIB_ZIP, folder / "pyodide-lock.json"]
    micropip, engine = wheels(ctx)
    return Inputs(
        files,
        {"micropip_sha256": ctx.hashes.sha(micropip), "engine_sha256": ctx.hashes.sha(engine)},
    )


def run_the_game(ctx: Context, stdlib: Path | None) -> dict:
    """stdlib.mjs's answer: the zip entries the game imported with `stdlib` (None: Pyodide's own zip)."""
    micropip, engine = wheels(ctx)
    command = [
        str(project_node(ctx.root)),
        str(ctx.root / FINDER),
        *("--pyodide", str(pyodide_dir(ctx.root))),
        *("--micropip", str(micropip), "--wheel", str(engine)),
        *(("--stdlib", str(stdlib)) if stdlib else ()),
    ]
    what = (
        "checking the trimmed standard library"
        if stdlib
        else "finding the standard library the game imports"
    )
    done = run_quiet(command, what, cwd=ctx.root)
    return json.loads(done.stdout.strip().splitlines()[-1])


def compile_zip(
    ctx: Context, source: Path, target: Path, what: str, flag: str = "--compile"
) -> None:
    command = [
        str(project_node(ctx.root)),
        str(ctx.root / FINDER),
        *("--pyodide", str(pyodide_dir(ctx.root))),
        *(flag, str(source), "--out", str(target)),
    ]
    run_quiet(command, f"compiling {what}", cwd=ctx.root)


# ---------------------------------------------------------------------------------------------
# micropip_wheel: PyPI's micropip wheel compiled to .pyc as the standard library is (COMPILER): the page's
# `import micropip` then compiles none of its ~35 modules (about half of that import's time in Pyodide).


def compiled_wheel_name(wheel: str, python: str, data: bytes) -> str:
    """micropip-0.11.1-py3-none-any.whl -> micropip-0.11.1-0<sha256[:12]>-cp314-none-any.whl: .pyc files are one
    CPython's, and the build tag (a wheel's, which starts with a digit) names the bytes, which the compiler makes:
    the file is served immutable (netlify.toml), so another compile must never reuse its name."""
    name, version, *_tags = wheel.removesuffix(".whl").split("-")
    return f"{name}-{version}-0{hashlib.sha256(data).hexdigest()[:12]}-cp{python.replace('.', '')}-none-any.whl"


def wheel_compiler_files(ctx: Context) -> list[Path]:
    """What compiling a wheel reads: the compiler's scripts and Pyodide's runtime. This module is one too: it names
    the compiled wheel (compiled_wheel_name)."""
    folder = pyodide_dir(ctx.root)
    compiler = [ctx.root / FINDER, ctx.root / OPTIONS, ctx.root / COMPILER, ctx.root / THIS_MODULE]
    runtime = [
        folder / name
        for name in ("package.json", "pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm")
    ]
    return [*compiler, *runtime]


def micropip_inputs(ctx: Context) -> Inputs:
    return Inputs([*micropip_download_inputs(ctx), *wheel_compiler_files(ctx)])


def compiled_wheel(
    ctx: Context, wheel: Path, cache: str, inputs: Inputs, what: str, flag: str = "--compile"
) -> Path:
    """`wheel` compiled by Pyodide's own Python, from build/cache/<cache>/<inputs' fingerprint> (made when missing;
    the least recently used beyond TRIMMED_KEPT forgotten)."""
    kept = ctx.cache / cache / fingerprint(ctx, inputs)[:24]
    if not any(kept.glob("*.whl")):
        kept.mkdir(parents=True, exist_ok=True)
        partial = kept / ".compiled.partial"
        compile_zip(ctx, wheel, partial, what, flag)
        name = compiled_wheel_name(wheel.name, pyodide_python(ctx.root), partial.read_bytes())
        os.replace(partial, kept / name)
    os.utime(kept)  # most recently used
    forget_least_recent(kept.parent, keep=TRIMMED_KEPT)
    return next(kept.glob("*.whl"))


def compiled_micropip(ctx: Context) -> Path:
    """The compiled wheel of this build's inputs, from build/cache/micropip (made when missing)."""
    wheel = pypi_micropip(ctx)
    return compiled_wheel(ctx, wheel, "micropip", micropip_inputs(ctx), f"micropip {wheel.name}")


def publish_compiled_micropip(ctx: Context) -> None:
    compiled = compiled_micropip(ctx)
    ctx.put_file(f"pyodide/{compiled.name}", compiled)
    ctx.info["micropip_wheel"] = f"pyodide/{compiled.name}"


# ---------------------------------------------------------------------------------------------
# page_engine_wheel: the engine's wheel compiled to .pyc by Pyodide's own Python, nothing stripped (docstrings,
# asserts, line tables: stdlib_compile.compile_wheel), for the page's micropip to install: its import then compiles
# none of the engine's modules (~90 ms of CPU on a first visit). The scores function, the build's snapshots and
# the tests keep the source wheel (engine_wheel): the same modules, compiled by the same Python on import.


def page_engine_inputs(ctx: Context) -> Inputs:
    _micropip, engine = wheels(ctx)
    return Inputs(wheel_compiler_files(ctx), {"engine_sha256": ctx.hashes.sha(engine)})


def compiled_engine(ctx: Context) -> Path:
    """The compiled twin of this build's engine wheel, from build/cache/page-engine (made when missing)."""
    _micropip, engine = wheels(ctx)
    return compiled_wheel(
        ctx,
        engine,
        "page-engine",
        page_engine_inputs(ctx),
        f"the engine {engine.name}",
        flag="--compile-wheel",
    )


def publish_page_engine_wheel(ctx: Context) -> None:
    compiled = compiled_engine(ctx)
    ctx.put_file(f"wheels/{compiled.name}", compiled)
    ctx.info["page_engine_wheel"] = f"wheels/{compiled.name}"


# ---------------------------------------------------------------------------------------------


def as_sources(entries: list[str]) -> list[str]:
    """Zip entries with each compiled module named by its source (json/decoder.pyc -> json/decoder.py)."""
    return sorted(entry.removesuffix("c") if entry.endswith(".pyc") else entry for entry in entries)


def write_trimmed_zip(source: Path, entries: list[str], target: Path) -> None:
    """`entries` of the zip `source`, in name order, with fixed times and deflate level 9."""
    with zipfile.ZipFile(source) as whole, zipfile.ZipFile(target, "w") as trimmed:
        names = set(whole.namelist())
        missing = sorted(set(entries) - names)
        if missing:
            raise BuildError(f"{source.name} holds no {missing[:5]}")
        for name in sorted(set(entries)):
            info = zipfile.ZipInfo(name, date_time=ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            trimmed.writestr(info, whole.read(name), compresslevel=9)


def make_trimmed(ctx: Context, kept: Path) -> None:
    kept.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=".making-", dir=kept.parent))
    try:
        found = run_the_game(ctx, None)
        write_trimmed_zip(
            pyodide_dir(ctx.root) / STDLIB_ZIP, found["entries"], work / "sources.zip"
        )
        compile_zip(ctx, work / "sources.zip", work / STDLIB_ZIP, "the trimmed standard library")
        (work / "sources.zip").unlink()
        checked = run_the_game(ctx, work / STDLIB_ZIP)
        if as_sources(checked["entries"]) != as_sources(found["entries"]):
            raise BuildError(
                "the game imports other files with the trimmed standard library than with the whole"
            )
        (work / "entries.json").write_text(json.dumps(found["entries"]))
        shutil.rmtree(kept, ignore_errors=True)
        os.replace(work, kept)  # whole entries only: a complete one holds entries.json
    finally:
        shutil.rmtree(work, ignore_errors=True)


def trimmed_stdlib(ctx: Context) -> Path:
    """The trimmed zip of this build's inputs, from build/cache/stdlib (made when missing)."""
    kept = ctx.cache / "stdlib" / fingerprint(ctx, stdlib_inputs(ctx))[:24]
    if not (kept / "entries.json").is_file():
        make_trimmed(ctx, kept)
    os.utime(kept)  # most recently used
    forget_least_recent(kept.parent, keep=TRIMMED_KEPT)
    return kept / STDLIB_ZIP


def with_runtime_list(inputs: Inputs, ctx: Context) -> Inputs:
    """A publishing step's inputs: also the runtime files it adds the standard library to (a skipped step replays
    the list it wrote)."""
    runtime = sorted(name for name in ctx.info.get("runtime_files", {}) if name != STDLIB_ZIP)
    return Inputs(inputs.files, {**inputs.params, "runtime_files": runtime})


def publish_inputs(ctx: Context) -> Inputs:
    return with_runtime_list(stdlib_inputs(ctx), ctx)


def publish_trimmed_stdlib(ctx: Context) -> None:
    trimmed = trimmed_stdlib(ctx)
    ctx.put_file(f"pyodide/{STDLIB_ZIP}", trimmed)
    ctx.info["runtime_files"] = {**ctx.info["runtime_files"], STDLIB_ZIP: trimmed.stat().st_size}


def whole_stdlib_inputs(ctx: Context) -> Inputs:
    return with_runtime_list(Inputs([pyodide_dir(ctx.root) / STDLIB_ZIP], {}), ctx)


def publish_whole_stdlib(ctx: Context) -> None:
    """Pyodide's own standard library, untrimmed: what `serve` publishes first, while the trimmed one is made in
    the background (trimming runs the game twice in Node: the longest step of a fresh clone's build)."""
    whole = pyodide_dir(ctx.root) / STDLIB_ZIP
    ctx.put_file(f"pyodide/{STDLIB_ZIP}", whole)
    ctx.info["runtime_files"] = {**ctx.info["runtime_files"], STDLIB_ZIP: whole.stat().st_size}
