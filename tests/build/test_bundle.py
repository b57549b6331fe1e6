"""The bundle step (tools/builder/bundle.py): the page runs two classic scripts made of all its modules, the one
that starts the engine's load first, and a module that cannot be bundled stops the build with esbuild's words;
Pyodide's runtime reaches the page as a classic script too."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from tools.harness.build_module import load_build_module

ROOT = Path(__file__).resolve().parents[2]
builder = load_build_module()
from tools.builder import bundle  # noqa: E402
from tools.builder.pipeline import Context, FileHashes  # noqa: E402

MODULE_MARK = re.compile(
    r"^ *// (web/\S+\.js)$", re.MULTILINE
)  # esbuild names each module it takes in


def page_scripts(index_html: str) -> list[str]:
    return re.findall(r'<script\b[^>]*\bsrc="\./([^"]+)"', index_html)


def test_the_page_starts_the_engine_first_then_runs_early_js_and_the_app_as_classic_scripts(
    built_dist,
) -> None:
    html = (built_dist.dist / "index.html").read_text()
    assert page_scripts(html) == ["js/engine-start.js", "js/app/early.js", "js/bundle.js"]
    # The engine's script before any style sheet, and not waiting for the document; the app's once it is parsed.
    assert html.index('<script async src="./js/engine-start.js">') < html.index('rel="stylesheet"')
    assert '<script defer src="./js/bundle.js">' in html
    assert 'type="module"' not in html
    assert "modulepreload" not in re.sub(
        r'<link rel="modulepreload" href="\./pyodide/[^"]+">', "", html
    )
    # Pyodide's runtime: preloaded as the classic script the loader adds, not as a module.
    assert '<link rel="preload" href="./pyodide/pyodide.asm.js" as="script">' in html
    assert "pyodide.asm.mjs" not in html


def test_the_two_scripts_hold_every_module_of_the_page_and_the_engines_loading_only_once(
    built_dist,
) -> None:
    held = {
        script: MODULE_MARK.findall((built_dist.dist / script).read_text())
        for script in bundle.ENTRIES
    }
    for modules in held.values():
        assert len(modules) == len(set(modules))
    modules = {
        path.relative_to(ROOT).as_posix()
        for folder in ("web/js", "web/common")
        for path in (ROOT / folder).rglob("*.js")
    }
    assert set().union(*held.values()) == (modules - {"web/js/app/early.js"}) | {
        "web/worker/snapshot-maker.js"
    }
    # The snapshot's maker (a worker's script) holds the host and how files are kept, none of the page.
    assert set(held[bundle.SNAPSHOT_MAKER]) == {
        "web/common/host.js",
        "web/common/kept-files.js",
        "web/common/wasm-failures.js",
        "web/worker/snapshot-maker.js",
    }
    assert not (built_dist.dist / "worker" / "snapshot-maker.js").exists()  # only bundled
    assert "web/js/engine/start.js" in held["js/engine-start.js"]
    # The app joins the load (engine-load.js, in both): it holds none of the loading itself.
    loading = {
        "web/js/engine/loader.js",
        "web/js/engine/downloads.js",
        "web/js/engine/load-path.js",
    }
    assert loading <= set(held["js/engine-start.js"])
    assert not loading & set(held["js/bundle.js"])
    assert "web/js/app/main.js" in held["js/bundle.js"]


def test_pyodides_runtime_is_its_module_as_a_classic_script(built_dist) -> None:
    """The same code as node_modules/pyodide/pyodide.asm.mjs, but for the wrapper: no import.meta or export (a
    syntax error in a classic script), the global the loader reads set."""
    made = (built_dist.dist / "pyodide" / "pyodide.asm.js").read_text()
    assert "import.meta" not in made and "export default" not in made
    # Its own URL from its element in a page; in a worker (the snapshot's maker) from the global the worker set.
    url = bundle.CLASSIC_RUNTIME_URL
    assert made.startswith(f"var {url} = self.document ? document.currentScript.src : self.{url};")
    assert re.search(
        rf"^var {bundle.CLASSIC_RUNTIME_GLOBAL}\s*=\s*\(\(\)\s*=>\s*\{{", made, re.MULTILINE
    )
    loader = (ROOT / "web" / "js" / "engine" / "loader.js").read_text()
    assert f'const CLASSIC_RUNTIME_GLOBAL = "{bundle.CLASSIC_RUNTIME_GLOBAL}";' in loader
    assert not (built_dist.dist / "pyodide" / "pyodide.asm.mjs").exists()
    # The module's function body is all there.
    module = (ROOT / "node_modules" / "pyodide" / "pyodide.asm.mjs").read_text()
    assert abs(len(made) - len(module)) < 0.02 * len(module)


def test_the_worker_does_not_precache_the_modules_the_bundle_holds(built_dist) -> None:
    source = (built_dist.dist / "sw.js").read_text()
    assert (
        '"js/bundle.js"' in source
        and '"js/engine-start.js"' in source
        and '"js/app/early.js"' in source
    )
    assert (
        '"js/snapshot-maker.js"' in source
    )  # a first visit's precache: the next visit's snapshot is made offline
    assert '"js/app/main.js"' not in source and '"js/engine/loader.js"' not in source
    assert '"common/outbox.js"' in source  # the worker's own import


def test_a_module_that_cannot_be_bundled_stops_the_build_with_esbuilds_words(
    tmp_path: Path,
) -> None:
    root = tmp_path / "project"
    shutil.copytree(ROOT / "web" / "js", root / "web" / "js")
    shutil.copytree(ROOT / "web" / "common", root / "web" / "common")
    (root / "node_modules").symlink_to(ROOT / "node_modules")
    main = root / "web" / "js" / "app" / "main.js"
    main.write_text('import { nowhere } from "../base/dom.js";\n' + main.read_text())
    ctx = Context(
        root=root,
        dist=tmp_path / "dist",
        cache=tmp_path / "cache",
        hashes=FileHashes({}),
        state={},
        log=lambda _line: None,
    )
    ctx.step = "bundle"
    with pytest.raises(builder.BuildError, match="esbuild"):
        bundle.bundle_page_modules(ctx)
    assert not (tmp_path / "dist" / "js" / "bundle.js").exists()
