"""The build (tools/builder/): what dist/ holds, the engine wheel, no-op rebuilds and source changes."""

from __future__ import annotations

import base64
import hashlib
import json
import re
import resource
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from tools.harness.build_module import copy_project, load_build_module

ROOT = Path(__file__).resolve().parents[2]
PYODIDE = ROOT / "node_modules" / "pyodide"
ICONS = ("icon-192.png", "icon-512.png", "icon-maskable-192.png", "icon-maskable-512.png")

builder = load_build_module()


def quiet(_line: str) -> None:
    pass


def tree(folder: Path) -> dict[str, str]:
    """relative path -> sha256 of every file under folder."""
    return {
        path.relative_to(folder).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


def web_files() -> dict[str, str]:
    """web/'s files as dist/ holds them: all but the service worker's template (the build writes it, filled
    in, as sw.js) and the snapshot maker's source (only bundled, as js/snapshot-maker.js)."""
    web = ROOT / "web"
    if not web.is_dir():
        return {}
    return {
        rel: digest
        for rel, digest in tree(web).items()
        if "__pycache__" not in rel.split("/")
        and not rel.endswith((".pyc", ".DS_Store"))
        and rel not in ("worker/worker.js", "worker/snapshot-maker.js")
    }


def cpu_seconds() -> float:
    """CPU time used so far by this process and the children it waited for."""
    own, children = (
        resource.getrusage(who) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)
    )
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def source_version(root: Path) -> str:
    text = (root / "ewar" / "__init__.py").read_text()
    return re.search(r"^__version__\s*=\s*['\"]([^'\"]+)['\"]", text, re.MULTILINE).group(1)


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory):
    """A build of this repository into a throwaway dist folder."""
    dist = tmp_path_factory.mktemp("dist")
    return builder.build(dist=dist, log=quiet)


@pytest.fixture(scope="module")
def info(built) -> dict:
    return json.loads((built.dist / "build-info.json").read_text())


# ---------------------------------------------------------------------------------------------
# What dist/ holds


class TestDistContents:
    def test_holds_exactly_web_runtime_wheels_and_build_info(self, built, info):
        expected = set(web_files())
        expected |= {f"pyodide/{name}" for name in info["runtime_files"]}
        expected |= {info["engine_wheel"], info["page_engine_wheel"], info["micropip_wheel"]}
        expected |= {"build-info.json"}
        expected |= {info["snapshot"]["file"]}  # the page's memory snapshot
        expected |= {"sw.js"} | {
            f"icons/{name}" for name in ICONS
        }  # the service worker, the app icons
        expected |= {"js/bundle.js", "js/engine-start.js"}  # the page's modules as two scripts
        expected |= {"js/snapshot-maker.js"}  # and the worker that makes the snapshot on the device
        assert set(tree(built.dist)) == expected

    def test_web_is_copied_verbatim(self, built):
        copied = tree(built.dist)
        for rel, digest in web_files().items():
            assert copied[rel] == digest, rel

    def test_pyodide_runtime_files_are_the_npm_packages_own(self, built, info):
        assert set(info["runtime_files"]) == {
            "pyodide.mjs",
            "pyodide.asm.js",
            "pyodide.asm.wasm",
            "python_stdlib.zip",
            "pyodide-lock.json",
        }
        for name, size in info["runtime_files"].items():
            copied = (built.dist / "pyodide" / name).read_bytes()
            assert len(copied) == size
            # The standard library is trimmed by the build (tests/build/test_stdlib.py), pyodide.asm.js made from
            # pyodide.asm.mjs (tests/build/test_bundle.py).
            if name not in ("python_stdlib.zip", "pyodide.asm.js"):
                assert copied == (PYODIDE / name).read_bytes()

    def test_build_info_names_what_the_page_loads(self, built, info):
        assert list(info) == [
            "engine_wheel",
            "page_engine_wheel",
            "micropip_wheel",
            "pyodide_version",
            "engine_version",
            "runtime_files",
            "device_snapshot_key",
            "kept_engines",
            "snapshot",
            "build_id",
        ]
        assert re.fullmatch(r"wheels/ewar-[^/]+-py3-none-any\.whl", info["engine_wheel"])
        assert re.fullmatch(
            r"wheels/ewar-[^/]+-0[0-9a-f]{12}-cp3\d+-none-any\.whl", info["page_engine_wheel"]
        )
        assert re.fullmatch(r"pyodide/micropip-[^/]+\.whl", info["micropip_wheel"])
        assert (
            info["pyodide_version"] == json.loads((PYODIDE / "package.json").read_text())["version"]
        )
        assert info["engine_version"] == source_version(ROOT)
        assert built.info == info

    def test_build_id_is_the_content_hash_of_everything_else(self, built, info):
        files = tree(built.dist)
        del files["build-info.json"]
        del files["sw.js"]  # written after build_info: it lists build_id, so it is not part of it
        lines = "".join(f"{rel}\t{files[rel]}\n" for rel in sorted(files))
        assert info["build_id"] == hashlib.sha256(lines.encode()).hexdigest()[:16]


class TestEngineWheel:
    def test_is_a_wheel_of_the_current_sources(self, built, info):
        wheel = built.dist / info["engine_wheel"]
        assert zipfile.is_zipfile(wheel)
        with zipfile.ZipFile(wheel) as archive:
            names = set(archive.namelist())
            assert archive.read("ewar/__init__.py") == (ROOT / "ewar/__init__.py").read_bytes()
            metadata = next(n for n in names if n.endswith(".dist-info/METADATA"))
            assert f"Version: {info['engine_version']}" in archive.read(metadata).decode()
        sources = {
            p.relative_to(ROOT).as_posix()
            for p in (ROOT / "ewar").rglob("*.py")
            if "__pycache__" not in p.parts
        }
        assert sources <= names
        assert wheel.name == f"ewar-{info['engine_version']}-py3-none-any.whl"

    def test_unpacked_wheel_imports_without_the_repository(self, built, info, tmp_path):
        with zipfile.ZipFile(built.dist / info["engine_wheel"]) as archive:
            archive.extractall(tmp_path)
        probe = (
            f"import sys; sys.path.insert(0, {str(tmp_path)!r}); import ewar; "
            "print(ewar.__file__); print(ewar.__version__)"
        )
        done = subprocess.run(
            [sys.executable, "-I", "-c", probe],
            check=False,
            cwd=tmp_path,
            capture_output=True,
            text=True,
        )
        assert done.returncode == 0, done.stderr
        where, version = done.stdout.split()
        assert Path(where).is_relative_to(tmp_path)
        assert version == info["engine_version"]


class TestMicropipWheel:
    """The page's micropip: the version pyodide-lock.json pins, from PyPI, compiled for Pyodide's Python."""

    def pypi_wheel(self, info) -> Path:
        lock = json.loads((PYODIDE / "pyodide-lock.json").read_text())["packages"]["micropip"]
        cached = list((builder.DEFAULT_CACHE / "downloads").rglob(lock["file_name"]))
        assert cached, "PyPI's wheel is kept in build/cache: rebuilds need no network"
        return cached[0]

    def test_is_the_version_pyodide_lock_pins_compiled(self, built, info):
        lock = json.loads((PYODIDE / "pyodide-lock.json").read_text())
        python = "".join(lock["info"]["python"].split(".")[:2])
        version = lock["packages"]["micropip"]["version"]
        sha = hashlib.sha256((built.dist / info["micropip_wheel"]).read_bytes()).hexdigest()
        # Served immutable: the build tag names the compiled bytes.
        assert (
            info["micropip_wheel"]
            == f"pyodide/micropip-{version}-0{sha[:12]}-cp{python}-none-any.whl"
        )

    def test_holds_pypis_files_with_each_module_compiled(self, built, info):
        with zipfile.ZipFile(self.pypi_wheel(info)) as pypi:
            sources = pypi.namelist()
        with zipfile.ZipFile(built.dist / info["micropip_wheel"]) as compiled:
            names = compiled.namelist()
            magic = compiled.read("micropip/__init__.pyc")[:4]
        with zipfile.ZipFile(built.dist / "pyodide" / "python_stdlib.zip") as stdlib:
            stdlib_magic = stdlib.read("json/__init__.pyc")[:4]
        assert "micropip/__init__.py" in sources and not any(n.endswith(".py") for n in names)
        assert sorted(names) == sorted(n + "c" if n.endswith(".py") else n for n in sources)
        assert magic == stdlib_magic  # compiled by Pyodide's own Python, as the standard library is


class TestPageEngineWheel:
    """The page installs the engine's wheel compiled (page_engine_wheel); the function keeps the source wheel."""

    def test_holds_the_source_wheels_files_with_each_module_compiled(self, built, info):
        with zipfile.ZipFile(built.dist / info["engine_wheel"]) as source:
            sources = {name: source.read(name) for name in source.namelist()}
        with zipfile.ZipFile(built.dist / info["page_engine_wheel"]) as compiled:
            files = {name: compiled.read(name) for name in compiled.namelist()}
        with zipfile.ZipFile(built.dist / "pyodide" / "python_stdlib.zip") as stdlib:
            stdlib_magic = stdlib.read("json/__init__.pyc")[:4]
        assert sorted(files) == sorted(n + "c" if n.endswith(".py") else n for n in sources)
        record = next(name for name in files if name.endswith(".dist-info/RECORD"))
        for name, data in sources.items():
            if name.endswith(".py"):
                assert files[name + "c"][:4] == stdlib_magic, (
                    name
                )  # Pyodide's own Python compiled it
            elif name != record:
                assert files[name] == data, name  # metadata, licence: the same bytes

    def test_its_record_lists_every_file_with_its_hash(self, built, info):
        with zipfile.ZipFile(built.dist / info["page_engine_wheel"]) as compiled:
            files = {name: compiled.read(name) for name in compiled.namelist()}
        record = next(name for name in files if name.endswith(".dist-info/RECORD"))
        rows = [line.split(",") for line in files[record].decode().splitlines()]
        assert sorted(row[0] for row in rows) == sorted(files)
        for name, digest, size in rows:
            if name == record:
                assert (digest, size) == ("", "")
                continue
            expected = base64.urlsafe_b64encode(hashlib.sha256(files[name]).digest()).rstrip(b"=")
            assert digest == f"sha256={expected.decode()}" and int(size) == len(files[name]), name

    def test_is_named_by_its_bytes_and_the_python_that_compiled_it(self, built, info):
        lock = json.loads((PYODIDE / "pyodide-lock.json").read_text())
        python = "".join(lock["info"]["python"].split(".")[:2])
        sha = hashlib.sha256((built.dist / info["page_engine_wheel"]).read_bytes()).hexdigest()
        assert info["page_engine_wheel"] == (
            f"wheels/ewar-{info['engine_version']}-0{sha[:12]}-cp{python}-none-any.whl"
        )


# ---------------------------------------------------------------------------------------------
# Rebuilds


class TestRebuild:
    def test_nothing_changed_is_a_fast_no_op(self, built, info):
        before = {p: p.stat().st_mtime_ns for p in built.dist.rglob("*") if p.is_file()}
        contents = tree(built.dist)
        # The work it does, not the wall time: beside the other worker's fresh-clone build, a no-op of ~0.2 s
        # once took 2.4 s of wall time waiting on a busy disk and CPU.
        started = cpu_seconds()
        again = builder.build(dist=built.dist, log=quiet)
        assert cpu_seconds() - started < 1.0
        assert again.info["build_id"] == info["build_id"]
        # the always-run cheap checks (function_snapshot checks build/function/ is of these inputs)
        assert set(again.ran) <= {"node_modules", "build_info", "function_snapshot"}
        assert tree(built.dist) == contents
        after = {p: p.stat().st_mtime_ns for p in built.dist.rglob("*") if p.is_file()}
        assert after == before  # nothing was even rewritten

    def test_repairs_changed_and_missing_outputs_and_drops_strays(self, built, info):
        (built.dist / "pyodide" / "pyodide.mjs").write_text("// tampered\n")
        (built.dist / info["micropip_wheel"]).unlink()
        (built.dist / "stray").mkdir()
        (built.dist / "stray" / "old.txt").write_text("left over")
        again = builder.build(dist=built.dist, log=quiet)
        assert "pyodide_runtime" in again.ran and "micropip_wheel" in again.ran
        assert again.info["build_id"] == info["build_id"]
        assert not (built.dist / "stray").exists()
        assert (built.dist / "pyodide/pyodide.mjs").read_bytes() == (
            PYODIDE / "pyodide.mjs"
        ).read_bytes()
        assert (built.dist / info["micropip_wheel"]).is_file()


@pytest.mark.parametrize("folder", [".", "web", "ewar/sub", ".."])
def test_refuses_to_build_into_a_folder_holding_sources(folder):
    with pytest.raises(builder.BuildError, match="refusing"):
        builder.build(dist=ROOT / folder, log=quiet)


@pytest.fixture
def project_copy(tmp_path: Path) -> Path:
    """The build inputs of this repository, copied (node_modules linked) so tests can edit them."""
    return copy_project(tmp_path / "project")


@pytest.mark.slow
class TestSourceChanges:
    def test_engine_change_rebuilds_the_wheel_and_the_build_id(self, project_copy):
        # Not the snapshots, nor the trimmed standard library: they follow the wheel, and each takes seconds.
        skipped = ("stdlib", "page_snapshot", "function_snapshot")
        steps = [step for step in builder.STEPS if step.name not in skipped]
        first = builder.build(root=project_copy, steps=steps, log=quiet)
        init = project_copy / "ewar" / "__init__.py"
        init.write_text(re.sub(r"__version__\s*=.*", '__version__ = "9.8.7"', init.read_text()))
        second = builder.build(root=project_copy, steps=steps, log=quiet)
        assert second.ran.count("engine_wheel") == 1
        assert second.info["engine_version"] == "9.8.7"
        assert second.info["engine_wheel"] == "wheels/ewar-9.8.7-py3-none-any.whl"
        assert second.info["build_id"] != first.info["build_id"]
        assert second.ran.count("page_engine_wheel") == 1  # its compiled twin follows it
        assert second.info["page_engine_wheel"].startswith("wheels/ewar-9.8.7-0")
        wheels = sorted(p.name for p in (second.dist / "wheels").iterdir())
        # the old wheels are gone
        assert wheels == sorted(
            [second.info["page_engine_wheel"][len("wheels/") :], "ewar-9.8.7-py3-none-any.whl"]
        )
        assert "pyodide_runtime" in second.skipped and "micropip_wheel" in second.skipped

    def test_web_change_is_copied_and_deletions_follow(self, project_copy):
        (project_copy / "web" / "extra.css").write_text("body { color: red }\n")
        first = builder.build(root=project_copy, log=quiet)
        assert (first.dist / "extra.css").read_text() == "body { color: red }\n"
        (project_copy / "web" / "extra.css").unlink()
        second = builder.build(root=project_copy, log=quiet)
        assert not (second.dist / "extra.css").exists()
        assert second.info["build_id"] != first.info["build_id"]
        assert "engine_wheel" in second.skipped

    def test_web_file_may_not_replace_build_info(self, project_copy):
        (project_copy / "web" / "build-info.json").write_text("{}")
        with pytest.raises(builder.BuildError, match="build-info.json"):
            builder.build(root=project_copy, log=quiet)
