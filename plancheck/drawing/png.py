"""A minimal PNG encoder (RGB, 8 bits, no filter): enough to embed a raster in an SVG without Pillow.

>>> data = encode_png(2, 1, bytes([255, 0, 0, 0, 0, 255]))
>>> data[:8] == b"\\x89PNG\\r\\n\\x1a\\n", decode_size(data)
(True, (2, 1))
"""

from __future__ import annotations

import struct
import zlib


def _chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)


def encode_png(columns: int, rows: int, pixels: bytes) -> bytes:
    """The PNG file of an RGB image given as row-major bytes (3 per pixel)."""
    stride = 3 * columns
    if len(pixels) != stride * rows:
        raise ValueError(f"expected {stride * rows} bytes for {columns}x{rows} RGB pixels, got {len(pixels)}")
    raw = b"".join(b"\x00" + pixels[row * stride:(row + 1) * stride] for row in range(rows))
    header = struct.pack(">IIBBBBB", columns, rows, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header) + _chunk(b"IDAT", zlib.compress(raw, 6)) + \
        _chunk(b"IEND", b"")


def decode_size(data: bytes) -> tuple[int, int]:
    """(width, height) of a PNG file, from its header."""
    if data[:8] != b"\x89PNG\r\n\x1a\n" or data[12:16] != b"IHDR":
        raise ValueError("not a PNG file")
    return struct.unpack(">II", data[16:24])
