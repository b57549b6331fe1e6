"""Netlify's own build of this project, as the deploy would run it: `netlify build --offline` (netlify-cli,
pinned in package.json) runs netlify.toml's build command into dist/ and bundles the scores function into
.netlify/functions/. Run as `python -m tools.builder.netlify` it prints the bundle's sizes."""

from __future__ import annotations

import json
import os
import shutil
import sys
import zipfile
from dataclasses import dataclass
from pathlib import Path

from .pipeline import BuildError
from .toolchain import project_bin, project_node, run_quiet, with_project_node

ROOT = Path(__file__).resolve().parents[2]
# Netlify's limits for one function (docs: Functions overview, "Default deployment options").
ZIPPED_LIMIT = 50 * 2**20
UNZIPPED_LIMIT = 250 * 2**20


@dataclass
class FunctionBundle:
    """One bundled function: its manifest entry, its zip and the zip's sizes."""

    name: str
    manifest: dict
    zip_path: Path
    zipped_bytes: int
    unzipped_bytes: int


def netlify_build(root: Path = ROOT) -> dict[str, FunctionBundle]:
    """Run `netlify build --offline` in `root`; return its function bundles by name."""
    functions = root / ".netlify" / "functions"
    shutil.rmtree(functions, ignore_errors=True)
    command = [str(project_node(root)), str(project_bin(root, "netlify")), "build", "--offline"]
    env = with_project_node(root, {**os.environ, "NETLIFY_TELEMETRY_DISABLED": "1"})
    run_quiet(command, "netlify build --offline", cwd=root, env=env)
    manifest_path = functions / "manifest.json"
    if not manifest_path.is_file():
        raise BuildError(f"netlify build wrote no {manifest_path}")
    bundles = {}
    for entry in json.loads(manifest_path.read_text())["functions"]:
        zip_path = Path(entry["path"])
        with zipfile.ZipFile(zip_path) as archive:
            unzipped = sum(info.file_size for info in archive.infolist())
        bundles[entry["name"]] = FunctionBundle(
            entry["name"], entry, zip_path, zip_path.stat().st_size, unzipped
        )
    return bundles


def main() -> int:
    try:
        bundles = netlify_build()
    except BuildError as error:
        print(f"netlify build: {error}", file=sys.stderr)
        return 1
    for bundle in bundles.values():
        print(
            f"{bundle.name}: {bundle.zipped_bytes / 2**20:.1f} MiB zipped (limit {ZIPPED_LIMIT // 2**20}),"
            f" {bundle.unzipped_bytes / 2**20:.1f} MiB unzipped (limit {UNZIPPED_LIMIT // 2**20}),"
            f" {bundle.manifest.get('runtimeVersion')}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
