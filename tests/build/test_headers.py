"""One source for headers: the dev server serves exactly the [[headers]] netlify.toml declares, and
those hold the page's security policy (contract F) and the cache and type rules the runtime needs."""

from __future__ import annotations

import http.client
import re
import tomllib
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from tools.harness.build_module import load_build_module

ROOT = Path(__file__).resolve().parents[2]
builder = load_build_module()


def header_rules() -> list[dict]:
    with (ROOT / "netlify.toml").open("rb") as handle:
        return tomllib.load(handle)["headers"]


def rule_matches(pattern: str, path: str) -> bool:
    """Netlify's `for` patterns: `*` matches anything (slashes too), `:name` one segment."""
    parts = []
    for part in filter(None, pattern.split("/")):
        if part == "*":
            parts.append("?.*")
        elif part.startswith(":"):
            parts.append("[^/]+")
        else:
            parts.append(".*".join(re.escape(piece) for piece in part.split("*")))
    return re.fullmatch("/" + "/".join(parts) + "/?", path, re.IGNORECASE) is not None


def declared_for(path: str) -> dict[str, str]:
    declared: dict[str, str] = {}
    for rule in header_rules():
        if rule_matches(rule["for"], path):
            declared.update({name.lower(): value for name, value in rule["values"].items()})
    return declared


@pytest.fixture(scope="module")
def server(built_dist, tmp_path_factory) -> Iterator[tuple[str, int]]:
    with builder.DevServer(built_dist.dist, data_dir=tmp_path_factory.mktemp("board")) as url:
        parts = urlsplit(url)
        yield parts.hostname, parts.port


def head(server, path: str) -> tuple[int, dict[str, str]]:
    connection = http.client.HTTPConnection(*server, timeout=10)
    try:
        connection.request("HEAD", path)
        response = connection.getresponse()
        response.read()
        return response.status, {name.lower(): value for name, value in response.getheaders()}
    finally:
        connection.close()


def served_paths(dist: Path) -> list[str]:
    return [
        "/",
        *("/" + p.relative_to(dist).as_posix() for p in sorted(dist.rglob("*")) if p.is_file()),
    ]


class TestNetlifyTomlRules:
    def test_the_pattern_matcher_follows_netlifys_wildcards(self):
        assert rule_matches("/*", "/") and rule_matches("/*", "/a/b.js")
        assert rule_matches("/*.wasm", "/pyodide/pyodide.asm.wasm")
        assert not rule_matches("/*.wasm", "/pyodide/pyodide.asm.wasm.map")
        assert rule_matches("/pyodide/engine-*", "/pyodide/engine-0123.snapshot.gz")
        assert not rule_matches("/sw.js", "/js/sw.js")

    def test_no_two_rules_that_match_one_file_set_the_same_header(self, built_dist):
        for path in served_paths(built_dist.dist):
            seen: dict[str, str] = {}
            for rule in header_rules():
                if not rule_matches(rule["for"], path):
                    continue
                for name in rule["values"]:
                    assert name.lower() not in seen, (
                        f"{path}: {name} set by {seen.get(name.lower())} and {rule['for']}"
                    )
                    seen[name.lower()] = rule["for"]


class TestTheDevServerServesThem:
    def test_every_built_file_gets_exactly_the_declared_headers(self, server, built_dist):
        for path in served_paths(built_dist.dist):
            status, headers = head(server, path)
            assert status == 200, path
            for name, value in declared_for(path).items():
                assert headers.get(name) == value, (path, name)

    @pytest.mark.parametrize(
        ("path", "content_type"),
        [
            ("/pyodide/pyodide.asm.wasm", "application/wasm"),
            ("/pyodide/pyodide.mjs", "text/javascript; charset=utf-8"),
            ("/sw.js", "text/javascript; charset=utf-8"),
            ("/manifest.webmanifest", "application/manifest+json; charset=utf-8"),
        ],
    )
    def test_types_the_runtime_and_the_worker_need(self, server, path, content_type):
        assert head(server, path)[1]["content-type"] == content_type

    def test_content_named_files_are_immutable_and_the_rest_revalidates(self, server, built_info):
        immutable = "public, max-age=31536000, immutable"
        assert head(server, "/" + built_info["snapshot"]["file"])[1]["cache-control"] == immutable
        assert head(server, "/" + built_info["micropip_wheel"])[1]["cache-control"] == immutable
        for path in (
            "/",
            "/build-info.json",
            "/" + built_info["engine_wheel"],
            "/pyodide/pyodide.asm.wasm",
        ):
            assert "immutable" not in head(server, path)[1]["cache-control"], path
        assert head(server, "/sw.js")[1]["cache-control"] == "no-cache"

    def test_api_responses_keep_their_own_headers(self, server):
        status, headers = head(server, "/api/scores")
        assert status != 404
        assert "content-security-policy" not in headers


class TestSecurityHeaders:
    @pytest.fixture(scope="class")
    def page_headers(self, server) -> dict[str, str]:
        status, headers = head(server, "/")
        assert status == 200
        return headers

    def policy(self, headers: dict[str, str]) -> dict[str, list[str]]:
        directives = {}
        for directive in filter(
            None, (part.strip() for part in headers["content-security-policy"].split(";"))
        ):
            name, *sources = directive.split()
            directives[name] = sources
        return directives

    def test_the_page_runs_only_its_own_scripts_and_webassembly(self, page_headers):
        policy = self.policy(page_headers)
        assert policy["default-src"] == ["'self'"]
        assert policy["script-src"] == ["'self'", "'wasm-unsafe-eval'"]
        assert policy["connect-src"] == ["'self'"]
        assert policy["worker-src"] == ["'self'"]
        assert policy["img-src"] == ["'self'", "data:"]
        assert policy["frame-ancestors"] == ["'none'"]
        assert policy["object-src"] == ["'none'"]
        everything = " ".join(source for sources in policy.values() for source in sources)
        assert (
            "'unsafe-inline'" not in everything
            and "'unsafe-eval'" not in everything
            and "*" not in everything
        )

    def test_no_sniffing_and_no_referrer(self, page_headers):
        assert page_headers["x-content-type-options"] == "nosniff"
        assert page_headers["referrer-policy"] == "no-referrer"

    def test_every_static_file_carries_them(self, server, built_dist):
        for path in served_paths(built_dist.dist):
            headers = head(server, path)[1]
            assert headers["x-content-type-options"] == "nosniff", path
            assert "frame-ancestors 'none'" in headers["content-security-policy"], path
