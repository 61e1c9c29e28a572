"""A :class:`~.shapes.Drawing` as pixels with Pillow (the optional extra ``render``): PNG and animated GIF.

Shapes are drawn at twice the size and scaled down, so lines and text come out smooth; the inside of a
filled shape keeps its exact colour (tests read colours there).
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from functools import cache
from typing import Any

from plancheck.drawing.shapes import Circle, Drawing, Line, Point, Polygon, Raster, Rect, Text
from plancheck.errors import MissingExtraError

SUPERSAMPLE = 2
_ANCHORS = {"start": "lm", "middle": "mm", "end": "rm"}


def pillow() -> Any:
    """Pillow's ``PIL`` package, or :class:`MissingExtraError` naming the extra that installs it."""
    try:
        import PIL.Image  # noqa: F401
        import PIL.ImageDraw  # noqa: F401
        import PIL.ImageFont  # noqa: F401
    except ImportError:
        raise MissingExtraError("PNG and GIF pictures need Pillow, which is not installed: "
                                "pip install 'plancheck[render]' (or write .svg, which needs nothing)") from None
    import PIL

    return PIL


@cache
def _font(size: int, bold: bool) -> Any:
    font = pillow().ImageFont
    for name in (("DejaVuSans-Bold.ttf",) if bold else ()) + ("DejaVuSans.ttf",):
        try:
            return font.truetype(name, size)
        except OSError:
            continue
    return font.load_default(size=size)


def _dashed(points: Sequence[Point], on: float, off: float) -> list[tuple[Point, Point]]:
    """The visible pieces of a dashed polyline."""
    pieces: list[tuple[Point, Point]] = []
    drawing, left = True, on
    for (x0, y0), (x1, y1) in zip(points, points[1:]):
        length = math.hypot(x1 - x0, y1 - y0)
        done = 0.0
        while length - done > 1e-9:
            step = min(left, length - done)
            a, b = done / length, (done + step) / length
            if drawing:
                pieces.append(((x0 + (x1 - x0) * a, y0 + (y1 - y0) * a), (x0 + (x1 - x0) * b, y0 + (y1 - y0) * b)))
            done += step
            left -= step
            if left <= 1e-9:
                drawing = not drawing
                left = on if drawing else off
    return pieces


def to_image(drawing: Drawing) -> Any:
    """``drawing`` as a Pillow RGB image of its size."""
    pil = pillow()
    s = SUPERSAMPLE
    width, height = max(1, math.ceil(drawing.width)), max(1, math.ceil(drawing.height))
    image = pil.Image.new("RGB", (width * s, height * s), drawing.background)
    pen = pil.ImageDraw.Draw(image)

    def xy(points: Sequence[Point]) -> list[tuple[float, float]]:
        return [(x * s, y * s) for x, y in points]

    for shape in drawing.shapes:
        if isinstance(shape, Rect):
            box = (shape.x * s, shape.y * s, (shape.x + shape.w) * s - 1, (shape.y + shape.h) * s - 1)
            outline = shape.stroke
            pen.rounded_rectangle(box, radius=shape.radius * s, fill=shape.fill, outline=outline,
                                  width=max(1, round(shape.width * s)) if outline else 0)
        elif isinstance(shape, Circle):
            box = ((shape.x - shape.r) * s, (shape.y - shape.r) * s, (shape.x + shape.r) * s, (shape.y + shape.r) * s)
            pen.ellipse(box, fill=shape.fill, outline=shape.stroke,
                        width=max(1, round(shape.width * s)) if shape.stroke else 0)
        elif isinstance(shape, Line):
            thick = max(1, round(shape.width * s))
            pieces = _dashed(shape.points, shape.dash[0], shape.dash[1]) if shape.dash else [tuple(shape.points)]
            for piece in pieces:
                if len(piece) == 1:
                    piece = (piece[0], piece[0])
                pen.line(xy(piece), fill=shape.stroke, width=thick, joint="curve")
                for x, y in xy((piece[0], piece[-1])):  # round caps, as SVG draws them
                    pen.ellipse((x - thick / 2, y - thick / 2, x + thick / 2, y + thick / 2), fill=shape.stroke)
        elif isinstance(shape, Polygon):
            pen.polygon(xy(shape.points), fill=shape.fill, outline=shape.stroke,
                        width=max(1, round(shape.width * s)) if shape.stroke else 0)
        elif isinstance(shape, Text):
            pen.text((shape.x * s, shape.y * s), shape.text, fill=shape.fill, anchor=_ANCHORS[shape.anchor],
                     font=_font(round(shape.size * s), shape.bold))
        elif isinstance(shape, Raster):
            tile = pil.Image.frombytes("RGB", (shape.columns, shape.rows), shape.pixels)
            size = (max(1, round(shape.w * s)), max(1, round(shape.h * s)))
            image.paste(tile.resize(size, pil.Image.Resampling.NEAREST), (round(shape.x * s), round(shape.y * s)))
    return image.resize((width, height), pil.Image.Resampling.LANCZOS)


def png_bytes(drawing: Drawing) -> bytes:
    out = io.BytesIO()
    to_image(drawing).save(out, format="PNG")
    return out.getvalue()


def gif_bytes(frames: Sequence[Drawing], frame_ms: int) -> bytes:
    """An animated GIF that loops over ``frames`` (all drawn at the first frame's size)."""
    images = [to_image(frame) for frame in frames]
    size = images[0].size
    images = [image if image.size == size else image.resize(size) for image in images]
    out = io.BytesIO()
    images[0].save(out, format="GIF", save_all=True, append_images=images[1:], duration=frame_ms, loop=0)
    return out.getvalue()
