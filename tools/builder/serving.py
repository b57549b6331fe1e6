"""`python build.py serve`: the game is served as soon as the page can play (micropip path, Pyodide's whole
standard library), and what only makes later loads quicker (the trimmed standard library, the memory snapshots)
is made in the background and joins dist/ when ready."""

from __future__ import annotations

import threading
from collections.abc import Callable

from .pipeline import BuildError, BuildResult, Step
from .stdlib import publish_whole_stdlib, whole_stdlib_inputs

# A step of the whole build, and what the first build does instead.
FIRST_INSTEAD = {"stdlib": Step("stdlib_whole", publish_whole_stdlib, whole_stdlib_inputs)}


def first_steps(steps: list[Step], later: list[Step]) -> list[Step]:
    """The steps the page needs to play: every step but those in `later`, in their order, the standard
    library published whole rather than trimmed (FIRST_INSTEAD)."""
    names = {step.name for step in later}
    return [FIRST_INSTEAD.get(step.name, step) for step in steps if step.name not in names]


def build_then_finish(
    build: Callable[..., BuildResult],
    steps: list[Step],
    later: list[Step],
    log: Callable[[str], None] = print,
) -> tuple[BuildResult, threading.Thread]:
    """Builds what the page needs now; returns that build and a started thread that builds everything (the
    `later` steps too: their results are cached, so a warm restart finishes in seconds)."""
    first = build(steps=first_steps(steps, later), log=log)
    names = ", ".join([*FIRST_INSTEAD, *(step.name for step in later)])
    log(f"Serving now; {names} follow in the background (a first run: about a minute)")

    def finish() -> None:
        try:
            build(steps=steps, log=lambda line: log(f"[background] {line}"))
        except BuildError as error:
            log(f"[background] the snapshots failed, the game loads without them: {error}")

    later_thread = threading.Thread(target=finish, name="ewar-snapshots", daemon=True)
    later_thread.start()
    return first, later_thread
