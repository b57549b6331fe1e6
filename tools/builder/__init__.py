"""Egyptian War's build: the pipeline that fills dist/, the dev server wrapper and the test command.

    from tools.builder import build, DevServer
    result = build()                      # dist/ of this checkout; result.info is build-info.json
    with DevServer(result.dist) as url:   # the dev server over it, on a free port
        ...

``python build.py`` is the command line over this package.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from .bundle import bundle_inputs, bundle_page_modules
from .devserver import DevServer, serve_in_foreground
from .kept_engines import check_kept_engines, kept_inputs
from .pipeline import BuildError, BuildResult, Context, Inputs, Step, run_pipeline
from .snapshot import SNAPSHOT_STEPS
from .stdlib import (
    micropip_inputs,
    page_engine_inputs,
    publish_compiled_micropip,
    publish_inputs,
    publish_page_engine_wheel,
    publish_trimmed_stdlib,
)
from .steps import (
    BUILD_INFO,
    PYODIDE_FILES,
    build_engine_wheel,
    copy_pyodide_runtime,
    copy_web,
    draw_icons,
    engine_inputs,
    engine_source_files,
    ensure_node_modules,
    icons_inputs,
    pyodide_inputs,
    service_worker_inputs,
    web_inputs,
    write_build_info,
    write_service_worker,
)

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_CACHE = ROOT / "build" / "cache"

# Order matters: a step may read what earlier steps put in dist/ and ctx.info. Every file written
# before build_info is covered by the build id; service_worker needs the final list and the id.
STEPS: list[Step] = [
    Step("node_modules", ensure_node_modules),
    Step("engine_wheel", build_engine_wheel, engine_inputs),
    Step("kept_engines", check_kept_engines, kept_inputs),  # the function's earlier engines
    Step("pyodide_runtime", copy_pyodide_runtime, pyodide_inputs),
    Step("micropip_wheel", publish_compiled_micropip, micropip_inputs),
    Step("page_engine_wheel", publish_page_engine_wheel, page_engine_inputs),
    # The game runs with both wheels to find what it imports: after them.
    Step("stdlib", publish_trimmed_stdlib, publish_inputs),
    Step("web", copy_web, web_inputs),
    Step("bundle", bundle_page_modules, bundle_inputs),
    Step("icons", draw_icons, icons_inputs),
    *SNAPSHOT_STEPS,  # the page's memory snapshot (dist/) and the function's (build/function/)
    Step("build_info", write_build_info),
    Step("service_worker", write_service_worker, service_worker_inputs),
]


def build(
    root: Path = ROOT,
    dist: Path | None = None,
    cache: Path | None = None,
    steps: list[Step] | None = None,
    log: Callable[[str], None] = print,
) -> BuildResult:
    """Build the project at `root` into `dist` (default root/dist). Raises BuildError on failure."""
    root = Path(root).resolve()
    return run_pipeline(
        STEPS if steps is None else steps,
        root=root,
        dist=Path(dist).resolve() if dist else root / "dist",
        cache=Path(cache).resolve() if cache else DEFAULT_CACHE,
        log=log,
    )


__all__ = [
    "BUILD_INFO",
    "DEFAULT_CACHE",
    "PYODIDE_FILES",
    "ROOT",
    "STEPS",
    "BuildError",
    "BuildResult",
    "Context",
    "DevServer",
    "Inputs",
    "Step",
    "build",
    "engine_source_files",
    "serve_in_foreground",
]
