"""The linters the test command runs: ruff (check and format) for Python, Biome for JavaScript."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from .toolchain import project_bin


def python_lint_commands() -> list[list[str]]:
    """ruff's rules and format, as pyproject.toml configures them, over the whole repository."""
    ruff = [sys.executable, "-m", "ruff"]
    return [
        [*ruff, "check", "--no-cache", "--output-format=concise", "."],
        [*ruff, "format", "--check", "--no-cache", "."],
    ]


def js_lint_commands(root: Path) -> list[list[str]]:
    """Biome's lint and format check (biome.json says which files), with no write."""
    return [[str(project_bin(root, "biome")), "ci", "--colors=off", "."]]


def run_linters(root: Path, commands: list[list[str]]) -> list[str]:
    """Run each linter; return the ones that found something (their output is shown as is)."""
    failed = []
    for command in commands:
        name = " ".join([Path(command[0]).name, *command[1:]])
        print(f"Lint: {name}", flush=True)
        if subprocess.run(command, check=False, cwd=root).returncode != 0:
            failed.append(name)
    return failed
