"""The page-side JavaScript of the page benchmarks: files in js/, read when a run needs them."""

from __future__ import annotations

from pathlib import Path

SCRIPTS = Path(__file__).with_name("js")


def page_script(name: str) -> str:
    """The text of js/<name>: an init script, a function for page.evaluate, or the bare page's script."""
    return (SCRIPTS / name).read_text()
