"""Runs inside Pyodide (tools/builder/stdlib.mjs --compile): turns the .py files of a standard-library zip into
.pyc files for Pyodide's own Python, so that no page compiles them again at each start.

Compiled as with -OO (no docstrings, no asserts) and without line tables (a traceback through the standard
library says "line -1"): that keeps the zip as small as its sources, while a start-up that compiled the sources
spends about two thirds of Pyodide's load on it. The .pyc files are unchecked-hash ones: no source to compare
with, no timestamp, the same bytes for the same inputs."""

from __future__ import annotations

import marshal
import types
import zipfile
from importlib.util import MAGIC_NUMBER

ZIP_TIME = (1980, 1, 1, 0, 0, 0)
UNCHECKED_HASH_FLAGS = (1).to_bytes(4, "little")  # hash-based, source never checked


def _without_line_tables(code: types.CodeType) -> types.CodeType:
    consts = tuple(
        _without_line_tables(const) if isinstance(const, types.CodeType) else const
        for const in code.co_consts
    )
    return code.replace(co_linetable=b"", co_consts=consts)


def pyc_bytes(source: bytes, filename: str) -> bytes:
    """A .pyc file's bytes for `source`: header (magic, flags, an unused hash) and the marshalled code."""
    code = compile(source, filename, "exec", dont_inherit=True, optimize=2)
    return (
        MAGIC_NUMBER + UNCHECKED_HASH_FLAGS + bytes(8) + marshal.dumps(_without_line_tables(code))
    )


def compile_zip(source_zip: str, target_zip: str) -> int:
    """Writes `target_zip`: `source_zip` with each module.py replaced by module.pyc (names in order, fixed times,
    deflate level 9). Returns the number of files compiled."""
    compiled = 0
    with zipfile.ZipFile(source_zip) as source, zipfile.ZipFile(target_zip, "w") as target:
        for name in sorted(source.namelist()):
            data = source.read(name)
            if name.endswith(".py"):
                data, name = pyc_bytes(data, name), name + "c"
                compiled += 1
            info = zipfile.ZipInfo(name, date_time=ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            target.writestr(info, data, compresslevel=9)
    return compiled
