#!/usr/bin/env python3
"""Build, serve and test Egyptian War: the command line over tools/builder/.

python build.py [build]                         build everything into dist/
python build.py serve [--port 8000] [--host 127.0.0.1]
                                                build, then serve dist/ and the scores API (the
                                                memory snapshots follow in the background)
python build.py test [--engine] [PYTEST ARGS]   install test needs, lint, build, run every test
                                                (--engine: ruff and tests/engine only; no Node)
python build.py smoke URL                       check a live or preview deploy (or `serve`): the page,
                                                the precache, the API's routes and its posting limit,
                                                storing nothing lasting (tools/builder/smoke.py)
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tools.builder import STEPS, BuildError, build, serve_in_foreground  # noqa: E402
from tools.builder.serving import build_then_finish  # noqa: E402
from tools.builder.smoke import smoke  # noqa: E402
from tools.builder.snapshot import SNAPSHOT_STEPS  # noqa: E402
from tools.builder.suite import run_suite  # noqa: E402


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="build.py", description=__doc__.splitlines()[0])
    commands = top.add_subparsers(dest="command")
    commands.add_parser("build", help="build everything into dist/ (the default)")
    serve = commands.add_parser("serve", help="build, then serve dist/ and the scores API")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--host", default="127.0.0.1")
    commands.add_parser(
        "test", help="lint, build, run pytest and node --test (other args go to pytest)"
    )
    smoke_command = commands.add_parser(
        "smoke", help="check a deploy at URL: page, precache, API routes, rate limit"
    )
    smoke_command.add_argument("url", help="the deploy's address, e.g. https://example.netlify.app")
    return top


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    try:
        if argv[:1] == ["test"]:  # everything after `test` is pytest's, so argparse stays out
            return run_suite(ROOT, argv[1:], build=lambda: build(ROOT))
        options = parser().parse_args(argv)
        if (
            options.command == "serve"
        ):  # served once playable; the snapshots follow (tools/builder/serving.py)
            first, _later = build_then_finish(lambda **kw: build(ROOT, **kw), STEPS, SNAPSHOT_STEPS)
            return serve_in_foreground(first.dist, options.host, options.port)
        if options.command == "smoke":
            return smoke(options.url)
        build(ROOT)
        return 0
    except BuildError as error:
        print(f"build.py: {error}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
