"""The bundle step (tools/builder/bundle.py): the page runs one script made of all its modules, and a module
that cannot be bundled stops the build with esbuild's words."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from build_module import load_build_module

ROOT = Path(__file__).resolve().parents[2]
builder = load_build_module()
from tools.builder import bundle  # noqa: E402
from tools.builder.pipeline import Context, FileHashes  # noqa: E402

MODULE_MARK = re.compile(r"^// (web/\S+\.js)$", re.MULTILINE)  # esbuild names each module it takes in


def page_scripts(index_html: str) -> list[str]:
    return re.findall(r'<script\b[^>]*\bsrc="\./([^"]+)"', index_html)


def test_the_page_loads_early_js_then_the_bundle_and_no_module_of_its_own(built_dist) -> None:
    html = (built_dist.dist / "index.html").read_text()
    assert page_scripts(html) == ["js/app/early.js", "js/bundle.js"]
    assert 'type="module" src="./js/bundle.js"' in html
    assert "modulepreload" not in re.sub(r'<link rel="modulepreload" href="\./pyodide/[^"]+">', "", html)


def test_the_bundle_holds_every_module_of_the_page_once(built_dist) -> None:
    text = (built_dist.dist / "js" / "bundle.js").read_text()
    held = MODULE_MARK.findall(text)
    assert len(held) == len(set(held))
    modules = {
        path.relative_to(ROOT).as_posix()
        for folder in ("web/js", "web/common")
        for path in (ROOT / folder).rglob("*.js")
    }
    # early.js is a classic script of its own; entry.js only imports (nothing of it to mark).
    assert set(held) == modules - {"web/js/app/early.js", "web/js/app/entry.js"}
    # The engine's load starts before the app's modules run: engine/start.js's call comes before main.js's.
    assert text.index("startEngineLoad();") < text.index("// web/js/app/main.js")


def test_the_worker_does_not_precache_the_modules_the_bundle_holds(built_dist) -> None:
    source = (built_dist.dist / "sw.js").read_text()
    assert '"js/bundle.js"' in source and '"js/app/early.js"' in source
    assert '"js/app/main.js"' not in source and '"js/engine/loader.js"' not in source
    assert '"common/outbox.js"' in source  # the worker's own import


def test_a_module_that_cannot_be_bundled_stops_the_build_with_esbuilds_words(tmp_path: Path) -> None:
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
