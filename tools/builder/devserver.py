"""tools/devserver.mjs from Python: in the background for tests (DevServer), or in the foreground for
`python build.py serve`. The server serves dist/ with the headers netlify.toml declares, and the
scores API at /api/scores."""

from __future__ import annotations

import re
import signal
import subprocess
import threading
from pathlib import Path

from .pipeline import BuildError
from .toolchain import project_node

ROOT = Path(__file__).resolve().parents[2]


def devserver_command(
    dist: Path,
    host: str = "127.0.0.1",
    port: int = 8000,
    data_dir: Path | None = None,
    api_module: Path | None = None,
    rate_limit: bool = True,
    api_clock_ahead_ms: int = 0,
) -> list[str]:
    command = [str(project_node(ROOT)), str(ROOT / "tools" / "devserver.mjs")]
    command += ["--dir", str(dist), "--host", host, "--port", str(port)]
    command += ["--netlify-toml", str(ROOT / "netlify.toml")]
    if data_dir:
        command += ["--data-dir", str(data_dir)]
    if api_module:
        command += ["--api-module", str(api_module)]
    if not rate_limit:
        command += ["--no-rate-limit"]
    if api_clock_ahead_ms:
        command += ["--api-clock-ahead-ms", str(api_clock_ahead_ms)]
    return command


class DevServer:
    """The dev server in the background on a free port, for tests: `with DevServer(dist) as url`."""

    READY = re.compile(r"Serving Egyptian War at (http://\S+)")

    def __init__(
        self,
        dist: Path,
        *,
        data_dir: Path | None = None,
        api_module: Path | None = None,
        rate_limit: bool = True,
        api_clock_ahead_ms: int = 0,
        timeout: float = 30.0,
    ) -> None:
        self.command = devserver_command(
            dist,
            port=0,
            data_dir=data_dir,
            api_module=api_module,
            rate_limit=rate_limit,
            api_clock_ahead_ms=api_clock_ahead_ms,
        )
        self.timeout = timeout
        self.lines: list[str] = []
        self.process: subprocess.Popen | None = None
        self.url = ""

    def __enter__(self) -> str:
        return self.start()

    def __exit__(self, *_exc: object) -> None:
        self.stop()

    def start(self) -> str:
        """Start the server; return its URL once it says it serves."""
        self.process = subprocess.Popen(
            self.command,
            cwd=ROOT,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        found: list[str] = []
        ready = threading.Event()
        reader = threading.Thread(target=self._read, args=(found, ready), daemon=True)
        reader.start()
        if not ready.wait(self.timeout) or not found:
            self.stop()
            output = "".join(self.lines)
            raise BuildError(f"the dev server did not start in {self.timeout} s:\n{output}")
        self.url = found[0]
        return self.url

    def _read(self, found: list[str], ready: threading.Event) -> None:
        assert self.process and self.process.stdout
        for line in self.process.stdout:
            self.lines.append(line)
            match = self.READY.search(line)
            if match and not found:
                found.append(match.group(1))
                ready.set()
        ready.set()

    def stop(self) -> int | None:
        """Stop the server (SIGTERM, then SIGKILL after 10 s); return its exit code."""
        if not self.process:
            return None
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        return self.process.returncode


def serve_in_foreground(dist: Path, host: str, port: int) -> int:
    """Run the dev server until Ctrl-C or SIGTERM, which it receives too and stops cleanly on."""
    server = subprocess.Popen(devserver_command(dist, host, port), cwd=ROOT)

    def forward(signum: int, _frame: object) -> None:
        if server.poll() is None:
            server.send_signal(signum)

    previous = {sig: signal.signal(sig, forward) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        try:
            return server.wait()
        finally:
            if server.poll() is None:
                server.terminate()
                server.wait(timeout=10)
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
