"""What the page benchmarks load: a copy of dist/ with a bare loadPyodide() page beside it, served."""

from __future__ import annotations

import contextlib
import importlib
import os
import shutil
import tempfile
import textwrap
from collections.abc import Iterator
from pathlib import Path

from .scripts import page_script


def bare_page(script: str) -> str:
    """A page that only runs the bare script (js/bare.js): `script` is its <script> tag's attributes and body."""
    return (
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>bare loadPyodide</title></head>\n'
        f'<body data-state="loading"><p>Loading Pyodide…</p>{script}</body></html>\n'
    )


def link_tree(source: Path, target: Path) -> None:
    """A copy of dist/ (hard links where the file system allows) that can hold extra pages."""
    for path in source.rglob("*"):
        copy = target / path.relative_to(source)
        if path.is_dir():
            copy.mkdir(parents=True, exist_ok=True)
            continue
        copy.parent.mkdir(parents=True, exist_ok=True)
        try:
            os.link(path, copy)
        except OSError:
            shutil.copyfile(path, copy)


@contextlib.contextmanager
def served_site(builder, dist: Path | None = None) -> Iterator[tuple[str, Path]]:
    """dist/ (built now, unless another build's folder is given) and the bare page, served."""
    dist = dist or builder.build(log=lambda _line: None).dist
    with tempfile.TemporaryDirectory(prefix="ewar-bench-") as tmp:
        site = Path(tmp, "site")
        link_tree(dist, site)
        # bare.html of the load-path runs, over the build's Pyodide: its script inline, as it always was.
        inline = (
            '\n<script type="module">\n'
            + textwrap.indent(page_script("bare.js"), "  ")
            + "</script>"
        )
        (site / "bare.html").write_text(bare_page(inline))
        server = builder.DevServer(site, data_dir=Path(tmp, "board"))
        url = server.start()
        try:
            yield url.rstrip("/") + "/", site
        finally:
            server.stop()


def stock_bare_page(site: Path, pyodide: Path) -> None:
    """bare/: a page that only calls loadPyodide(), over Pyodide's own files (its whole standard library).
    Its script is a file of its own: the site's Content-Security-Policy allows no inline script."""
    folder = site / "bare"
    (folder / "pyodide").mkdir(parents=True, exist_ok=True)
    (folder / "index.html").write_text(bare_page('<script type="module" src="./bare.js"></script>'))
    (folder / "bare.js").write_text(page_script("bare.js"))
    # The build's own list of the files loadPyodide() fetches.
    steps = importlib.import_module("tools.builder.steps")
    for name in steps.PYODIDE_FILES:
        shutil.copyfile(pyodide / name, folder / "pyodide" / name)
