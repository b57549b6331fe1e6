"""build.py and tools/devserver.mjs: what dist/ holds, no-op rebuilds, and how files are served."""

from __future__ import annotations

import hashlib
import http.client
import json
import re
import shutil
import signal
import subprocess
import sys
import time
import zipfile
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from build_module import RUNTIME_FILES, copy_project, load_build_module

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
    web = ROOT / "web"
    if not web.is_dir():
        return {}
    return {
        rel: digest
        for rel, digest in tree(web).items()
        if "__pycache__" not in rel.split("/") and not rel.endswith((".pyc", ".DS_Store"))
    }


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
        expected |= {f"pyodide/{name}" for name in RUNTIME_FILES}
        expected |= {info["engine_wheel"], info["micropip_wheel"], "build-info.json"}
        expected |= {info["snapshot"]["file"]}  # the page's memory snapshot
        expected |= {"sw.js"} | {f"icons/{name}" for name in ICONS}  # the service worker, the app icons
        assert set(tree(built.dist)) == expected

    def test_web_is_copied_verbatim(self, built):
        copied = tree(built.dist)
        for rel, digest in web_files().items():
            assert copied[rel] == digest, rel

    def test_pyodide_runtime_files_are_the_npm_packages_own(self, built):
        for name in RUNTIME_FILES:
            assert (built.dist / "pyodide" / name).read_bytes() == (PYODIDE / name).read_bytes()

    def test_build_info_names_what_the_page_loads(self, built, info):
        assert list(info) == [
            "engine_wheel",
            "micropip_wheel",
            "pyodide_version",
            "engine_version",
            "snapshot",
            "build_id",
        ]
        assert re.fullmatch(r"wheels/ewar-[^/]+-py3-none-any\.whl", info["engine_wheel"])
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
    def test_is_the_version_pyodide_lock_pins(self, built, info):
        lock = json.loads((PYODIDE / "pyodide-lock.json").read_text())["packages"]["micropip"]
        wheel = built.dist / info["micropip_wheel"]
        assert wheel.name == lock["file_name"]
        with zipfile.ZipFile(wheel) as archive:
            assert "micropip/__init__.py" in archive.namelist()

    def test_is_cached_so_rebuilds_need_no_network(self, built, info):
        cached = list(
            (builder.DEFAULT_CACHE / "downloads").rglob(Path(info["micropip_wheel"]).name)
        )
        assert (
            cached and cached[0].read_bytes() == (built.dist / info["micropip_wheel"]).read_bytes()
        )


# ---------------------------------------------------------------------------------------------
# Rebuilds


class TestRebuild:
    def test_nothing_changed_is_a_fast_no_op(self, built, info):
        before = {p: p.stat().st_mtime_ns for p in built.dist.rglob("*") if p.is_file()}
        contents = tree(built.dist)
        started = time.monotonic()
        again = builder.build(dist=built.dist, log=quiet)
        elapsed = time.monotonic() - started
        assert elapsed < 1.0
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
        first = builder.build(root=project_copy, log=quiet)
        init = project_copy / "ewar" / "__init__.py"
        init.write_text(re.sub(r"__version__\s*=.*", '__version__ = "9.8.7"', init.read_text()))
        second = builder.build(root=project_copy, log=quiet)
        assert second.ran.count("engine_wheel") == 1
        assert second.info["engine_version"] == "9.8.7"
        assert second.info["engine_wheel"] == "wheels/ewar-9.8.7-py3-none-any.whl"
        assert second.info["build_id"] != first.info["build_id"]
        wheels = sorted(p.name for p in (second.dist / "wheels").iterdir())
        assert wheels == ["ewar-9.8.7-py3-none-any.whl"]  # the old wheel is gone
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


# ---------------------------------------------------------------------------------------------
# Dev server

FAKE_API = """
export async function startLocalApi({ dataDir }) {
  return {
    async handle(request) {
      const url = new URL(request.url);
      const body = request.method === "GET" ? "" : await request.text();
      const headers = new Headers({ "content-type": "application/json", "x-api": "fake" });
      headers.append("set-cookie", "a=1");
      headers.append("set-cookie", "b=2");
      const echo = { dataDir, method: request.method, path: url.pathname, query: url.search,
                     body, player: request.headers.get("x-player") };
      return new Response(JSON.stringify(echo), { status: 201, headers });
    },
  };
}
"""

SAMPLES = {
    "index.html": b"<!doctype html><title>t</title>",
    "app.mjs": b"export const a = 1;\n",
    "old.js": b"var a = 1;\n",
    "sw.js": b"self.addEventListener('fetch', () => {});\n",
    "build-info.json": b'{"build_id": "x"}\n',
    "pyodide/pyodide.asm.wasm": b"\0asm\1\0\0\0",
    "wheels/ewar-1.0.0-py3-none-any.whl": b"PK\5\6" + b"\0" * 18,
    "pyodide/python_stdlib.zip": b"PK\5\6" + b"\0" * 18,
    "style.css": b"body{}",
    "icon.svg": b"<svg xmlns='http://www.w3.org/2000/svg'/>",
    "manifest.webmanifest": b"{}",
    "snapshot.bin": b"\1\2\3",
    "levels/index.html": b"<p>levels</p>",
}


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A served folder with one file of each kind, and a secret just outside it."""
    base = tmp_path_factory.mktemp("site")
    served = base / "public"
    for rel, data in SAMPLES.items():
        (served / rel).parent.mkdir(parents=True, exist_ok=True)
        (served / rel).write_bytes(data)
    (base / "secret.txt").write_text("do not serve")
    api = base / "fake_api.mjs"
    api.write_text(FAKE_API)
    return served


@pytest.fixture(scope="module")
def server(site: Path) -> Iterator[tuple[str, int]]:
    data_dir = site.parent / "blobs"
    with builder.DevServer(site, data_dir=data_dir, api_module=site.parent / "fake_api.mjs") as url:
        parts = urlsplit(url)
        yield parts.hostname, parts.port


def request(server, method: str, raw_path: str, body: bytes | None = None, headers=None):
    """One HTTP request with the path sent exactly as given (no client-side normalising)."""
    connection = http.client.HTTPConnection(*server, timeout=10)
    try:
        connection.putrequest(method, raw_path, skip_accept_encoding=True)
        for name, value in (headers or {}).items():
            connection.putheader(name, value)
        if body is not None:
            connection.putheader("Content-Length", str(len(body)))
        connection.endheaders(body)
        response = connection.getresponse()
        return response.status, response.headers, response.read()
    finally:
        connection.close()


class TestDevServerFiles:
    @pytest.mark.parametrize(
        ("path", "mime"),
        [
            ("/pyodide/pyodide.asm.wasm", "application/wasm"),
            ("/app.mjs", "text/javascript"),
            ("/old.js", "text/javascript"),
            (
                "/wheels/ewar-1.0.0-py3-none-any.whl",
                ("application/zip", "application/octet-stream"),
            ),
            ("/pyodide/python_stdlib.zip", ("application/zip", "application/octet-stream")),
            ("/index.html", "text/html"),
            ("/build-info.json", "application/json"),
            ("/style.css", "text/css"),
            ("/icon.svg", "image/svg+xml"),
            ("/manifest.webmanifest", "application/manifest+json"),
            ("/snapshot.bin", "application/octet-stream"),
        ],
    )
    def test_content_type(self, server, site, path, mime):
        status, headers, body = request(server, "GET", path)
        assert status == 200
        assert headers.get_content_type() in ((mime,) if isinstance(mime, str) else mime)
        assert body == (site / path.lstrip("/")).read_bytes()

    @pytest.mark.parametrize("path", ["/", "/index.html", "/sw.js", "/build-info.json"])
    def test_page_worker_and_build_info_are_never_cached_stale(self, server, path):
        status, headers, _ = request(server, "GET", path)
        assert status == 200
        assert headers["Cache-Control"] == "no-cache"

    def test_root_and_folders_serve_their_index(self, server):
        assert request(server, "GET", "/")[2] == SAMPLES["index.html"]
        assert request(server, "GET", "/levels/")[2] == SAMPLES["levels/index.html"]
        status, headers, _ = request(server, "GET", "/levels?x=1")
        assert (status, headers["Location"]) == (301, "/levels/?x=1")

    def test_query_strings_are_ignored_for_files(self, server):
        assert request(server, "GET", "/app.mjs?v=3")[:1] == (200,)

    def test_head_sends_headers_only(self, server):
        status, headers, body = request(server, "HEAD", "/pyodide/pyodide.asm.wasm")
        assert status == 200 and body == b""
        assert headers["Content-Length"] == str(len(SAMPLES["pyodide/pyodide.asm.wasm"]))
        assert headers.get_content_type() == "application/wasm"

    def test_etag_revalidation_answers_304(self, server):
        _, headers, _ = request(server, "GET", "/style.css")
        status, _, body = request(
            server, "GET", "/style.css", headers={"If-None-Match": headers["ETag"]}
        )
        assert (status, body) == (304, b"")

    @pytest.mark.parametrize("path", ["/missing.js", "/pyodide/", "/nope/deeper/file.whl"])
    def test_missing_is_404(self, server, path):
        assert request(server, "GET", path)[0] == 404

    @pytest.mark.parametrize(
        "path",
        [
            "/../secret.txt",
            "/pyodide/../../secret.txt",
            "/..%2fsecret.txt",
            "/%2e%2e/secret.txt",
            "/%2E%2E%2Fsecret.txt",
            "/..%5csecret.txt",
            "/%00index.html",
        ],
    )
    def test_no_way_out_of_the_served_folder(self, server, site, path):
        assert (site.parent / "secret.txt").is_file()
        status, _, body = request(server, "GET", path)
        assert status == 404
        assert b"do not serve" not in body

    def test_other_methods_on_files_are_405(self, server):
        status, headers, _ = request(server, "POST", "/index.html", body=b"x")
        assert status == 405 and "GET" in headers["Allow"]


class TestDevServerApi:
    def test_requests_under_api_scores_reach_the_api_module(self, server, site):
        status, headers, body = request(
            server,
            "POST",
            "/api/scores/daily?date=2026-11-30",
            body=b'{"score": 1}',
            headers={"Content-Type": "application/json", "X-Player": "ana"},
        )
        assert status == 201
        assert headers["X-Api"] == "fake"
        assert headers.get_all("Set-Cookie") == ["a=1", "b=2"]
        echo = json.loads(body)
        assert echo == {
            "dataDir": str(site.parent / "blobs"),
            "method": "POST",
            "path": "/api/scores/daily",
            "query": "?date=2026-11-30",
            "body": '{"score": 1}',
            "player": "ana",
        }

    def test_get_on_the_bare_prefix_reaches_it_too(self, server):
        status, _, body = request(server, "GET", "/api/scores")
        assert status == 201 and json.loads(body)["method"] == "GET"

    def test_similar_paths_are_static(self, server):
        assert request(server, "GET", "/api/scoresheet")[0] == 404

    def test_without_an_api_module_the_api_answers_503(self, site, tmp_path):
        with builder.DevServer(site, api_module=tmp_path / "absent.mjs") as url:
            parts = urlsplit(url)
            assert request((parts.hostname, parts.port), "GET", "/api/scores")[0] == 503
            assert request((parts.hostname, parts.port), "GET", "/app.mjs")[0] == 200


class TestDevServerProcess:
    def test_prints_its_url_and_stops_cleanly_on_sigterm_and_sigint(self, site, tmp_path):
        for signum in (signal.SIGTERM, signal.SIGINT):
            server = builder.DevServer(site, api_module=tmp_path / "absent.mjs")
            url = server.start()
            assert re.fullmatch(r"http://127\.0\.0\.1:\d+/", url)
            server.process.send_signal(signum)
            assert server.process.wait(timeout=10) == 0
            server.stop()

    def test_a_bad_port_is_refused(self, site):
        node = shutil.which("node")
        done = subprocess.run(
            [node, str(ROOT / "tools/devserver.mjs"), "--dir", str(site), "--port", "x"],
            check=False,
            capture_output=True,
            text=True,
            timeout=30,
        )
        assert done.returncode != 0 and "--port" in done.stderr


# ---------------------------------------------------------------------------------------------
# build.py test helpers


class TestTestCommandHelpers:
    @pytest.mark.parametrize(
        ("requirement", "met"),
        [
            ("pytest>=8", True),
            ("pytest>=999", False),
            ("pytest<1", False),
            ("pytest>=1,<999", True),
            ("no-such-package-here", False),
            (f"pytest=={__import__('pytest').__version__}", True),
        ],
    )
    def test_requirement_met(self, requirement, met):
        assert builder.requirement_met(requirement) is met

    def test_node_tests_are_found_under_netlify_only(self, tmp_path):
        (tmp_path / "netlify" / "functions" / "scores").mkdir(parents=True)
        (tmp_path / "netlify" / "functions" / "scores" / "a.test.mjs").write_text("")
        (tmp_path / "netlify" / "b.test.mjs").write_text("")
        (tmp_path / "netlify" / "c.mjs").write_text("")
        (tmp_path / "netlify" / "node_modules" / "x").mkdir(parents=True)
        (tmp_path / "netlify" / "node_modules" / "x" / "d.test.mjs").write_text("")
        found = [p.relative_to(tmp_path).as_posix() for p in builder.node_test_files(tmp_path)]
        assert found == ["netlify/b.test.mjs", "netlify/functions/scores/a.test.mjs"]
        assert builder.node_test_files(tmp_path / "nowhere") == []
