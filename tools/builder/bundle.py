"""The bundle step: the page's modules as one script, dist/js/bundle.js, made by esbuild.

The page loads this one file instead of its ~60 modules: a module graph arrives import by import (each module's
imports are known only once it has arrived), which held the engine's load back by 0.5-1 s. The bundle is not
minified (each module is marked by a `// web/...` line), so it reads as the sources do. The modules are in dist/
too, as written, for the browser tests that import one of them; the page never loads them and the service worker
does not precache those of web/js (steps.precache_list).
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from .pipeline import BuildError, Context, Inputs
from .toolchain import files_under, project_bin, run_quiet

BUNDLE = "js/bundle.js"
ENTRY = "web/js/app/entry.js"  # imports engine/start.js, then app/main.js
# The page's modules: web/js, and web/common (shared with the worker and the function).
BUNDLED_FOLDERS = ("js", "common")
# The scripts the page loads itself: the classic early.js (before any module) and the bundle.
PAGE_SCRIPTS = frozenset({BUNDLE, "js/app/early.js"})


def esbuild_version(root: Path) -> str:
    package = root / "node_modules" / "esbuild" / "package.json"
    return json.loads(package.read_text())["version"] if package.is_file() else ""


def bundle_inputs(ctx: Context) -> Inputs:
    files = [path for folder in BUNDLED_FOLDERS for path in files_under(ctx.root / "web" / folder)]
    return Inputs(files, {"esbuild": esbuild_version(ctx.root), "entry": ENTRY})


def bundle_page_modules(ctx: Context) -> None:
    """esbuild, run from the root so the bundle names each module by its path in the repository (the same
    bytes in any clone)."""
    with tempfile.TemporaryDirectory(prefix="ewar-bundle-") as folder:
        out = Path(folder) / "bundle.js"
        done = run_quiet(
            [
                str(project_bin(ctx.root, "esbuild")),
                ENTRY,
                "--bundle",
                "--format=esm",
                "--charset=utf8",
                "--log-level=warning",
                f"--outfile={out}",
            ],
            "esbuild (the page's bundle)",
            cwd=ctx.root,
        )
        # A warning (an import that finds nothing, a duplicate key) fails the build too.
        if done.stderr.strip():
            raise BuildError(f"esbuild warned about the page's modules:\n{done.stderr.strip()}")
        ctx.put_file(BUNDLE, out)


def is_bundled_module(rel: str) -> bool:
    """Whether dist/rel is one of the page's own modules, which only the bundle brings to the page (web/js but
    the scripts the page loads; web/common's modules are the service worker's imports too)."""
    return rel.endswith(".js") and rel.startswith("js/") and rel not in PAGE_SCRIPTS
