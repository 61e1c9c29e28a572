"""Reading a picture's pixels in tests: a PNG (through Pillow) and colours compared with a small tolerance."""

from __future__ import annotations

import io


def image(data: bytes):
    """The RGB image of PNG or GIF bytes."""
    from PIL import Image

    return Image.open(io.BytesIO(data)).convert("RGB")


def rgb(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def near(pixel: tuple[int, ...], colour: str, tolerance: int = 8) -> bool:
    """``pixel`` is ``colour`` (``#rrggbb``) within ``tolerance`` per channel."""
    return all(abs(a - b) <= tolerance for a, b in zip(pixel[:3], rgb(colour)))


def at(picture, x: float, y: float) -> tuple[int, int, int]:
    return picture.getpixel((round(x), round(y)))
