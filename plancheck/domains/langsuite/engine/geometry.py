"""Plane geometry of LangSuitE's engine, computed natively the way its shapely calls compute it.

LangSuitE (``dev:langsuite/shapes.py``) keeps every shape as a shapely geometry. The engine needs
only a few operations, written here without shapely and with the same floating-point formulas
where the result is a number that can matter bit for bit:

* rotations (``shapely.affinity.rotate``: degrees to radians as ``angle * pi / 180``, cosines and
  sines below 2.5e-16 set to zero, ``x' = a*x + b*y + xoff``), so headings after turns and the
  left/right lines are the same floats;
* the centroid of a rectangle as GEOS computes a polygon centroid (area-weighted triangles from
  the first vertex), which is an object's ``position``;
* the view sector: a 64-gon (``Point.buffer(r)``, 16 segments a quadrant) clipped by the triangle
  between the heading rotated by -aov/2 and +aov/2 (rays ten times the radius);
* closed-set intersection tests (touching counts) and GEOS's segment distances.

Rectangles are axis-aligned: ``(xmin, ymin, xmax, ymax)`` with the plane's y the world's z.
Intersection predicates agree with shapely except within rounding of a boundary (the tests check
both on many random cases).
"""

from __future__ import annotations

from math import atan, cos, degrees, pi, sin, sqrt

Rect = tuple[float, float, float, float]
Point = tuple[float, float]

FOCAL_LENGTH = 10.0
CIRCLE_SEGMENTS = 64  # GEOS buffer of a point with the default 16 segments per quadrant
_COS_IN = cos(pi / CIRCLE_SEGMENTS)  # the 64-gon contains the disc of radius r * _COS_IN


def angle_of_view(focal_length: float = FOCAL_LENGTH, h_dim: float = 36) -> float:
    """LangSuitE's horizontal angle of view in degrees (121.89... for its focal length 10)."""
    if focal_length == 0:
        return 180
    return degrees(2 * atan(h_dim / 2.0 / focal_length))


def _rotation(angle: float) -> tuple[float, float]:
    """cos and sin of ``angle`` degrees as shapely computes them (tiny values set to zero)."""
    angle = angle * pi / 180.0
    cosp, sinp = cos(angle), sin(angle)
    if abs(cosp) < 2.5e-16:
        cosp = 0.0
    if abs(sinp) < 2.5e-16:
        sinp = 0.0
    return cosp, sinp


def rotate_point(x: float, y: float, angle: float, x0: float, y0: float) -> Point:
    """``shapely.affinity.rotate(Point(x, y), angle, (x0, y0))``: counter-clockwise for positive degrees."""
    cosp, sinp = _rotation(angle)
    xoff = x0 - x0 * cosp + y0 * sinp
    yoff = y0 - x0 * sinp - y0 * cosp
    return cosp * x + -sinp * y + xoff, sinp * x + cosp * y + yoff


def rotate_segment(a: Point, b: Point, angle: float) -> tuple[Point, Point]:
    """A segment rotated about the centre of its bounding box (``Line2D.rotate``, origin 'center')."""
    x0 = (max(a[0], b[0]) + min(a[0], b[0])) / 2.0
    y0 = (max(a[1], b[1]) + min(a[1], b[1])) / 2.0
    return rotate_point(a[0], a[1], angle, x0, y0), rotate_point(b[0], b[1], angle, x0, y0)


def rect_from_center(cx: float, cy: float, sx: float, sy: float) -> Rect:
    """LangSuitE's object box from an AABB centre and size (``center - 1/2 * size``; a zero size becomes 0.1)."""
    if sx == 0:
        sx = 0.1
    if sy == 0:
        sy = 0.1
    return cx - (1 / 2) * sx, cy - (1 / 2) * sy, cx + (1 / 2) * sx, cy + (1 / 2) * sy


def translate(rect: Rect, dx: float, dy: float) -> Rect:
    return rect[0] + dx, rect[1] + dy, rect[2] + dx, rect[3] + dy


def centroid(rect: Rect) -> Point:
    """GEOS's centroid of the ring (xmin,ymin) (xmin,ymax) (xmax,ymax) (xmax,ymin), LangSuitE's vertex order."""
    x0, y0, x1, y1 = rect
    ring = ((x0, y0), (x0, y1), (x1, y1), (x1, y0), (x0, y0))
    bx, by = ring[0]
    area = 0.0
    for i in range(4):
        px, py = ring[i]
        qx, qy = ring[i + 1]
        area += (px - bx) * (qy - by) - (qx - bx) * (py - by)
    sign = 1.0 if area < 0 else -1.0  # GEOS: positive area for a clockwise shell
    cgx = cgy = areasum = 0.0
    for i in range(4):
        px, py = ring[i]
        qx, qy = ring[i + 1]
        a2 = (px - bx) * (qy - by) - (qx - bx) * (py - by)
        cgx += sign * a2 * (bx + px + qx)
        cgy += sign * a2 * (by + py + qy)
        areasum += sign * a2
    if areasum == 0:
        return (x0 + x1) / 2, (y0 + y1) / 2
    return cgx / 3 / areasum, cgy / 3 / areasum


def segment_hits_rect(a: Point, b: Point, rect: Rect) -> bool:
    """Whether the closed segment ab meets the closed rectangle (touching counts)."""
    x0, y0, x1, y1 = rect
    ax, ay = a
    bx, by = b
    if max(ax, bx) < x0 or min(ax, bx) > x1 or max(ay, by) < y0 or min(ay, by) > y1:
        return False
    dx, dy = bx - ax, by - ay
    c1 = dx * (y0 - ay) - dy * (x0 - ax)
    c2 = dx * (y1 - ay) - dy * (x0 - ax)
    c3 = dx * (y1 - ay) - dy * (x1 - ax)
    c4 = dx * (y0 - ay) - dy * (x1 - ax)
    return not ((c1 > 0 and c2 > 0 and c3 > 0 and c4 > 0) or (c1 < 0 and c2 < 0 and c3 < 0 and c4 < 0))


def segments_meet(a: Point, b: Point, c: Point, d: Point) -> bool:
    """Whether two closed segments share a point (a wall is a segment)."""
    if max(a[0], b[0]) < min(c[0], d[0]) or max(c[0], d[0]) < min(a[0], b[0]):
        return False
    if max(a[1], b[1]) < min(c[1], d[1]) or max(c[1], d[1]) < min(a[1], b[1]):
        return False
    d1 = _cross(c, d, a)
    d2 = _cross(c, d, b)
    d3 = _cross(a, b, c)
    d4 = _cross(a, b, d)
    if ((d1 > 0 and d2 > 0) or (d1 < 0 and d2 < 0)) or ((d3 > 0 and d4 > 0) or (d3 < 0 and d4 < 0)):
        return False
    return True


def _cross(o: Point, p: Point, q: Point) -> float:
    return (p[0] - o[0]) * (q[1] - o[1]) - (p[1] - o[1]) * (q[0] - o[0])


def point_to_segment(p: Point, a: Point, b: Point) -> float:
    """GEOS ``Distance::pointToSegment``."""
    if a[0] == b[0] and a[1] == b[1]:
        return sqrt((p[0] - a[0]) ** 2 + (p[1] - a[1]) ** 2)
    ex, ey = b[0] - a[0], b[1] - a[1]
    len2 = ex * ex + ey * ey
    r = ((p[0] - a[0]) * ex + (p[1] - a[1]) * ey) / len2
    if r <= 0.0:
        return sqrt((p[0] - a[0]) * (p[0] - a[0]) + (p[1] - a[1]) * (p[1] - a[1]))
    if r >= 1.0:
        return sqrt((p[0] - b[0]) * (p[0] - b[0]) + (p[1] - b[1]) * (p[1] - b[1]))
    s = ((a[1] - p[1]) * ex - (a[0] - p[0]) * ey) / len2
    return abs(s) * sqrt(len2)


def rect_segment_distance(rect: Rect, a: Point, b: Point) -> float:
    """The distance between a closed rectangle and a segment (0 when they meet), as GEOS computes it.

    Apart from meeting, the minimum of GEOS's segment-to-segment distances over the rectangle's
    edges is attained at a segment end or a rectangle corner, which is what is computed here.
    """
    if segment_hits_rect(a, b, rect):
        return 0.0
    x0, y0, x1, y1 = rect
    best = min(point_to_segment(a, (x0, y0), (x0, y1)), point_to_segment(a, (x0, y1), (x1, y1)),
               point_to_segment(a, (x1, y1), (x1, y0)), point_to_segment(a, (x1, y0), (x0, y0)),
               point_to_segment(b, (x0, y0), (x0, y1)), point_to_segment(b, (x0, y1), (x1, y1)),
               point_to_segment(b, (x1, y1), (x1, y0)), point_to_segment(b, (x1, y0), (x0, y0)))
    for corner in ((x0, y0), (x0, y1), (x1, y1), (x1, y0)):
        best = min(best, point_to_segment(corner, a, b))
    return best


class Lines:
    """Segments to classify boxes against (the front, left and right lines), with a fast distance.

    :meth:`nearest` gives the index of the nearest segment (ties: the lower index), computing
    distances the quick way and falling back to GEOS's formulas when the two best are within 1e-9.
    """

    __slots__ = ("segments", "_pre")

    def __init__(self, segments: tuple[tuple[Point, Point], ...]):
        self.segments = segments
        pre = []
        for (ax, ay), (bx, by) in segments:
            ex, ey = bx - ax, by - ay
            pre.append((ax, ay, bx, by, ex, ey, ex * ex + ey * ey, min(ax, bx), max(ax, bx), min(ay, by),
                        max(ay, by)))
        self._pre = tuple(pre)

    def nearest(self, rect: Rect) -> int:
        x0, y0, x1, y1 = rect
        squares = []
        for ax, ay, bx, by, ex, ey, len2, lox, hix, loy, hiy in self._pre:
            u0, u1, v0, v1 = x0 - ax, x1 - ax, y0 - ay, y1 - ay
            if not (hix < x0 or lox > x1 or hiy < y0 or loy > y1):
                c1 = ex * v0 - ey * u0
                c2 = ex * v1 - ey * u0
                c3 = ex * v1 - ey * u1
                c4 = ex * v0 - ey * u1
                if not ((c1 > 0 and c2 > 0 and c3 > 0 and c4 > 0) or (c1 < 0 and c2 < 0 and c3 < 0 and c4 < 0)):
                    if not squares:
                        return 0
                    squares.append(0.0)
                    continue
            dx = u0 if u0 > 0 else (-u1 if u1 < 0 else 0.0)
            dy = v0 if v0 > 0 else (-v1 if v1 < 0 else 0.0)
            best = dx * dx + dy * dy
            dx = x0 - bx if bx < x0 else (bx - x1 if bx > x1 else 0.0)
            dy = y0 - by if by < y0 else (by - y1 if by > y1 else 0.0)
            d = dx * dx + dy * dy
            if d < best:
                best = d
            for cu, cv in ((u0, v0), (u0, v1), (u1, v1), (u1, v0)):
                t = (cu * ex + cv * ey) / len2
                if t <= 0.0:
                    d = cu * cu + cv * cv
                elif t >= 1.0:
                    pu, pv = cu - ex, cv - ey
                    d = pu * pu + pv * pv
                else:
                    pu, pv = cu - t * ex, cv - t * ey
                    d = pu * pu + pv * pv
                if d < best:
                    best = d
            squares.append(best)
        first = min(range(len(squares)), key=squares.__getitem__)
        rest = [sqrt(q) for i, q in enumerate(squares) if i != first]
        if rest and min(rest) - sqrt(squares[first]) <= 1e-9:
            exact = [rect_segment_distance(rect, *seg) for seg in self.segments]
            return min(range(len(exact)), key=exact.__getitem__)
        return first


class Sector:
    """LangSuitE's view cone (``Cone2D``): the 64-gon of radius ``radius`` cut by the view triangle."""

    __slots__ = ("cx", "cy", "radius", "_planes", "_circle", "_sides", "_inner2")

    def __init__(self, cx: float, cy: float, vx: float, vy: float, radius: float, angle: float):
        self.cx, self.cy, self.radius = cx, cy, radius
        px, py = cx + vx * radius * 10, cy + vy * radius * 10  # the rays are ten times the radius
        left = rotate_point(px, py, -(angle / 2), cx, cy)
        right = rotate_point(px, py, angle / 2, cx, cy)
        tri = [(cx, cy), left, right]
        if _cross(tri[0], tri[1], tri[2]) < 0:
            tri = [tri[0], tri[2], tri[1]]
        self._planes = tuple((tri[i], tri[(i + 1) % 3]) for i in range(3))
        self._circle: tuple[tuple[Point, Point], ...] | None = None
        # the two sides through the apex, as (origin, direction): inside is to their left
        (ax, ay), (bx, by) = tri[1], tri[2]
        self._sides = ((cx, cy, ax - cx, ay - cy), (bx, by, cx - bx, cy - by))
        self._inner2 = (radius * _COS_IN * 0.9999999) ** 2

    def _circle_planes(self) -> tuple[tuple[Point, Point], ...]:
        if self._circle is None:
            step = (2.0 * pi) / CIRCLE_SEGMENTS
            points = [(self.cx + self.radius, self.cy)]
            for i in range(1, CIRCLE_SEGMENTS):
                angle = 0.0 + (-i) * step
                c, s = cos(angle), sin(angle)
                c, s = (0.0 if abs(c) < 5e-16 else c), (0.0 if abs(s) < 5e-16 else s)  # GEOS sinCosSnap
                points.append((self.cx + self.radius * c, self.cy + self.radius * s))
            points.reverse()  # counter-clockwise
            points.insert(0, points.pop())
            self._circle = tuple((points[i], points[(i + 1) % len(points)]) for i in range(len(points)))
        return self._circle

    def hits(self, rect: Rect) -> bool:
        """Whether the sector and the closed rectangle share a point (``cone.intersects(box)``)."""
        x0, y0, x1, y1 = rect
        cx, cy, r = self.cx, self.cy, self.radius
        dx = x0 - cx if cx < x0 else (cx - x1 if cx > x1 else 0.0)
        dy = y0 - cy if cy < y0 else (cy - y1 if cy > y1 else 0.0)
        near2 = dx * dx + dy * dy
        if near2 > r * r * 1.0000001:
            return False
        if near2 == 0.0:
            return True  # the apex lies in the box
        corners = ((x0, y0), (x1, y0), (x1, y1), (x0, y1))
        qx, qy = cx + (dx if cx < x0 else -dx if cx > x1 else 0.0), cy + (dy if cy < y0 else -dy if cy > y1 else 0.0)
        inside = True
        for ox, oy, ex, ey in self._sides:
            if all(ex * (py - oy) - ey * (px - ox) < 0 for px, py in corners):
                return False  # the box lies wholly outside one side of the cone
            if ex * (qy - oy) - ey * (qx - ox) <= 1e-12:
                inside = False
        if inside and near2 < self._inner2:
            return True  # the box's nearest point lies well inside the cone
        poly = _clip([(x0, y0), (x1, y0), (x1, y1), (x0, y1)], self._planes)
        if not poly:
            return False
        near = _distance_to_polygon((cx, cy), poly)
        if near <= r * _COS_IN * 0.9999999:
            return True
        if near > r * 1.0000001:
            return False
        return bool(_clip(poly, self._circle_planes()))


def _clip(poly: list[Point], planes) -> list[Point]:
    """Sutherland-Hodgman clipping by closed half-planes (left of each directed edge)."""
    for a, b in planes:
        if not poly:
            return poly
        ex, ey = b[0] - a[0], b[1] - a[1]
        out: list[Point] = []
        n = len(poly)
        for i in range(n):
            p, q = poly[i], poly[(i + 1) % n]
            dp = ex * (p[1] - a[1]) - ey * (p[0] - a[0])
            dq = ex * (q[1] - a[1]) - ey * (q[0] - a[0])
            if dp >= 0:
                out.append(p)
                if dq < 0:
                    t = dp / (dp - dq)
                    out.append((p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])))
            elif dq >= 0:
                t = dp / (dp - dq)
                out.append((p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])))
        poly = out
    return poly


def _distance_to_polygon(p: Point, poly: list[Point]) -> float:
    """Distance from a point to a convex polygon (0 inside)."""
    n = len(poly)
    if n == 1:
        return sqrt((p[0] - poly[0][0]) ** 2 + (p[1] - poly[0][1]) ** 2)
    inside = n >= 3
    best = float("inf")
    for i in range(n):
        a, b = poly[i], poly[(i + 1) % n]
        if inside and _cross(a, b, p) < 0:
            inside = False
        best = min(best, point_to_segment(p, a, b))
    return 0.0 if inside else best
