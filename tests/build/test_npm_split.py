"""Serving installs only package.json's dependencies (npm ci --omit=dev); the test command adds the dev tools."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from tools.harness.build_module import load_build_module

load_build_module()
from tools.builder import steps  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
# What the build and `serve` run with the project's Node (the function's tests and the test tools aside).
SERVING_CODE = [
    ROOT / "tools" / "devserver.mjs",
    *sorted((ROOT / "tools" / "builder").glob("*.mjs")),
    *sorted(p for p in (ROOT / "netlify").rglob("*.mjs") if not p.name.endswith(".test.mjs")),
]
BARE_IMPORT = re.compile(
    r"""(?:^|\s)(?:import|export)\b[^'"]*?from\s+["']([^./][^"']*)["']""", re.MULTILINE
)


def package_of(specifier: str) -> str:
    parts = specifier.split("/")
    return "/".join(parts[:2]) if specifier.startswith("@") else parts[0]


def test_what_serving_imports_is_in_the_dependencies_not_the_dev_tools():
    manifest = json.loads((ROOT / "package.json").read_text())
    imported = {
        package_of(found)
        for path in SERVING_CODE
        for found in BARE_IMPORT.findall(path.read_text())
        if not found.startswith("node:")
    }
    assert {
        "@electric-sql/pglite",
        "@netlify/database",
        "@netlify/headers-parser",
        "pg",
    } <= imported
    assert imported <= set(manifest["dependencies"]), imported - set(manifest["dependencies"])
    assert "node" in manifest["dependencies"]  # Node 22 runs the build's steps and the dev server
    # The CDN purge, imported when a deployed function purges (netlify/scores-api/purge.mjs)
    assert "@netlify/functions" in manifest["dependencies"]
    # pg: the functions' pool of one (netlify/database/pool.mjs) imports it, so it is a dependency
    assert {"netlify-cli", "@biomejs/biome"} <= set(manifest["devDependencies"])


def write_lock(root: Path, packages: dict[str, dict], installed: dict[str, str]) -> Path:
    lock = {
        "packages": {"": {}, **{f"node_modules/{name}": entry for name, entry in packages.items()}}
    }
    (root / "package-lock.json").write_text(json.dumps(lock))
    for name, version in installed.items():
        folder = root / "node_modules" / name
        folder.mkdir(parents=True)
        (folder / "package.json").write_text(json.dumps({"version": version}))
    return root


class TestNodeModulesMatchTheLock:
    def test_a_missing_dev_package_matters_only_with_the_dev_tools(self, tmp_path):
        write_lock(
            tmp_path,
            {"pyodide": {"version": "1.0.0"}, "biome": {"version": "2.0.0", "dev": True}},
            {"pyodide": "1.0.0"},
        )
        assert steps.node_modules_match_lock(tmp_path)
        assert not steps.node_modules_match_lock(tmp_path, with_dev=True)

    def test_a_wrong_version_never_matches(self, tmp_path):
        write_lock(tmp_path, {"pyodide": {"version": "1.0.0"}}, {"pyodide": "0.9.0"})
        assert not steps.node_modules_match_lock(tmp_path)


@pytest.mark.parametrize(("with_dev", "omit"), [(False, True), (True, False)])
def test_npm_ci_omits_the_dev_tools_unless_the_tests_need_them(monkeypatch, with_dev, omit):
    calls = []
    monkeypatch.setattr(steps, "run_quiet", lambda command, *_a, **_k: calls.append(command))
    lines = []
    steps.npm_ci(ROOT, with_dev=with_dev, log=lines.append)
    [command] = calls
    assert command[1] == "ci" and ("--omit=dev" in command) is omit
    assert lines and "npm ci" in lines[0]


def test_the_test_command_installs_the_dev_tools_only_when_missing(monkeypatch, tmp_path):
    calls = []
    monkeypatch.setattr(
        steps, "npm_ci", lambda root, **options: calls.append(("ci", options["with_dev"]))
    )
    monkeypatch.setattr(steps, "npm_add_dev_tools", lambda root, log: calls.append(("add", True)))
    write_lock(
        tmp_path,
        {"pyodide": {"version": "1.0.0"}, "biome": {"version": "2.0.0", "dev": True}},
        {},
    )
    (tmp_path / "node_modules" / ".package-lock.json").parent.mkdir(parents=True, exist_ok=True)
    (tmp_path / "node_modules" / ".package-lock.json").write_text("{}")
    steps.ensure_dev_tools(tmp_path)  # not even what building needs: everything from scratch
    assert calls == [("ci", True)]
    calls.clear()
    for name, version in (("pyodide", "1.0.0"), ("biome", "2.0.0")):
        (tmp_path / "node_modules" / name).mkdir()
        (tmp_path / "node_modules" / name / "package.json").write_text(
            f'{{"version": "{version}"}}'
        )
    steps.ensure_dev_tools(tmp_path)  # all there
    assert calls == []
    (tmp_path / "node_modules" / "biome" / "package.json").unlink()
    steps.ensure_dev_tools(tmp_path)  # what building needs is there: the dev tools are added to it
    assert calls == [("add", True)]


def test_adding_the_dev_tools_is_an_npm_install_that_saves_nothing(monkeypatch):
    calls = []
    monkeypatch.setattr(steps, "run_quiet", lambda command, *_a, **_k: calls.append(command))
    lines = []
    steps.npm_add_dev_tools(ROOT, log=lines.append)
    [command] = calls
    assert command[1] == "install" and "--no-save" in command and "--omit=dev" not in command
    assert lines and "npm install" in lines[0]
