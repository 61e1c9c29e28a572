"""Write a :class:`~.shapes.Picture` to a file whose suffix says the format: .svg, .png or .gif."""

from __future__ import annotations

from pathlib import Path

from plancheck.drawing.shapes import Picture
from plancheck.drawing.svg import to_svg
from plancheck.errors import BadInputError

FORMATS = (".svg", ".png", ".gif")


def picture_format(path: Path) -> str:
    """The format a file name asks for (its suffix, lower case), or BadInputError naming the ones there are.

    >>> picture_format(Path("grid.PNG")), picture_format(Path("-"))
    ('.png', '.svg')
    """
    if str(path) == "-":
        return ".svg"
    suffix = path.suffix.lower()
    if suffix not in FORMATS:
        raise BadInputError(f"{path}: a picture is written as {', '.join(FORMATS)} (the file name's suffix says which)",
                            option="output")
    return suffix


def picture_bytes(picture: Picture, suffix: str) -> bytes:
    """The file's bytes: the still as SVG or PNG, or the frames as an animated GIF (the still alone when
    the world draws no animation)."""
    if suffix == ".svg":
        return (to_svg(picture.still) + "\n").encode("utf-8", "backslashreplace")  # a lone surrogate: its escape
    from plancheck.drawing.raster import gif_bytes, png_bytes

    if suffix == ".png":
        return png_bytes(picture.still)
    return gif_bytes(picture.frames or (picture.still,), picture.frame_ms)


def save(picture: Picture, path: Path) -> None:
    """Write ``picture`` to ``path`` in the format its suffix names."""
    data = picture_bytes(picture, picture_format(path))
    path.write_bytes(data)
