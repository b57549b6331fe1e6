"""`python build.py serve`: the game is served as soon as the page can play (micropip path), and the memory
snapshots, which only make later loads quicker, are made in the background and join dist/ when ready."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

from .pipeline import BuildError, BuildResult, Step


def first_steps(steps: list[Step], later: list[Step]) -> list[Step]:
    """The steps the page needs to play: every step but those in `later`, in their order."""
    names = {step.name for step in later}
    return [step for step in steps if step.name not in names]


def build_then_finish(
    build: Callable[..., BuildResult],
    steps: list[Step],
    later: list[Step],
    log: Callable[[str], None] = print,
) -> tuple[BuildResult, threading.Thread]:
    """Builds what the page needs now; returns that build and a started thread that builds everything (the
    `later` steps too: their results are cached, so a warm restart finishes in seconds)."""
    first = build(steps=first_steps(steps, later), log=log)
    names = ", ".join(step.name for step in later)
    log(f"Serving now; {names} follow in the background (a first run: about a minute)")

    def finish() -> None:
        try:
            build(steps=steps, log=lambda line: log(f"[background] {line}"))
        except BuildError as error:
            log(f"[background] the snapshots failed, the game loads without them: {error}")

    later_thread = threading.Thread(target=finish, name="ewar-snapshots", daemon=True)
    later_thread.start()
    return first, later_thread
