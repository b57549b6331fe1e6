"""`python build.py smoke URL` against `python build.py serve` (the dev server with the local API and the
functions' declared limits): every check holds, and the board holds what it held before; against a server of
the static files alone, the API's checks fail, each said on its own line."""

from __future__ import annotations

import functools
import http.server
import io
import json
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from tools.builder.smoke import CHECKS, smoke, today

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_until_served(url: str, seconds: float = 180) -> None:
    deadline = time.monotonic() + seconds
    while True:
        try:
            with urllib.request.urlopen(url, timeout=5) as response:
                if response.status == 200:
                    return
        except OSError:
            if time.monotonic() > deadline:
                raise
        assert time.monotonic() < deadline, f"{url} not served within {seconds} s"
        time.sleep(0.5)  # between two tries of a server still starting


def board_total(url: str) -> int:
    with urllib.request.urlopen(f"{url}api/scores?date={today()}", timeout=60) as response:
        return json.loads(response.read())["total"]


def test_every_check_holds_against_the_local_serve_and_nothing_is_stored() -> None:
    port = free_port()
    url = f"http://127.0.0.1:{port}/"
    server = subprocess.Popen(
        [sys.executable, "build.py", "serve", "--port", str(port)],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_until_served(url)
        before = board_total(url)
        out = io.StringIO()
        code = smoke(url, out=out)
        lines = out.getvalue().splitlines()
        assert code == 0, out.getvalue()
        assert [line.split()[0] for line in lines[:-1]] == ["ok"] * len(CHECKS)
        assert lines[-1] == f"{len(CHECKS)} of {len(CHECKS)} checks held against {url}"
        assert "429 at this run's post 11" in out.getvalue()
        assert board_total(url) == before
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_a_site_without_the_api_fails_each_api_check_on_its_own_line() -> None:
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(ROOT / "dist"))
    static = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=static.serve_forever, daemon=True).start()
    try:
        out = io.StringIO()
        code = smoke(f"http://127.0.0.1:{static.server_address[1]}", out=out)
    finally:
        static.shutdown()
    verdicts = {line[5:17].strip(): line.split()[0] for line in out.getvalue().splitlines()[:-1]}
    assert code == 1
    # The page has no CSP here (the static server sends no netlify.toml headers); the precache is all there.
    assert verdicts["precache"] == "ok"
    for name in ("page", "GET board", "POST scores", "friends", "forget me", "rate limit"):
        assert verdicts[name] == "FAIL", out.getvalue()
    assert smoke("not a url") == 2
