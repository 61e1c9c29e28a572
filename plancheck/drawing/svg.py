"""A :class:`~.shapes.Drawing` as SVG text, written natively (no dependency).

Each shape's ``role`` becomes its ``class`` and its ``title`` a ``<title>`` child (a tooltip).
Rasters are embedded as PNG data URIs, so the file stands alone.

>>> from plancheck.drawing.shapes import Canvas
>>> canvas = Canvas(30, 20)
>>> canvas.circle(10, 10, 5, fill="#0072b2", role="path", title="step 1")
>>> print(*to_svg(canvas.drawing()).splitlines()[1:], sep=chr(10))
<rect width="100%" height="100%" fill="#ffffff"/>
<circle cx="10" cy="10" r="5" fill="#0072b2" stroke="none" class="path"><title>step 1</title></circle>
</svg>
"""

from __future__ import annotations

import base64
from xml.sax.saxutils import escape, quoteattr

from plancheck.drawing.png import encode_png
from plancheck.drawing.shapes import Circle, Drawing, Line, Polygon, Raster, Rect, Shape, Text

FONT = "DejaVu Sans, Arial, sans-serif"
_ANCHORS = {"start": "start", "middle": "middle", "end": "end"}


def _n(value: float) -> str:
    """A coordinate with at most two decimals, no trailing zeros."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _points(points) -> str:
    return " ".join(f"{_n(x)},{_n(y)}" for x, y in points)


def _paint(fill: str | None, stroke: str | None, width: float) -> str:
    text = f' fill="{fill or "none"}" stroke="{stroke or "none"}"'
    return text + (f' stroke-width="{_n(width)}"' if stroke else "")


def _close(tag: str, attributes: str, shape: Shape) -> str:
    role = f" class={quoteattr(shape.role)}" if shape.role else ""
    if shape.title:
        return f"<{tag}{attributes}{role}><title>{escape(shape.title)}</title></{tag}>"
    return f"<{tag}{attributes}{role}/>"


def _element(shape: Shape) -> str:
    if isinstance(shape, Rect):
        corner = f' rx="{_n(shape.radius)}"' if shape.radius else ""
        return _close("rect", f' x="{_n(shape.x)}" y="{_n(shape.y)}" width="{_n(shape.w)}" height="{_n(shape.h)}"'
                              f"{corner}{_paint(shape.fill, shape.stroke, shape.width)}", shape)
    if isinstance(shape, Circle):
        return _close("circle", f' cx="{_n(shape.x)}" cy="{_n(shape.y)}" r="{_n(shape.r)}"'
                                f"{_paint(shape.fill, shape.stroke, shape.width)}", shape)
    if isinstance(shape, Line):
        dash = f' stroke-dasharray="{_n(shape.dash[0])} {_n(shape.dash[1])}"' if shape.dash else ""
        return _close("polyline", f' points="{_points(shape.points)}" fill="none" stroke="{shape.stroke}" '
                                  f'stroke-width="{_n(shape.width)}" stroke-linecap="round" stroke-linejoin="round"'
                                  f"{dash}", shape)
    if isinstance(shape, Polygon):
        return _close("polygon", f' points="{_points(shape.points)}"'
                                 f"{_paint(shape.fill, shape.stroke, shape.width)}", shape)
    if isinstance(shape, Text):
        weight = ' font-weight="bold"' if shape.bold else ""
        role = f" class={quoteattr(shape.role)}" if shape.role else ""
        title = f"<title>{escape(shape.title)}</title>" if shape.title else ""
        return (f'<text x="{_n(shape.x)}" y="{_n(shape.y)}" font-size="{_n(shape.size)}" fill="{shape.fill}" '
                f'text-anchor="{_ANCHORS[shape.anchor]}" dominant-baseline="central"{weight}{role}>{title}'
                f"{escape(shape.text)}</text>")
    if isinstance(shape, Raster):
        data = base64.b64encode(encode_png(shape.columns, shape.rows, shape.pixels)).decode("ascii")
        return _close("image", f' x="{_n(shape.x)}" y="{_n(shape.y)}" width="{_n(shape.w)}" height="{_n(shape.h)}" '
                               f'preserveAspectRatio="none" style="image-rendering:pixelated" '
                               f'href="data:image/png;base64,{data}"', shape)
    raise TypeError(f"not a shape: {shape!r}")


def to_svg(drawing: Drawing, element_id: str | None = None) -> str:
    """The SVG document of ``drawing`` (``element_id``: an id for the root, when it is embedded in a page)."""
    ident = f" id={quoteattr(element_id)}" if element_id else ""
    width, height = _n(drawing.width), _n(drawing.height)
    head = (f'<svg xmlns="http://www.w3.org/2000/svg"{ident} width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" font-family="{FONT}">')
    body = [f'<rect width="100%" height="100%" fill="{drawing.background}"/>']
    body.extend(_element(shape) for shape in drawing.shapes)
    return "\n".join([head, *body, "</svg>"])
