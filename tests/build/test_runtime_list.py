"""build-info.json's runtime_files is the one list of Pyodide runtime files: the page's preloads and
the function's included_files (netlify.toml) agree with it (the function runs pyodide.asm.mjs in Node, where the
page runs the build's classic copy of it, pyodide.asm.js)."""

from __future__ import annotations

import tomllib
from html.parser import HTMLParser
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


class Preloads(HTMLParser):
    """The href of every <link rel=preload|modulepreload> of a page."""

    def __init__(self) -> None:
        super().__init__()
        self.hrefs: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag == "link" and values.get("rel") in ("preload", "modulepreload"):
            self.hrefs.append(values.get("href") or "")


def preloaded_runtime_files() -> list[str]:
    parser = Preloads()
    parser.feed((ROOT / "web" / "index.html").read_text())
    return [
        href.removeprefix("./pyodide/") for href in parser.hrefs if href.startswith("./pyodide/")
    ]


def test_the_page_preloads_every_runtime_file_once(built_info):
    preloaded = preloaded_runtime_files()
    assert sorted(preloaded) == sorted(built_info["runtime_files"])


def test_the_function_bundle_includes_every_runtime_file(built_info):
    with (ROOT / "netlify.toml").open("rb") as handle:
        included = tomllib.load(handle)["functions"]["scores"]["included_files"]
    from_pyodide = {
        entry.removeprefix("node_modules/pyodide/")
        for entry in included
        if entry.startswith("node_modules/pyodide/")
    }
    # package.json tells Node the package's own facts (its version); it is not a runtime file.
    in_node = {
        name.replace("pyodide.asm.js", "pyodide.asm.mjs") for name in built_info["runtime_files"]
    }
    assert from_pyodide - {"package.json"} == in_node


def test_runtime_sizes_are_the_built_files_sizes(built_dist, built_info):
    for name, size in built_info["runtime_files"].items():
        assert (built_dist.dist / "pyodide" / name).stat().st_size == size
