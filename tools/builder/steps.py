"""The build's steps but the snapshot's: each fills part of dist/ and records facts for the page."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import posixpath
import re
import shutil
import sys
import tempfile
import tomllib
import zipfile
from pathlib import Path, PurePosixPath

from .bundle import BUNDLED_ONLY, classic_runtime, esbuild_version, is_bundled_module
from .pipeline import BuildError, Context, Inputs, fingerprint
from .toolchain import files_under, run_quiet

BUILD_INFO = "build-info.json"
# The files loadPyodide() fetches from its indexURL in Node (pyodide.mjs itself is imported): pyodide.mjs
# imports pyodide.asm.mjs, which loads pyodide.asm.wasm; python_stdlib.zip and pyodide-lock.json are fetched from
# indexURL. The function bundles these (netlify.toml).
PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)
# The page loads pyodide.asm.mjs's code as a classic script instead (bundle.classic_runtime) and gives it to
# loadPyodide. build-info.json's runtime_files (the page's) names that one in the module's place.
CLASSIC_RUNTIME = "pyodide.asm.js"
CLASSIC_RUNTIME_SOURCE = "pyodide.asm.mjs"
# Pyodide's standard library: the stdlib step publishes it trimmed to what the game imports (tools/builder/stdlib.py).
TRIMMED_BY_THE_BUILD = "python_stdlib.zip"
# Zip timestamps of the engine wheel: fixed, so that the same sources give the same bytes.
SOURCE_DATE_EPOCH = "315619200"  # 1980-01-02T00:00:00Z
ENGINE_WHEELS_KEPT = 8  # engine wheels remembered in build/cache/engine, by source fingerprint


# ---------------------------------------------------------------------------------------------
# node_modules: npm ci when node_modules does not match package-lock.json. Building and serving need only the
# packages package.json lists as dependencies (Node 22, Pyodide, the board's store, the headers parser); the
# test command adds the dev tools (netlify-cli, Biome, axe-core: ensure_dev_tools).


def node_modules_match_lock(root: Path, *, with_dev: bool = False) -> bool:
    """Whether node_modules holds every package of package-lock.json at its version (dev packages only when
    with_dev; optional and peer packages may be absent)."""
    lock = json.loads((root / "package-lock.json").read_text())
    for key, entry in lock.get("packages", {}).items():
        if not key.startswith("node_modules/") or entry.get("link"):
            continue
        manifest = root / key / "package.json"
        if not manifest.is_file():
            if entry.get("optional") or entry.get("peer") or (entry.get("dev") and not with_dev):
                continue
            return False
        if json.loads(manifest.read_text()).get("version") != entry.get("version"):
            return False
    return True


def npm_executable() -> str:
    npm = shutil.which("npm")
    if not npm:
        raise BuildError(
            "npm not found: install Node.js (any version with npm; the project pins Node 22)"
        )
    return npm


def npm_ci(root: Path, *, with_dev: bool, log) -> None:
    """npm ci: only the dependencies (--omit=dev), or everything; says what it does and how long it has run."""
    npm = npm_executable()
    what = "with the test tools" if with_dev else "what building and serving need"
    log(f"  running npm ci: {what} (a first run downloads {'~650' if with_dev else '~225'} MB)")
    command = [npm, "ci", "--no-audit", "--no-fund", *([] if with_dev else ["--omit=dev"])]
    run_quiet(command, "npm ci", cwd=root, heartbeat=log)


def package_lock(root: Path) -> Path:
    """package-lock.json, which every install follows exactly; a clear error without it."""
    lock = root / "package-lock.json"
    if not lock.is_file():
        raise BuildError("package-lock.json is missing: the build installs exactly what it pins")
    return lock


def node_modules_hold(root: Path, *, with_dev: bool = False) -> bool:
    """Whether npm has installed here and node_modules matches the lock (with the dev packages, or without)."""
    installed = (root / "node_modules" / ".package-lock.json").is_file()
    return installed and node_modules_match_lock(root, with_dev=with_dev)


def ensure_serving_packages(root: Path, log=print) -> None:
    """npm ci of what building and serving need, unless node_modules holds it at the lock's versions."""
    package_lock(root)
    if not node_modules_hold(root):
        npm_ci(root, with_dev=False, log=log)


def ensure_node_modules(ctx: Context) -> None:
    """The build's first step: ensure_serving_packages, skipped while the lock and the install are unchanged."""
    key = ctx.hashes.sha(package_lock(ctx.root))
    installed = (ctx.root / "node_modules" / ".package-lock.json").is_file()
    if installed and ctx.state.get("npm_lock") == key:
        return
    ensure_serving_packages(ctx.root, log=ctx.log)
    ctx.state["npm_lock"] = key


def npm_add_dev_tools(root: Path, log) -> None:
    """npm install (the lock's versions, nothing saved) over node_modules holding what building needs: it adds the
    dev packages and leaves those in place, so the build may run meanwhile (package-lock.json places every package,
    dev or not)."""
    npm = npm_executable()
    log("  running npm install: adding the test tools to what building needs")
    command = [npm, "install", "--no-audit", "--no-fund", "--no-save"]
    run_quiet(command, "npm install (the test tools)", cwd=root, heartbeat=log)


def ensure_dev_tools(root: Path, log=print) -> None:
    """The test command's npm packages: nothing if node_modules has them all; the dev packages added if it has what
    building needs (ensure_node_modules); else npm ci with everything."""
    package_lock(root)
    if node_modules_hold(root, with_dev=True):
        return
    if node_modules_hold(root):
        npm_add_dev_tools(root, log)
    else:
        npm_ci(root, with_dev=True, log=log)


# ---------------------------------------------------------------------------------------------
# engine_wheel: the ewar wheel, built by pip + flit_core from a clean staging copy


def read_pyproject(root: Path) -> dict:
    with (root / "pyproject.toml").open("rb") as handle:
        return tomllib.load(handle)


def engine_source_files(root: Path) -> list[Path]:
    """Exactly what flit_core puts in the wheel: pyproject, readme, licence files, the package."""
    pyproject = read_pyproject(root)
    project = pyproject["project"]
    files = [root / "pyproject.toml"]
    readme = project.get("readme")
    readme = readme.get("file") if isinstance(readme, dict) else readme
    if readme:
        if not (root / readme).is_file():
            raise BuildError(f"pyproject.toml names readme {readme!r}, which does not exist")
        files.append(root / readme)
    for pattern in project.get("license-files", []):
        matches = [path for path in root.glob(pattern) if path.is_file()]
        if not matches:
            raise BuildError(f"pyproject.toml's license-files {pattern!r} matches no file")
        files.extend(matches)
    name = project["name"].replace("-", "_")
    package = root / name
    if not (package / "__init__.py").is_file():
        raise BuildError(f"no package {name}/__init__.py to build a wheel from")
    files.extend(files_under(package))
    return sorted(set(files))


def engine_inputs(ctx: Context) -> Inputs:
    return Inputs(engine_source_files(ctx.root), {"source_date_epoch": SOURCE_DATE_EPOCH})


def wheel_version(wheel: Path) -> str:
    with zipfile.ZipFile(wheel) as archive:
        metadata = next(n for n in archive.namelist() if n.endswith(".dist-info/METADATA"))
        for line in archive.read(metadata).decode().splitlines():
            if line.startswith("Version:"):
                return line.split(":", 1)[1].strip()
    raise BuildError(f"{wheel.name} has no Version in its METADATA")


def forget_least_recent(folder: Path, keep: int) -> None:
    """A cache folder keeps its `keep` most recently used entries (switching branches stays fast)."""
    entries = sorted(folder.iterdir(), key=lambda entry: entry.stat().st_mtime, reverse=True)
    for entry in entries[keep:]:
        shutil.rmtree(entry, ignore_errors=True)


def make_engine_wheel(ctx: Context, kept: Path) -> None:
    with tempfile.TemporaryDirectory(prefix="ewar-wheel-") as tmp:
        stage, out = Path(tmp, "src"), Path(tmp, "out")
        for path in engine_source_files(ctx.root):
            copy = stage / path.relative_to(ctx.root)
            copy.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, copy)
        command = [sys.executable, "-m", "pip", "wheel", str(stage), "--no-deps", "-w", str(out)]
        run_quiet(command, "pip wheel", env={"SOURCE_DATE_EPOCH": SOURCE_DATE_EPOCH})
        built = sorted(out.glob("*.whl"))
        if len(built) != 1:
            raise BuildError(f"pip wheel made {len(built)} wheels, expected 1")
        shutil.rmtree(kept, ignore_errors=True)
        kept.mkdir(parents=True)
        shutil.copyfile(built[0], kept / built[0].name)


def build_engine_wheel(ctx: Context) -> None:
    kept = ctx.cache / "engine" / fingerprint(ctx, engine_inputs(ctx))[:24]
    if not (kept.is_dir() and any(kept.glob("*.whl"))):
        make_engine_wheel(ctx, kept)
    os.utime(kept)  # most recently used
    forget_least_recent(kept.parent, keep=ENGINE_WHEELS_KEPT)
    wheel = sorted(kept.glob("*.whl"))[0]
    ctx.put_file(f"wheels/{wheel.name}", wheel)
    ctx.info["engine_wheel"] = f"wheels/{wheel.name}"
    ctx.info["engine_version"] = wheel_version(wheel)


# ---------------------------------------------------------------------------------------------
# pyodide_runtime: copy what loadPyodide fetches, and list it once in build-info


def pyodide_dir(root: Path) -> Path:
    return root / "node_modules" / "pyodide"


def pyodide_inputs(ctx: Context) -> Inputs:
    folder = pyodide_dir(ctx.root)
    files = [folder / "package.json", *(folder / name for name in PYODIDE_FILES)]
    copied = [
        name for name in PYODIDE_FILES if name not in (TRIMMED_BY_THE_BUILD, CLASSIC_RUNTIME_SOURCE)
    ]
    return Inputs(
        files,
        {
            "records": ["pyodide_version", "runtime_files"],
            "copied": copied,
            "esbuild": esbuild_version(ctx.root),
            "classic_runtime": "page or worker",  # the script's own URL read in a worker too
        },
    )


def copy_pyodide_runtime(ctx: Context) -> None:
    folder = pyodide_dir(ctx.root)
    copied = pyodide_inputs(ctx).params["copied"]
    for name in copied:
        ctx.put_file(f"pyodide/{name}", folder / name)
    with tempfile.TemporaryDirectory(prefix="ewar-runtime-") as made:
        script = Path(made) / CLASSIC_RUNTIME
        classic_runtime(ctx.root, folder / CLASSIC_RUNTIME_SOURCE, script)
        ctx.put_file(f"pyodide/{CLASSIC_RUNTIME}", script)
        made_size = script.stat().st_size
    # The one list of the page's runtime files (under pyodide/) with their sizes: the page's loader reads it. The
    # stdlib step adds the standard library it trims.
    ctx.info["runtime_files"] = {
        **{name: (folder / name).stat().st_size for name in copied},
        CLASSIC_RUNTIME: made_size,
    }
    ctx.info["pyodide_version"] = json.loads((folder / "package.json").read_text())["version"]


# ---------------------------------------------------------------------------------------------
# micropip_wheel: the version pyodide-lock.json pins, from PyPI, cached under build/cache; the stdlib module
# publishes it compiled (stdlib.publish_compiled_micropip)


def micropip_download_inputs(ctx: Context) -> list[Path]:
    return [pyodide_dir(ctx.root) / "pyodide-lock.json"]


def download_micropip(ctx: Context, version: str, python: str, kept: Path) -> None:
    ctx.log(f"  downloading micropip {version} from PyPI")
    with tempfile.TemporaryDirectory(prefix="micropip-") as tmp:
        command = [
            *(sys.executable, "-m", "pip", "download", f"micropip=={version}", "--no-deps"),
            *("--only-binary=:all:", "--python-version", python, "-d", tmp),
        ]
        run_quiet(command, "pip download micropip")
        got = sorted(Path(tmp).glob("*.whl"))
        if len(got) != 1 or not zipfile.is_zipfile(got[0]):
            raise BuildError(f"pip download gave {[p.name for p in got]}, not one wheel")
        kept.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(got[0], kept / f".{got[0].name}.partial")
        os.replace(kept / f".{got[0].name}.partial", kept / got[0].name)


def pyodide_python(root: Path) -> str:
    """The major.minor of the Python that Pyodide's runtime runs, from its lock file: "3.14"."""
    lock = json.loads((pyodide_dir(root) / "pyodide-lock.json").read_text())
    return ".".join(lock["info"]["python"].split(".")[:2])


def pypi_micropip(ctx: Context) -> Path:
    """PyPI's micropip wheel of the version pyodide-lock.json pins (downloaded once, kept in build/cache)."""
    lock = json.loads((pyodide_dir(ctx.root) / "pyodide-lock.json").read_text())
    entry = lock["packages"]["micropip"]
    kept = ctx.cache / "downloads" / f"micropip-{entry['version']}"
    if not (kept.is_dir() and any(kept.glob("*.whl"))):
        download_micropip(ctx, entry["version"], pyodide_python(ctx.root), kept)
    wheel = sorted(kept.glob("*.whl"))[0]
    if wheel.name != entry["file_name"]:
        raise BuildError(
            f"PyPI's micropip wheel {wheel.name} is not {entry['file_name']}, as pyodide-lock.json says"
        )
    return wheel


# ---------------------------------------------------------------------------------------------
# web: the page shell, web/ -> dist/


def web_inputs(ctx: Context) -> Inputs:
    return Inputs(files_under(ctx.root / "web"))


def copy_web(ctx: Context) -> None:
    for path in files_under(ctx.root / "web"):
        rel = path.relative_to(ctx.root / "web").as_posix()
        if rel == BUILD_INFO:
            raise BuildError(f"web/{BUILD_INFO} would be overwritten by the build")
        if rel == WORKER_TEMPLATE:
            continue  # the service_worker step writes it, filled in, as dist/sw.js
        if rel in BUNDLED_ONLY:
            continue  # reaches dist/ only bundled (the bundle step)
        ctx.put_file(rel, path)


# ---------------------------------------------------------------------------------------------
# icons: the app icons web/manifest.webmanifest lists, drawn by tools/icons.py


def icons_tool(root: Path) -> Path:
    return root / "tools" / "icons.py"


def icons_inputs(ctx: Context) -> Inputs:
    return Inputs([icons_tool(ctx.root)])


def draw_icons(ctx: Context) -> None:
    spec = importlib.util.spec_from_file_location("ewar_icons", icons_tool(ctx.root))
    if not spec or not spec.loader:
        raise BuildError(f"cannot load {icons_tool(ctx.root)}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    for rel, data in module.icon_files().items():
        ctx.put_bytes(rel, data)


# ---------------------------------------------------------------------------------------------
# build_info: what the page reads first

INFO_ORDER = (
    "engine_wheel",
    "page_engine_wheel",
    "micropip_wheel",
    "pyodide_version",
    "engine_version",
    "runtime_files",
)


def content_hash(outputs: dict[str, str]) -> str:
    """build_id: sha256 over 'path<TAB>sha256' lines of every dist file but build-info.json."""
    lines = "".join(f"{rel}\t{outputs[rel]}\n" for rel in sorted(outputs) if rel != BUILD_INFO)
    return hashlib.sha256(lines.encode()).hexdigest()[:16]


# What a memory snapshot made on the device depends on, besides the runtime's files and the engine's wheel: the
# script that makes it (web/worker/snapshot-maker.js and the host it bundles).
DEVICE_SNAPSHOT_MAKER = "js/snapshot-maker.js"


def device_snapshot_key(ctx: Context) -> str:
    """A hash over the files a snapshot made on the device holds or was made by (the page's engine wheel, Pyodide's
    runtime files, the maker's script): the page restores a snapshot it made only under the same key, so never
    with another build's wheel or runtime. A change elsewhere (styles, catalogs) keeps the key."""
    files = [
        ctx.info["page_engine_wheel"],
        *(f"pyodide/{name}" for name in sorted(ctx.info["runtime_files"])),
        DEVICE_SNAPSHOT_MAKER,
    ]
    absent = [rel for rel in files if rel not in ctx.outputs]
    if absent:
        raise BuildError(f"the device snapshot's key needs {absent}, not in dist/")
    lines = "".join(f"{rel}\t{ctx.outputs[rel]}\n" for rel in files)
    return hashlib.sha256(f"{ctx.info['pyodide_version']}\n{lines}".encode()).hexdigest()[:16]


def write_build_info(ctx: Context) -> None:
    missing = [key for key in INFO_ORDER if key not in ctx.info]
    if missing:
        raise BuildError(f"build-info is missing {missing}: a step did not run")
    ctx.info["device_snapshot_key"] = device_snapshot_key(ctx)
    ctx.info["build_id"] = content_hash(ctx.outputs)
    keys = [*INFO_ORDER, *sorted(set(ctx.info) - set(INFO_ORDER) - {"build_id"}), "build_id"]
    # Nested facts with sorted keys: a skipped step's facts come back from the state file
    # key-sorted, and build-info.json must be the same bytes whether its steps ran or not.
    document = {key: json.loads(json.dumps(ctx.info[key], sort_keys=True)) for key in keys}
    ctx.put_bytes(BUILD_INFO, (json.dumps(document, indent=2) + "\n").encode())


# ---------------------------------------------------------------------------------------------
# service_worker: dist/sw.js, web/worker/worker.js with the precache list of this build

SERVICE_WORKER = "sw.js"
WORKER_TEMPLATE = "worker/worker.js"  # under web/
PRECACHE_MARK = '/* @precache */ { build_id: "dev", files: [] }'
# Files in dist/ that the page never loads: the worker itself and Netlify's control files.
NOT_PRECACHED = {SERVICE_WORKER, "_headers", "_redirects"}


def worker_source(root: Path) -> Path:
    return root / "web" / WORKER_TEMPLATE


# A static import of the worker: `import ... from "./x.js"` or `"../x.js"`, relative to web/worker/.
WORKER_IMPORT = re.compile(r"^(import\b[^;]*?from\s+)([\"'])(\.{1,2}/[^\"']+)\2", re.MULTILINE)


def rebase_worker_imports(ctx: Context, source: str, source_path: Path) -> str:
    """The worker's imports, written relative to web/worker/, rewritten relative to dist/sw.js (the site's root,
    its scope); each must name a file the build put in dist/."""
    folder = PurePosixPath(WORKER_TEMPLATE).parent

    def rebase(match: re.Match) -> str:
        rel = posixpath.normpath((folder / match[3]).as_posix())
        if rel.startswith("../") or rel not in ctx.outputs:
            raise BuildError(f"{source_path} imports {match[3]}, which is not in dist/")
        return f"{match[1]}{match[2]}./{rel}{match[2]}"

    return WORKER_IMPORT.sub(rebase, source)


def precache_list(ctx: Context) -> list[list]:
    """[path, sha256, size] of every file in dist/ the page may load: all of them but its own modules under js/,
    which reach it only inside its bundle (bundle.is_bundled_module), and the engine's source wheel, which the
    scores function loads (the page installs its compiled twin, page_engine_wheel)."""
    skipped = NOT_PRECACHED | {ctx.info["engine_wheel"]}
    return [
        [rel, ctx.outputs[rel], (ctx.dist / rel).stat().st_size]
        for rel in sorted(ctx.outputs)
        if rel not in skipped and not rel.endswith(".map") and not is_bundled_module(rel)
    ]


def cached_on_use(ctx: Context) -> list[str]:
    """Files the worker caches only once the page has fetched them, never on its own: the memory snapshot,
    which only the snapshot path loads (a first visit takes micropip: the snapshot would double its bytes)."""
    snapshot = ctx.info.get("snapshot") or {}
    return [snapshot["file"]] if snapshot.get("file") else []


def precache_manifest(ctx: Context) -> dict:
    return {
        "build_id": ctx.info["build_id"],
        "files": precache_list(ctx),
        "on_use": cached_on_use(ctx),
    }


def service_worker_inputs(ctx: Context) -> Inputs:
    return Inputs([worker_source(ctx.root)], precache_manifest(ctx))


def write_service_worker(ctx: Context) -> None:
    source_path = worker_source(ctx.root)
    source = source_path.read_text()
    if source.count(PRECACHE_MARK) != 1:
        raise BuildError(f"{source_path} must hold the line {PRECACHE_MARK!r} once")
    source = rebase_worker_imports(ctx, source, source_path)
    manifest = precache_manifest(ctx)
    listed = json.dumps(manifest, separators=(",", ":")).replace("],[", "],\n  [")
    ctx.put_bytes(SERVICE_WORKER, source.replace(PRECACHE_MARK, listed).encode())
