"""The page's scripts made by esbuild: its modules as two scripts (the bundle step: dist/js/engine-start.js,
which starts the engine's load, and dist/js/bundle.js, the app), and Pyodide's JavaScript runtime as a classic
script (classic_runtime, for the pyodide_runtime step).

The page loads two files instead of its ~60 modules: a module graph arrives import by import (each module's
imports are known only once it has arrived), which held the engine's load back by 0.5-1 s. The bundle is not
minified (each module is marked by a `// web/...` line), so it reads as the sources do. The modules are in dist/
too, as written, for the browser tests that import one of them; the page never loads them and the service worker
does not precache those of web/js (steps.precache_list).

Both are classic scripts, not modules: Chromium keeps the compiled code of a classic script that a service worker
stores as it installs, and uses it on the next visits; of a module script it keeps nothing (measured: on a repeat
visit it compiled Pyodide's 1.25 MB runtime and the bundle anew, ~100 ms of the main thread; docs/performance.md).
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from .pipeline import BuildError, Context, Inputs
from .toolchain import files_under, project_bin, run_quiet

BUNDLE = "js/bundle.js"
ENGINE_START = "js/engine-start.js"
# Each script the build bundles, and its entry module: the engine's load starts from a script of its own, which the
# page runs before the styles have arrived (async, first in <head>); the app's waits for the document (defer).
# The memory snapshot's maker runs in a classic dedicated worker the page starts once its game is idle (classic, to
# load Pyodide's classic runtime with importScripts: the file the page already holds).
SNAPSHOT_MAKER = "js/snapshot-maker.js"
ENTRIES = {
    ENGINE_START: "web/js/engine/start.js",
    BUNDLE: "web/js/app/main.js",
    SNAPSHOT_MAKER: "web/worker/snapshot-maker.js",
}
# The page's modules: web/js, and web/common (shared with the worker and the function); and the maker's source.
BUNDLED_FOLDERS = ("js", "common")
BUNDLED_FILES = ("worker/snapshot-maker.js",)
# Sources under web/ that reach dist/ only inside a bundle (copy_web leaves them out).
BUNDLED_ONLY = frozenset(BUNDLED_FILES)
# The scripts the page loads itself: the classic early.js (first) and the bundles.
PAGE_SCRIPTS = frozenset({*ENTRIES, "js/app/early.js"})


def esbuild_version(root: Path) -> str:
    package = root / "node_modules" / "esbuild" / "package.json"
    return json.loads(package.read_text())["version"] if package.is_file() else ""


def bundle_inputs(ctx: Context) -> Inputs:
    files = [path for folder in BUNDLED_FOLDERS for path in files_under(ctx.root / "web" / folder)]
    files += [ctx.root / "web" / rel for rel in BUNDLED_FILES]
    return Inputs(files, {"esbuild": esbuild_version(ctx.root), "entries": ENTRIES})


def bundle_page_modules(ctx: Context) -> None:
    """esbuild, once per script, run from the root so the bundle names each module by its path in the repository
    (the same bytes in any clone)."""
    with tempfile.TemporaryDirectory(prefix="ewar-bundle-") as folder:
        for script, entry in ENTRIES.items():
            out = Path(folder) / Path(script).name
            done = run_quiet(
                [
                    str(project_bin(ctx.root, "esbuild")),
                    entry,
                    "--bundle",
                    "--format=iife",
                    "--charset=utf8",
                    "--log-level=warning",
                    f"--outfile={out}",
                ],
                f"esbuild ({script})",
                cwd=ctx.root,
            )
            # A warning (an import that finds nothing, a duplicate key) fails the build too.
            if done.stderr.strip():
                raise BuildError(f"esbuild warned about {entry}'s modules:\n{done.stderr.strip()}")
            ctx.put_file(script, out)


def is_bundled_module(rel: str) -> bool:
    """Whether dist/rel is one of the page's own modules, which only the bundle brings to the page (web/js but
    the scripts the page loads; web/common's modules are the service worker's imports too)."""
    return rel.endswith(".js") and rel.startswith("js/") and rel not in PAGE_SCRIPTS


# The classic runtime's global: an object whose `default` is Pyodide's createPyodideModule (loadPyodide's option
# of that name), and the URL the script was loaded from, which the module read from import.meta.url.
CLASSIC_RUNTIME_GLOBAL = "ewarPyodideRuntime"
CLASSIC_RUNTIME_URL = "ewarPyodideRuntimeUrl"


def classic_runtime(root: Path, module: Path, out: Path) -> None:
    """Pyodide's pyodide.asm.mjs (one function, its default export) as a classic script that sets
    CLASSIC_RUNTIME_GLOBAL: the same code, its whitespace as the npm package's, import.meta.url read from the
    script's own element as it runs."""
    done = run_quiet(
        [
            str(project_bin(root, "esbuild")),
            str(module),
            "--format=iife",
            f"--global-name={CLASSIC_RUNTIME_GLOBAL}",
            f"--define:import.meta.url={CLASSIC_RUNTIME_URL}",
            # In a worker (the snapshot maker: importScripts) there is no script element; the worker sets the URL.
            f"--banner:js=var {CLASSIC_RUNTIME_URL} = self.document ? document.currentScript.src"
            f" : self.{CLASSIC_RUNTIME_URL};",
            "--minify-whitespace",
            "--charset=utf8",
            "--log-level=warning",
            f"--outfile={out}",
        ],
        "esbuild (Pyodide's runtime as a classic script)",
        cwd=root,
    )
    if done.stderr.strip():
        raise BuildError(f"esbuild warned about {module.name}:\n{done.stderr.strip()}")
