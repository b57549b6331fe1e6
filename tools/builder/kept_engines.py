"""kept_engines: the engines the scores function keeps beside the build's own (netlify/engines/).

A daily is judged by the engine it was played on (docs/scores.md): after a deploy, records made by
the page's earlier engine still arrive (queued offline, or sent as the deploy lands). The wheels of
those engines are kept in netlify/engines/, listed in kept.json with their SHA-256; this step checks
each against the list and records ``kept_engines`` (version -> wheel path) in build-info.json, where
the function finds them.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

from .pipeline import BuildError, Context, Inputs
from .steps import wheel_version

KEPT_DIR = Path("netlify") / "engines"
MANIFEST = KEPT_DIR / "kept.json"
WHEEL_NAME = re.compile(r"^ewar-[0-9A-Za-z.+-]+-py3-none-any\.whl$")


def kept_list(root: Path) -> list[dict]:
    """The manifest's engines, each {version, wheel, sha256, replaced}, checked for shape."""
    path = root / MANIFEST
    try:
        engines = json.loads(path.read_text())["engines"]
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise BuildError(f"{MANIFEST} is not a list of kept engines: {error}") from None
    if not isinstance(engines, list):
        raise BuildError(f"{MANIFEST}: engines must be a list")
    for entry in engines:
        if not isinstance(entry, dict) or not all(
            isinstance(entry.get(key), str) for key in ("version", "wheel", "sha256", "replaced")
        ):
            raise BuildError(f"{MANIFEST}: {entry!r} lacks version, wheel, sha256 or replaced")
        if not WHEEL_NAME.match(entry["wheel"]):
            raise BuildError(f"{MANIFEST}: {entry['wheel']!r} is not an ewar wheel's file name")
    return engines


def kept_inputs(ctx: Context) -> Inputs:
    engines = kept_list(ctx.root) if (ctx.root / MANIFEST).is_file() else []
    files = [ctx.root / MANIFEST] if engines else []
    files += [ctx.root / KEPT_DIR / entry["wheel"] for entry in engines]
    return Inputs(files, {"current": ctx.info.get("engine_version")})


def check_kept_engines(ctx: Context) -> None:
    """Each kept wheel is there, is the file listed (SHA-256), holds the version listed, and is not
    the build's own engine; build-info's ``kept_engines`` names them."""
    engines = kept_list(ctx.root) if (ctx.root / MANIFEST).is_file() else []
    current = ctx.info["engine_version"]
    kept: dict[str, str] = {}
    for entry in engines:
        version, wheel = entry["version"], ctx.root / KEPT_DIR / entry["wheel"]
        if not wheel.is_file():
            raise BuildError(f"{MANIFEST} keeps engine {version}, but {wheel} is missing")
        digest = hashlib.sha256(wheel.read_bytes()).hexdigest()
        if digest != entry["sha256"]:
            raise BuildError(f"{wheel.name} is not the wheel {MANIFEST} lists (SHA-256 {digest})")
        if wheel_version(wheel) != version:
            raise BuildError(f"{wheel.name} holds engine {wheel_version(wheel)}, not {version}")
        if version == current or version in kept:
            raise BuildError(f"{MANIFEST} keeps engine {version} twice (or the build's own)")
        kept[version] = (KEPT_DIR / entry["wheel"]).as_posix()
    ctx.info["kept_engines"] = kept
