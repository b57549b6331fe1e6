"""Command line: ``python -m ewar verify REPLAY.json`` and ``python -m ewar bmn A B``."""

from __future__ import annotations

import argparse
import json
import sys

from .bmn import parse_pack, play
from .errors import EwarError
from .replay import Replay, verify


def _verify(path: str) -> int:
    try:
        with open(path, "rb") as handle:
            text = handle.read()
        report = verify(Replay.from_json(text))
    except OSError as error:
        print(json.dumps({"ok": False, "error": {"code": "unreadable", "message": str(error)}}))
        return 2
    except EwarError as error:
        print(json.dumps({"ok": False, "error": {"code": error.code, "message": str(error)}}))
        return 1
    print(json.dumps(report))
    return 0


def _bmn(pack_a: str, pack_b: str) -> int:
    try:
        result = play(parse_pack(pack_a), parse_pack(pack_b))
    except EwarError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    print(json.dumps(result.to_dict()))
    return 0


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = argparse.ArgumentParser(prog="python -m ewar", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    check = commands.add_parser("verify", help="replay a game record and print its result")
    check.add_argument("replay", help="path of a replay JSON file")
    bmn = commands.add_parser("bmn", help="play a Beggar-My-Neighbour deal")
    bmn.add_argument("pack_a", help="A's pack, top card first (A flips first)")
    bmn.add_argument("pack_b", help="B's pack, top card first")
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["bmn"] and "--" not in argv and not {"-h", "--help"} & set(argv):
        argv.insert(1, "--")  # published packs start with "-" (a number card), not an option
    args = parser.parse_args(argv)
    if args.command == "verify":
        return _verify(args.replay)
    return _bmn(args.pack_a, args.pack_b)


if __name__ == "__main__":
    sys.exit(main())
