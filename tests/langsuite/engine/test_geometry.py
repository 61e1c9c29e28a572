"""The native geometry: LangSuitE's numbers, and agreement with shapely (when installed) on random cases."""

from __future__ import annotations

import random
from math import floor

import pytest

from plancheck.domains.langsuite.engine import geometry as g
from plancheck.domains.langsuite.engine.agent import AgentConfig, Pose
from plancheck.domains.langsuite.engine.observe import FRONT, LEFT, RIGHT, sides
from plancheck.domains.langsuite.engine.scene import Names, Room, Scene, Thing


def test_angle_of_view_and_the_printed_degree():
    assert abs(g.angle_of_view() - 121.8907918018) < 1e-9
    assert floor(g.angle_of_view() / 2) == 60 == AgentConfig().degree


def test_turns_are_exact_and_yaw_turns_clockwise():
    pose = Pose.start(0.0, 0.0, 90)
    assert (pose.vx, pose.vy) == (1.0, 0.0)  # yaw 90 faces +x ("east")
    assert (pose.turned(90).vx, pose.turned(90).vy) == (0.0, -1.0)  # right turn: clockwise
    thirty = Pose.start(0.0, 0.0, 30)
    assert (thirty.vx, thirty.vy) == (0.49999999999999994, 0.8660254037844387)
    back = thirty.turned(90).turned(90).turned(90).turned(90)
    assert (back.vx, back.vy) == (thirty.vx, thirty.vy)  # cos 90 is set to 0: no drift


def test_moving_accumulates_rounding_as_langsuite():
    pose = Pose.start(-0.25, -1.5, 330)
    x, y = pose.x, pose.y
    for _ in range(3):
        x, y = x + pose.vx * 0.25, y + pose.vy * 0.25
    p = pose
    for _ in range(3):
        p = p.moved_to(*p.ahead(0.25))
    assert (p.x, p.y) == (x, y)


def _scene(rects: dict[str, g.Rect]) -> Scene:
    nodes = {i: Thing(oid, oid.split("|")[0], oid.split("|")[0], "", r, g.centroid(r)) for i, (oid, r) in
             enumerate(rects.items())}
    return Scene(nodes, tuple(nodes), Room(((-9.0, -9.0), (-9.0, 9.0), (9.0, 9.0), (9.0, -9.0))),
                 Names({o: o.lower() for o in rects}, {}))


def test_the_side_lines_cross_so_far_left_is_right():
    """The facts' two examples: left at (-1, 0.5) is "left", but (-1.2, 1.8) is "right"."""
    near = g.rect_from_center(-1.0, 0.5, 0.1, 0.1)
    far = g.rect_from_center(-1.2, 1.8, 0.1, 0.1)
    ahead = g.rect_from_center(0.0, 1.0, 0.1, 0.1)
    scene = _scene({"Near|1": near, "Far|1": far, "Ahead|1": ahead})
    groups = sides(scene, Pose(0.0, 0.0), AgentConfig(), scene.nodes)
    assert groups == {FRONT: [2], LEFT: [0], RIGHT: [1]}


def test_sector_reaches_its_radius_and_half_angle():
    cone = g.Sector(0.0, 0.0, 0.0, 1.0, 2.0, g.angle_of_view())
    assert cone.hits(g.rect_from_center(0.0, 1.95, 0.02, 0.02))
    assert not cone.hits(g.rect_from_center(0.0, 2.05, 0.02, 0.02))
    assert not cone.hits(g.rect_from_center(0.0, -0.5, 0.2, 0.2))  # behind
    assert cone.hits(g.rect_from_center(1.5, 0.9, 0.02, 0.02))  # 59 degrees off the heading
    assert not cone.hits(g.rect_from_center(1.6, 0.8, 0.02, 0.02))  # 63 degrees off


shapely = pytest.importorskip("shapely")


def _shapely_cone(cx, cy, vx, vy, r):
    from shapely import LineString, MultiLineString, Point
    from shapely.affinity import rotate
    aov = g.angle_of_view()
    px, py = cx + vx * r * 10, cy + vy * r * 10
    left = rotate(Point(px, py), -(aov / 2), (cx, cy))
    right = rotate(Point(px, py), aov / 2, (cx, cy))
    return Point(cx, cy).buffer(r).intersection(
        MultiLineString([LineString([(cx, cy), left]), LineString([(cx, cy), right])]).convex_hull)


def _box(rect):
    from shapely import Polygon
    x0, y0, x1, y1 = rect
    return Polygon([(x0, y0), (x0, y1), (x1, y1), (x1, y0)])


def test_sector_agrees_with_shapely_on_random_boxes():
    rng = random.Random(5)
    checked = hits = 0
    for _ in range(400):
        cx, cy = rng.uniform(-3, 3), rng.uniform(-3, 3)
        pose = Pose.start(cx, cy, rng.choice(range(0, 360, 30)))
        r = rng.choice([2.0, 5.0])
        cone = _shapely_cone(cx, cy, pose.vx, pose.vy, r)
        ours = g.Sector(cx, cy, pose.vx, pose.vy, r, g.angle_of_view())
        for _ in range(25):
            # half the boxes straddle the arc, where the 64-gon and the circle differ
            dist = rng.uniform(r - 0.05, r + 0.05) if rng.random() < 0.5 else rng.uniform(0, r + 1)
            ang = rng.uniform(0, 6.2832)
            from math import cos, sin
            x, y = cx + dist * cos(ang), cy + dist * sin(ang)
            w, h = rng.uniform(0.001, 0.6), rng.uniform(0.001, 0.6)
            rect = (x - w / 2, y - h / 2, x + w / 2, y + h / 2)
            expected = cone.intersects(_box(rect))
            assert ours.hits(rect) == expected, (cx, cy, pose, r, rect)
            checked += 1
            hits += expected
    assert checked == 10000 and 1000 < hits < 9000


def test_circle_vertices_and_centroids_are_shapely_s_bits():
    from shapely import Point
    rng = random.Random(6)
    for _ in range(100):
        cx, cy, r = rng.uniform(-5, 5), rng.uniform(-5, 5), rng.choice([1.0, 2.0, 5.0])
        vertices = set(Point(cx, cy).buffer(r).exterior.coords)
        ours = g.Sector(cx, cy, 0.0, 1.0, r, g.angle_of_view())._circle_planes()
        assert {p for p, _ in ours} == vertices
        rect = g.rect_from_center(cx, cy, rng.uniform(0.01, 3), rng.uniform(0.01, 3))
        c = _box(rect).centroid
        assert g.centroid(rect) == (c.x, c.y)


def test_distances_and_crossings_are_shapely_s_bits():
    from shapely import LineString, Polygon
    from shapely.affinity import rotate
    from shapely.geometry import Point
    rng = random.Random(7)
    for _ in range(5000):
        x, y, w, h = rng.uniform(-2, 2), rng.uniform(-2, 2), rng.uniform(0.02, 1.5), rng.uniform(0.02, 1.5)
        a = (rng.uniform(-3, 3), rng.uniform(-3, 3))
        b = (a[0] + rng.uniform(-2, 2), a[1] + rng.uniform(-2, 2))
        rect, line = (x, y, x + w, y + h), LineString([a, b])
        assert g.rect_segment_distance(rect, a, b) == _box(rect).distance(line)
        p, q = (rng.uniform(-3, 3), rng.uniform(-3, 3)), (rng.uniform(-3, 3), rng.uniform(-3, 3))
        wall = Polygon([p, q, q, p])  # LangSuitE's wall: a degenerate polygon
        assert g.segments_meet(a, b, p, q) == wall.intersects(line)
        angle = rng.choice([30, -60.94539590091, 60.94539590091, 90, 45])
        turned = rotate(line, angle, origin="center")
        assert g.rotate_segment(a, b, angle) == tuple(turned.coords)
        pt = rotate(Point(*a), angle, b)
        assert g.rotate_point(a[0], a[1], angle, *b) == (pt.x, pt.y)
