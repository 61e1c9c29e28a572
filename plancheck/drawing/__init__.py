"""Pictures as data: shapes on a canvas (:mod:`.shapes`), written as SVG natively (:mod:`.svg`) or as
PNG and animated GIF with Pillow, the optional extra ``render`` (:mod:`.raster`); charts (:mod:`.chart`)
and the self-contained HTML report (:mod:`.html`).

World-agnostic: a world draws its instances and answers with these shapes (its ``render.py``);
nothing here knows a world. SVG needs no dependency; PNG and GIF need Pillow.
"""
