"""The outside tools the build runs (pip, npm, the project's own Node) and how it runs them."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

from .pipeline import BuildError

QUIET_PIP = {"PIP_DISABLE_PIP_VERSION_CHECK": "1", "PIP_NO_INPUT": "1"}
SKIP_NAMES = {"__pycache__", ".DS_Store", ".git"}


HEARTBEAT_S = 15  # a long quiet tool says it is still running this often


def run_quiet(
    cmd: list[str], what: str, heartbeat: Callable[[str], None] | None = None, **kwargs
) -> subprocess.CompletedProcess:
    """Run a tool and keep its output unless it fails; then show it and raise BuildError. With
    `heartbeat`, a line every HEARTBEAT_S seconds says the tool is still running (npm ci prints nothing
    for minutes on a slow link)."""
    env = {**os.environ, **QUIET_PIP, **kwargs.pop("env", {})}
    done_event = threading.Event()
    started = time.monotonic()

    def beat() -> None:
        while not done_event.wait(HEARTBEAT_S):
            heartbeat(f"  … {what} still running ({time.monotonic() - started:.0f} s)")

    beating = threading.Thread(target=beat, daemon=True) if heartbeat else None
    if beating:
        beating.start()
    try:
        done = subprocess.run(cmd, check=False, capture_output=True, text=True, env=env, **kwargs)
    finally:
        done_event.set()
    if heartbeat:
        heartbeat(f"  {what}: {time.monotonic() - started:.0f} s")
    if done.returncode != 0:
        sys.stderr.write(done.stdout + done.stderr)
        raise BuildError(f"{what} failed (exit {done.returncode}): {' '.join(cmd)}")
    return done


def project_node(root: Path) -> Path:
    """The project's own Node 22 (package.json pins node@22 from npm; the system's may be older)."""
    node = root / "node_modules" / ".bin" / "node"
    if not node.is_file():
        raise BuildError(
            f"{node} is missing: run `python build.py build` (npm ci installs Node 22)"
        )
    return node


def project_bin(root: Path, name: str) -> Path:
    """An executable that an npm package of the project provides (node_modules/.bin/NAME)."""
    tool = root / "node_modules" / ".bin" / name
    if not tool.is_file():
        raise BuildError(f"{tool} is missing: run `python build.py build` (npm ci installs it)")
    return tool


def with_project_node(root: Path, env: dict[str, str] | None = None) -> dict[str, str]:
    """An environment whose PATH finds the project's Node first (for npm-installed tools' shebangs)."""
    env = dict(os.environ if env is None else env)
    env["PATH"] = os.pathsep.join([str(root / "node_modules" / ".bin"), env.get("PATH", "")])
    return env


def files_under(folder: Path) -> list[Path]:
    """Every file under `folder`, sorted, without caches and editor or VCS litter."""
    return sorted(
        path
        for path in folder.rglob("*")
        if path.is_file()
        and not SKIP_NAMES.intersection(path.relative_to(folder).parts)
        and path.suffix != ".pyc"
    )
