"""The outside tools the build runs (pip, npm, the project's own Node) and how it runs them."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from .pipeline import BuildError

QUIET_PIP = {"PIP_DISABLE_PIP_VERSION_CHECK": "1", "PIP_NO_INPUT": "1"}
SKIP_NAMES = {"__pycache__", ".DS_Store", ".git"}


def run_quiet(cmd: list[str], what: str, **kwargs) -> subprocess.CompletedProcess:
    """Run a tool and keep its output unless it fails; then show it and raise BuildError."""
    env = {**os.environ, **QUIET_PIP, **kwargs.pop("env", {})}
    done = subprocess.run(cmd, check=False, capture_output=True, text=True, env=env, **kwargs)
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
