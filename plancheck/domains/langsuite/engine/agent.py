"""The agent's pose and its per-task settings (``dev:langsuite/agents/simple_agent.py``).

The view vector starts at (0, 1) ("north", +z) and is turned by the data's AI2-THOR yaw through
``Vector2D.rotate``, which negates the angle before shapely's counter-clockwise rotation, so a
positive yaw turns clockwise. ``turn_right`` is +90 and ``turn_left`` -90 the same way (exact: the
cosine of 90 degrees is set to zero). ``move_ahead`` adds ``view * step_size`` to the position, so
rounding errors accumulate as in LangSuitE.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import floor

from plancheck.domains.langsuite.engine.geometry import FOCAL_LENGTH, angle_of_view, rotate_point


@dataclass(frozen=True, slots=True)
class AgentConfig:
    """Per-task agent settings (``dev:configs/*.yml``)."""

    max_view_distance: float = 2.0
    max_manipulate_distance: float = 2.0
    step_size: float = 0.25
    inventory_capacity: int = 1
    focal_length: float = FOCAL_LENGTH

    @property
    def aov(self) -> float:
        return angle_of_view(self.focal_length)

    @property
    def degree(self) -> int:
        """The ``{degree}`` the prompts print: ``floor(aov / 2)`` (60)."""
        return floor(self.aov / 2)

    @property
    def max_view_steps(self) -> float:
        return self.max_view_distance / self.step_size

    @property
    def max_manipulation_steps(self) -> float:
        return self.max_manipulate_distance / self.step_size


@dataclass(frozen=True, slots=True)
class Pose:
    """Position (x, z as x, y) and view vector, as LangSuitE's floats."""

    x: float
    y: float
    vx: float = 0.0
    vy: float = 1.0

    @classmethod
    def start(cls, x: float, y: float, yaw: float) -> Pose:
        """The pose at ``(x, z)`` facing AI2-THOR yaw ``yaw`` (degrees clockwise from +z)."""
        vx, vy = rotate_point(0, 1, -yaw, 0, 0)
        return cls(x, y, vx, vy)

    def turned(self, degrees: float) -> Pose:
        """``Vector2D.rotate(degrees)``: clockwise for positive degrees."""
        vx, vy = rotate_point(self.vx, self.vy, -degrees, 0, 0)
        return Pose(self.x, self.y, vx, vy)

    def ahead(self, distance: float) -> tuple[float, float]:
        """The point ``position + view * distance``."""
        return self.x + self.vx * distance, self.y + self.vy * distance

    def moved_to(self, x: float, y: float) -> Pose:
        return Pose(x, y, self.vx, self.vy)

    def key(self, digits: int = 9) -> tuple[float, float, float, float]:
        """The pose rounded, for merging poses that differ only by accumulated rounding."""
        return round(self.x, digits), round(self.y, digits), round(self.vx, digits), round(self.vy, digits)
