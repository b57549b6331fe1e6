"""A local stand-in for the CDN in front of the dev server: compresses responses as Netlify's edge does and
counts the bytes it sends, per request, so benchmarks and tests can say what a visit costs over the wire.

    with CdnProxy("http://127.0.0.1:8000/") as cdn:   # cdn.url: the site through the stand-in
        ...                                            # cdn.take_ledger(): [(method, path, status, bytes)]

Netlify compresses text, JSON, JavaScript, SVG and WebAssembly on the fly (brotli for browsers that accept it,
else gzip) and sends precompressed files (.gz, .zip, .whl, .png) as they are: the ledger counts what a browser
would receive, headers included. The brotli quality is an assumption (an edge compresses on the fly, with less
effort than a build would spend): BROTLI_QUALITY, a middling level, so that no saving is counted that the CDN
might not make.
"""

from __future__ import annotations

import gzip
import http.client
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

import brotli

BROTLI_QUALITY = 5
GZIP_LEVEL = 6
COMPRESSED_TYPES = (
    "text/",
    "application/javascript",
    "application/json",
    "application/manifest+json",
    "application/wasm",
    "image/svg+xml",
)
HOP_BY_HOP = {"connection", "keep-alive", "transfer-encoding", "content-length", "content-encoding"}


def compressible(content_type: str) -> bool:
    return content_type.split(";")[0].strip().lower().startswith(COMPRESSED_TYPES)


def chosen_encoding(accept_encoding: str) -> str | None:
    offered = {part.split(";")[0].strip().lower() for part in accept_encoding.split(",")}
    if "br" in offered:
        return "br"
    return "gzip" if "gzip" in offered else None


def encode(body: bytes, encoding: str) -> bytes:
    if encoding == "br":
        return brotli.compress(body, quality=BROTLI_QUALITY)
    return gzip.compress(body, GZIP_LEVEL, mtime=0)


class CdnProxy:
    """Forwards every request to `upstream`, compressing like the CDN; started with `with` or start()/stop()."""

    def __init__(self, upstream: str) -> None:
        parts = urlsplit(upstream)
        self.upstream = (parts.hostname or "127.0.0.1", parts.port or 80)
        self._ledger: list[tuple[str, str, int, int]] = []
        self._encoded: dict[tuple[str, str, int], bytes] = {}
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}/"

    def __enter__(self) -> CdnProxy:
        self.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self.stop()

    def start(self) -> str:
        self._thread.start()
        return self.url

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def take_ledger(self) -> list[tuple[str, str, int, int]]:
        """(method, path, status, bytes sent) of every response since the last call, in order."""
        with self._lock:
            taken, self._ledger = self._ledger, []
        return taken

    def compressed(self, path: str, body: bytes, encoding: str) -> bytes:
        key = (path, encoding, hash(body))
        with self._lock:
            known = self._encoded.get(key)
        if known is None:
            known = encode(body, encoding)
            with self._lock:
                self._encoded[key] = known
        return known

    def _record(self, method: str, path: str, status: int, sent: int) -> None:
        with self._lock:
            self._ledger.append((method, path.split("?")[0], status, sent))

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *_args: object) -> None:
                pass

            def _forward(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                request_body = self.rfile.read(length) if length else None
                headers = {k: v for k, v in self.headers.items() if k.lower() not in HOP_BY_HOP}
                headers["accept-encoding"] = "identity"
                upstream = http.client.HTTPConnection(*proxy.upstream, timeout=120)
                try:
                    upstream.request(self.command, self.path, body=request_body, headers=headers)
                    answer = upstream.getresponse()
                    body = answer.read()
                    reply = [(k, v) for k, v in answer.getheaders() if k.lower() not in HOP_BY_HOP]
                    status, reason = answer.status, answer.reason
                finally:
                    upstream.close()
                encoding = chosen_encoding(self.headers.get("accept-encoding", ""))
                if body and encoding and compressible(answer.getheader("content-type") or ""):
                    body = proxy.compressed(self.path, body, encoding)
                    reply += [("Content-Encoding", encoding), ("Vary", "Accept-Encoding")]
                reply.append(("Content-Length", str(len(body))))
                head = f"HTTP/1.1 {status} {reason}\r\n" + "".join(
                    f"{k}: {v}\r\n" for k, v in reply
                )
                self.send_response_only(status, reason)
                for name, value in reply:
                    self.send_header(name, value)
                try:
                    self.end_headers()
                    if self.command != "HEAD":
                        self.wfile.write(body)
                except (BrokenPipeError, ConnectionResetError):
                    return  # the browser gave up on it (a closed page): nothing more was sent
                proxy._record(self.command, self.path, status, len(head) + 2 + len(body))

            do_GET = do_HEAD = do_POST = do_PUT = do_DELETE = _forward

        return Handler
