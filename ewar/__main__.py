"""Command line: ``python -m ewar verify REPLAY.json [--date D [--score S]]`` and
``python -m ewar bmn A B``."""

from __future__ import annotations

import os
import sys

from .errors import EwarError

# Each command imports what it needs when it runs: `bmn` should start as fast as a plain script
# (benchmarks/cli_startup.py), and the judge, replays and argparse are not that.


def _verify(path: str, date: str | None, score: int | None) -> int:
    """Print the replay's report (no date) or the score judge's verdict (a date); exit 0 when
    it replays (or is accepted), 1 when refused, 2 when the file cannot be read."""
    import json

    from .judge import judge
    from .replay import Replay, verify

    try:
        with open(path, "rb") as handle:
            text = handle.read()
        if date is None:
            answer = verify(Replay.from_json(text))
        else:
            answer = judge(text, date, score).to_dict()
    except OSError as error:
        print(json.dumps({"ok": False, "error": {"code": "unreadable", "message": str(error)}}))
        return 2
    except EwarError as error:
        print(json.dumps({"ok": False, "error": {"code": error.code, "message": str(error)}}))
        return 1
    print(json.dumps(answer))
    return 0


def _bmn(pack_a: str, pack_b: str) -> int:
    from .bmn import parse_pack, play

    try:
        result = play(parse_pack(pack_a), parse_pack(pack_b))
    except EwarError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    print(result.to_json())
    return 0


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if len(argv) == 3 and argv[0] == "bmn" and not {"-h", "--help", "--"} & set(argv):
        return _bmn(argv[1], argv[2])  # the one form a script times: no parser to import
    import argparse

    parser = argparse.ArgumentParser(prog="python -m ewar", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    check = commands.add_parser(
        "verify", help="replay a game record and print its result, or judge it as a daily score"
    )
    check.add_argument("replay", help="path of a replay JSON file")
    check.add_argument(
        "--date",
        help="judge the record as the daily of this UTC date (YYYY-MM-DD), "
        "as the scores function does",
    )
    check.add_argument("--score", type=int, help="the score claimed for it (needs --date)")
    bmn = commands.add_parser("bmn", help="play a Beggar-My-Neighbour deal")
    bmn.add_argument("pack_a", help="A's pack, top card first (A flips first)")
    bmn.add_argument("pack_b", help="B's pack, top card first")
    if argv[:1] == ["bmn"] and "--" not in argv and not {"-h", "--help"} & set(argv):
        argv.insert(1, "--")  # published packs start with "-" (a number card), not an option
    args = parser.parse_args(argv)
    if args.command == "verify":
        if args.score is not None and args.date is None:
            parser.error("--score needs --date: only a daily record is judged against a claim")
        return _verify(args.replay, args.date, args.score)
    return _bmn(args.pack_a, args.pack_b)


def run() -> None:
    """The process's entry point (``python -m ewar``, the ``ewar`` script): run the command, write out
    what it printed and end the process with its exit status."""
    status = main()
    for stream in (sys.stdout, sys.stderr):
        if stream is not None:  # None when the process was started with the stream closed
            stream.flush()
    # The answer is out: skip the interpreter's teardown (freeing every module its start-up imported),
    # which costs a short run more than the engine's imports do (docs/performance.md).
    os._exit(status)


if __name__ == "__main__":
    run()
