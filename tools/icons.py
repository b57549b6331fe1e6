"""The app icons (a playing card with a red diamond on the table's green), drawn as PNG with the stdlib.

    python tools/icons.py OUT_DIR      writes the files ICONS names into OUT_DIR

build.py's `icons` step calls icon_files(); web/manifest.webmanifest lists the same names.
Shapes are anti-aliased from signed distances (one sample per pixel), so a 512 px icon takes
a fraction of a second. "any" icons are a rounded green tile; "maskable" icons fill the whole
square and keep the card inside the central safe circle (radius 40 % of the size).
"""

from __future__ import annotations

import math
import struct
import sys
import zlib
from pathlib import Path

TABLE = (0x0D, 0x4A, 0x2F)  # the page's theme colour
CARD = (0xFF, 0xFD, 0xF7)
EDGE = (0xC9, 0xA2, 0x4B)
DIAMOND = (0xB3, 0x12, 0x2A)

# name -> (size in px, purpose)
ICONS = {
    "icons/icon-192.png": (192, "any"),
    "icons/icon-512.png": (512, "any"),
    "icons/icon-maskable-192.png": (192, "maskable"),
    "icons/icon-maskable-512.png": (512, "maskable"),
}


def png(width: int, height: int, rows: list[bytes]) -> bytes:
    """An 8-bit RGBA PNG from rows of width*4 bytes."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    raw = b"".join(b"\x00" + row for row in rows)  # filter type 0 on every row
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw, 9))
        + chunk(b"IEND", b"")
    )


def rounded_box(x: float, y: float, half_w: float, half_h: float, radius: float) -> float:
    """Signed distance from (x, y) to a rounded rectangle centred on the origin (< 0 inside)."""
    qx = abs(x) - half_w + radius
    qy = abs(y) - half_h + radius
    outside = math.hypot(max(qx, 0.0), max(qy, 0.0))
    return outside + min(max(qx, qy), 0.0) - radius


def rhombus(x: float, y: float, half_w: float, half_h: float) -> float:
    """Approximate signed distance to a diamond (exact on its edges, which is what shows)."""
    return (
        (abs(x) / half_w + abs(y) / half_h - 1.0) * (half_w * half_h) / math.hypot(half_w, half_h)
    )


def coverage(distance: float) -> float:
    return min(1.0, max(0.0, 0.5 - distance))


def over(base: tuple[float, ...], colour: tuple[int, int, int], alpha: float) -> tuple[float, ...]:
    """`colour` at `alpha` over the premultiplied RGBA `base`."""
    r, g, b, a = base
    return (
        colour[0] * alpha + r * (1 - alpha),
        colour[1] * alpha + g * (1 - alpha),
        colour[2] * alpha + b * (1 - alpha),
        alpha + a * (1 - alpha),
    )


def draw(size: int, purpose: str) -> bytes:
    s = float(size)
    card_w, card_h = 0.21 * s, 0.28 * s  # half sizes: corners stay within 0.35 s of the centre
    if purpose == "any":
        card_w, card_h = 0.27 * s, 0.36 * s
    edge = max(1.0, 0.012 * s)
    rows = []
    for py in range(size):
        y = py + 0.5 - s / 2
        row = bytearray()
        for px in range(size):
            x = px + 0.5 - s / 2
            pixel: tuple[float, ...] = (0.0, 0.0, 0.0, 0.0)
            if purpose == "maskable":
                pixel = (*TABLE, 1.0)
            else:
                pixel = over(pixel, TABLE, coverage(rounded_box(x, y, s / 2, s / 2, 0.22 * s)))
            card = rounded_box(x, y, card_w, card_h, 0.09 * s)
            pixel = over(pixel, EDGE, coverage(card))
            pixel = over(pixel, CARD, coverage(card + edge))
            pixel = over(pixel, DIAMOND, coverage(rhombus(x, y, 0.62 * card_w, 0.62 * card_h)))
            r, g, b, a = pixel
            if a > 0:
                row += bytes((round(r / a), round(g / a), round(b / a), round(a * 255)))
            else:
                row += b"\x00\x00\x00\x00"
        rows.append(bytes(row))
    return png(size, size, rows)


def icon_files() -> dict[str, bytes]:
    """dist-relative name -> PNG bytes, for every icon the manifest lists."""
    return {name: draw(size, purpose) for name, (size, purpose) in ICONS.items()}


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    out = Path(argv[0])
    for name, data in icon_files().items():
        target = out / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
        print(f"{target} ({len(data)} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
