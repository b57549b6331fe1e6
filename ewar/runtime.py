"""The Pyodide runtime's care, for the loaders: the page, the scores function and the snapshot maker call
these (through web/common/host.js), so that no Python source lives in JavaScript. Each answer that crosses into
JavaScript is one JSON string. The game itself is the bridge's (ewar.bridge)."""

from __future__ import annotations

import gc
import importlib
import importlib.metadata
import json
import pkgutil
import sys

from .bridge import ENGINE_VERSION, _dumps, new_game, verify

_COMMAND_LINE = "ewar.__main__"  # argparse would only grow a loaded heap; loaders never run it


def _engine_modules() -> list[str]:
    return sorted(name for name in sys.modules if name.split(".")[0] == "ewar")


def preload() -> str:
    """Import every engine module (the command line excepted), so nothing is imported later;
    returns ``[ENGINE_VERSION, [module names]]`` as JSON."""
    import ewar

    importlib.invalidate_caches()
    for info in pkgutil.walk_packages(ewar.__path__, "ewar."):
        if info.name != _COMMAND_LINE:
            importlib.import_module(info.name)
    return loaded()


def loaded() -> str:
    """``[ENGINE_VERSION, [engine modules in memory]]`` as JSON: what a restored snapshot holds."""
    return _dumps([ENGINE_VERSION, _engine_modules()])


def warm_up() -> None:
    """Play a short game and check its replay through this bridge.

    A restored memory snapshot has run none of the interpreter's code in this process, so the
    WebAssembly engine compiles each function on its first call; doing that here, while a loading
    screen shows, keeps those compilations out of the first seconds of play.
    """
    session = new_game("practice", 20261130, "fast", False, None)
    time_ms = 0
    for step in range(400):
        view = json.loads(session.frame(time_ms))["view"]
        if view["over"]:
            break
        if view["your_turn"]:
            session.flip(time_ms)
        elif step % 5 == 0:
            session.slap(time_ms)
        time_ms = max(time_ms + 1, view["wake_at"] or time_ms + 50)
    verify(session.replay())


def freeze() -> None:
    """Move everything loading left on the heap to a generation the cyclic garbage collector never
    scans again: a collection during play then walks only the game's own objects."""
    gc.collect()
    gc.freeze()


def after_restore() -> None:
    """What a page does once its memory snapshot is restored: reseed ``random`` (the snapshot fixed
    its state at build time; the engine does not use it, but nothing should share it), warm up,
    freeze."""
    if "random" in sys.modules:
        sys.modules["random"].seed()
    warm_up()
    freeze()


def after_install() -> None:
    """What a page does once the engine is installed and imported: freeze the loaded heap."""
    freeze()


def installer() -> str:
    """What installed this engine (its distribution's INSTALLER file), e.g. ``micropip``; ``""`` if unknown."""
    try:
        return (importlib.metadata.distribution("ewar").read_text("INSTALLER") or "").strip()
    except importlib.metadata.PackageNotFoundError:
        return ""
