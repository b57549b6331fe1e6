"""Runs inside Pyodide (tools/builder/stdlib.mjs --compile): turns the .py files of a standard-library zip into
.pyc files for Pyodide's own Python, so that no page compiles them again at each start. (--compile-wheel: the
engine's wheel, compiled as Python itself would: compile_wheel below.)

Compiled as with -OO (no docstrings, no asserts) and without line tables (a traceback through the standard
library says "line -1"): that keeps the zip as small as its sources, while a start-up that compiled the sources
spends about two thirds of Pyodide's load on it. The .pyc files are unchecked-hash ones: no source to compare
with, no timestamp, the same bytes for the same inputs."""

from __future__ import annotations

import base64
import hashlib
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


def _record_hash(data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"sha256={digest}"


def compile_wheel(source_wheel: str, target_wheel: str) -> int:
    """Writes `target_wheel`: `source_wheel` with each module.py replaced by module.pyc compiled exactly as
    `import` would compile the source (docstrings, asserts and line tables kept: the same behaviour, the same
    tracebacks), the other files unchanged but RECORD, which lists the new files and their hashes. Names in order,
    fixed times, deflate level 9. Returns the number of files compiled."""
    files: dict[str, bytes] = {}
    with zipfile.ZipFile(source_wheel) as source:
        for name in source.namelist():
            data = source.read(name)
            if name.endswith(".py"):
                code = compile(data, name, "exec", dont_inherit=True)
                data, name = (
                    MAGIC_NUMBER + UNCHECKED_HASH_FLAGS + bytes(8) + marshal.dumps(code),
                    name + "c",
                )
            files[name] = data
    records = [name for name in files if name.endswith(".dist-info/RECORD")]
    if len(records) != 1:
        raise ValueError(f"{source_wheel} has {len(records)} RECORD files, not 1")
    lines = [
        f"{name},{_record_hash(data)},{len(data)}"
        for name, data in files.items()
        if name != records[0]
    ]
    files[records[0]] = "".join(f"{line}\n" for line in [*lines, f"{records[0]},,"]).encode()
    with zipfile.ZipFile(target_wheel, "w") as target:
        for name in sorted(files):
            info = zipfile.ZipInfo(name, date_time=ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            target.writestr(info, files[name], compresslevel=9)
    return sum(name.endswith(".pyc") for name in files)
