"""tools/devserver.mjs: how files are served, the scores API mount, and clean stops."""

from __future__ import annotations

import http.client
import json
import re
import signal
import subprocess
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from tools.harness.build_module import load_build_module

ROOT = Path(__file__).resolve().parents[2]
builder = load_build_module()


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
    data_dir = site.parent / "board"
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
        directives = {part.strip() for part in headers["Cache-Control"].split(",")}
        assert "no-cache" in directives or {"max-age=0", "must-revalidate"} <= directives

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
            "dataDir": str(site.parent / "board"),
            "method": "POST",
            "path": "/api/scores/daily",
            "query": "?date=2026-11-30",
            "body": '{"score": 1}',
            "player": "ana",
        }

    def test_get_on_the_bare_prefix_reaches_it_too(self, server):
        status, _, body = request(server, "GET", "/api/scores")
        assert status == 201 and json.loads(body)["method"] == "GET"

    def test_requests_under_api_friends_reach_it_too(self, server):
        status, _, body = request(server, "PUT", "/api/friends/abcdefghijkl/members", body=b"{}")
        assert status == 201
        assert json.loads(body)["path"] == "/api/friends/abcdefghijkl/members"

    def test_similar_paths_are_static(self, server):
        assert request(server, "GET", "/api/scoresheet")[0] == 404
        assert request(server, "GET", "/api/friendship")[0] == 404

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
        node = ROOT / "node_modules" / ".bin" / "node"
        done = subprocess.run(
            [node, str(ROOT / "tools/devserver.mjs"), "--dir", str(site), "--port", "x"],
            check=False,
            capture_output=True,
            text=True,
            timeout=30,
        )
        assert done.returncode != 0 and "--port" in done.stderr
