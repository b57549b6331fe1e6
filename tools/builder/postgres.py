"""A throwaway PostgreSQL server for the tests and benchmarks: Debian's server binaries, a cluster in a temporary
folder, listening on a unix socket there only (no TCP port), stopped and removed after. Run as
`python -m tools.builder.postgres [--max-connections N] -- COMMAND...` it runs COMMAND with EWAR_TEST_DATABASE_URL
set (the burst benchmark limits connections as a small hosted database does)."""

from __future__ import annotations

import contextlib
import getpass
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

ENV_VAR = "EWAR_TEST_DATABASE_URL"
DEFAULT_MAX_CONNECTIONS = 200
BIN_DIRS = sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True)


class PostgresMissing(RuntimeError):
    """No PostgreSQL server binaries (initdb, pg_ctl) on this machine: `apt-get install postgresql`."""


def server_bin() -> Path:
    """The newest installed server's bin folder."""
    for folder in BIN_DIRS:
        if (folder / "initdb").is_file() and (folder / "pg_ctl").is_file():
            return folder
    raise PostgresMissing(
        "no PostgreSQL server binaries under /usr/lib/postgresql: apt-get install postgresql"
    )


def _as_owner(command: list[str], owner: str | None) -> list[str]:
    # initdb and postgres refuse to run as root: as root, the cluster belongs to the `postgres` system user.
    return ["runuser", "-u", owner, "--", *command] if owner else command


@contextlib.contextmanager
def temporary_server(max_connections: int = DEFAULT_MAX_CONNECTIONS) -> Iterator[str]:
    """Starts a server in a temporary folder, taking at most `max_connections` (3 of them kept for superusers, as
    PostgreSQL does by default); yields its URL (database `postgres`; its socket folder in the host parameter); stops and removes it after."""
    binaries = server_bin()
    owner = "postgres" if os.geteuid() == 0 else None
    base = Path(tempfile.mkdtemp(prefix="ewar-pg-"))
    data, socket_dir = base / "data", base / "socket"
    socket_dir.mkdir()
    if owner:
        shutil.chown(base, owner)
        shutil.chown(socket_dir, owner)
    user = owner or getpass.getuser()
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.PIPE, "check": True}
    try:
        subprocess.run(
            _as_owner(
                [
                    str(binaries / "initdb"),
                    "-D",
                    str(data),
                    "-U",
                    user,
                    "-A",
                    "trust",
                    "-E",
                    "UTF8",
                ],
                owner,
            ),
            **quiet,
        )
        options = f"-k {socket_dir} -c listen_addresses='' -c fsync=off -c max_connections={max_connections}"
        subprocess.run(
            _as_owner(
                [
                    str(binaries / "pg_ctl"),
                    "-D",
                    str(data),
                    "-l",
                    str(base / "log"),
                    "-o",
                    options,
                    "-w",
                    "start",
                ],
                owner,
            ),
            **quiet,
        )
        yield f"postgresql://{quote(user)}@localhost/postgres?host={quote(str(socket_dir), safe='')}"
    finally:
        if (data / "postmaster.pid").exists():
            subprocess.run(
                _as_owner(
                    [str(binaries / "pg_ctl"), "-D", str(data), "-m", "fast", "-w", "stop"], owner
                ),
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        shutil.rmtree(base, ignore_errors=True)


def main(argv: list[str]) -> int:
    max_connections = DEFAULT_MAX_CONNECTIONS
    if argv[:1] == ["--max-connections"]:
        if len(argv) < 2 or not argv[1].isdigit() or int(argv[1]) < 5:
            print("--max-connections takes a whole number of at least 5", file=sys.stderr)
            return 2
        max_connections, argv = int(argv[1]), argv[2:]
    command = argv[1:] if argv[:1] == ["--"] else argv
    if not command:
        print(
            "usage: python -m tools.builder.postgres [--max-connections N] -- COMMAND...",
            file=sys.stderr,
        )
        return 2
    with temporary_server(max_connections) as url:
        return subprocess.run(command, env={**os.environ, ENV_VAR: url}).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
