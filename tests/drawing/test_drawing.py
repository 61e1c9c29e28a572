"""The drawing layer: shapes, the SVG writer, the PNG encoder, the Pillow rasteriser and the output formats."""

from __future__ import annotations

import xml.etree.ElementTree as ET
import zlib

import pytest

from plancheck.drawing.chart import Group, Series, bar_chart, line_chart
from plancheck.drawing.output import picture_bytes, picture_format, save
from plancheck.drawing.png import decode_size, encode_png
from plancheck.drawing.shapes import ANSWER, FAILURE, OPTIMUM, WHITE, Canvas, Picture, Raster, beside, stack
from plancheck.drawing.svg import to_svg
from plancheck.errors import BadInputError, MissingExtraError
from tests.drawing.pixels import at, image, near
from tests.extras import needs_pillow

SVG = "{http://www.w3.org/2000/svg}"


def _sample():
    canvas = Canvas(100, 60)
    canvas.rect(10, 10, 30, 30, fill=ANSWER, role="cell", title="a <cell> & more")
    canvas.line(((50, 10), (90, 50)), stroke=FAILURE, width=4, role="path")
    canvas.line(((50, 55), (95, 55)), stroke=OPTIMUM, width=4, dash=(6, 10), role="dashed")
    canvas.circle(70, 20, 6, fill=OPTIMUM, role="dot")
    canvas.text(10, 50, "ünïcode & <tags>", size=10)
    return canvas.drawing()


def test_svg_is_well_formed_and_names_roles_and_titles():
    root = ET.fromstring(to_svg(_sample(), element_id="pic"))
    assert root.tag == SVG + "svg" and root.get("id") == "pic" and root.get("width") == "100"
    cell = root.find(f"{SVG}rect[@class='cell']")
    assert cell.get("fill") == ANSWER and cell.find(SVG + "title").text == "a <cell> & more"
    path = root.find(f"{SVG}polyline[@class='path']")
    assert path.get("points") == "50,10 90,50" and path.get("stroke-width") == "4"
    assert root.find(f"{SVG}polyline[@class='dashed']").get("stroke-dasharray") == "6 10"
    assert [t.text for t in root.iter(SVG + "text")] == ["ünïcode & <tags>"]


def test_png_encoder_writes_what_zlib_and_the_header_say():
    pixels = bytes(range(2 * 3 * 3))
    data = encode_png(3, 2, pixels)
    assert decode_size(data) == (3, 2)
    start = data.index(b"IDAT") + 4
    length = int.from_bytes(data[start - 8:start - 4], "big")
    raw = zlib.decompress(data[start:start + length])
    assert raw == b"\x00" + pixels[:9] + b"\x00" + pixels[9:]
    with pytest.raises(ValueError):
        encode_png(3, 2, b"short")


def test_a_raster_is_embedded_as_a_png_data_uri():
    canvas = Canvas(20, 10)
    canvas.add(Raster(0, 0, 20, 10, bytes([255, 0, 0] * 2), 2, 1, role="frame"))
    element = ET.fromstring(to_svg(canvas.drawing())).find(f"{SVG}image[@class='frame']")
    assert element.get("href").startswith("data:image/png;base64,iVBOR")


def test_layouts_place_drawings_side_by_side_and_below():
    one = _sample()
    row = beside(one, one, gap=10)
    column = stack(one, one, gap=5)
    assert (row.width, row.height) == (210, 60) and (column.width, column.height) == (100, 125)
    second = row.roles("cell")[1]
    assert (second.x, second.y) == (120, 10)


def test_the_suffix_names_the_format():
    assert picture_format(__import__("pathlib").Path("a.SVG")) == ".svg"
    with pytest.raises(BadInputError, match=r"\.svg, \.png, \.gif"):
        picture_format(__import__("pathlib").Path("a.jpg"))


def test_png_without_pillow_names_the_extra(monkeypatch):
    import builtins

    real = builtins.__import__

    def without_pil(name, *args, **kwargs):
        if name == "PIL" or name.startswith("PIL."):
            raise ImportError(name)
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", without_pil)
    with pytest.raises(MissingExtraError, match=r"plancheck\[render\]"):
        picture_bytes(Picture(_sample()), ".png")
    assert picture_bytes(Picture(_sample()), ".svg").startswith(b"<svg")  # SVG needs nothing


@needs_pillow
def test_png_pixels_show_the_shapes_in_their_colours():
    picture = image(picture_bytes(Picture(_sample()), ".png"))
    assert picture.size == (100, 60)
    assert near(at(picture, 25, 25), ANSWER)  # inside the rectangle
    assert near(at(picture, 70, 30), FAILURE)  # on the thick line
    assert near(at(picture, 70, 20), OPTIMUM)  # the dot, drawn after the line
    assert near(at(picture, 5, 5), WHITE) and near(at(picture, 45, 45), WHITE)
    assert near(at(picture, 53, 55), OPTIMUM, 14) and near(at(picture, 62, 55), WHITE)  # a dash, a gap


@needs_pillow
def test_gif_frames_animate(tmp_path):
    frames = []
    for x in (10, 50):
        canvas = Canvas(80, 40)
        canvas.rect(x, 10, 20, 20, fill=ANSWER)
        frames.append(canvas.drawing())
    path = tmp_path / "a.gif"
    save(Picture(frames[0], lambda: frames, 200), path)
    from PIL import Image

    with Image.open(path) as gif:
        assert gif.n_frames == 2
        first = gif.convert("RGB").getpixel((15, 15))
        gif.seek(1)
        second = gif.convert("RGB").getpixel((15, 15))
    assert near(first, ANSWER, 24) and near(second, WHITE, 24)


def test_charts_draw_their_series_bars_and_optimum():
    chart = line_chart("p", [Series("a b", ((1, 0.2), (2, 0.9))), Series("c", ((1, 0.5),), dash=True)], "x", "y",
                       (0, 1))
    line = chart.roles("series-a-b")[0]
    assert line.points[0][1] > line.points[1][1]  # 0.9 is drawn higher than 0.2
    bars = bar_chart("t", [Group("s1", {"m1": 1.0, "m2": -1.0}, optimum=2.0, references={"random": 0.5}),
                           Group("s2", {"m1": None, "m2": 0.5})], "score")
    assert len(bars.roles("bar")) == 3 and len(bars.roles("optimum")) == 1 and len(bars.roles("reference")) == 1
    positive, negative = bars.roles("bar")[:2]
    assert negative.x < positive.x  # a negative bar runs left of zero
    assert "n = " not in positive.title and "s1, m1: 1.00" in positive.title
