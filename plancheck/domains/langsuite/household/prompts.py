"""Household's texts, byte for byte from LangSuitE's template files and its task code.

Two settings: ``low`` (``configs/alfred_gpt_cfg.yml``: ``templates/alfred_react.json``, move/turn
actions) and ``high`` (``templates/alfred_react_high_level.json``, ``goto`` and ``heat``/``cool``/``clean``).
(The batch script's ``alfred_cfg.yml`` names ``alfred_self_localization.json``, a low-level variant.)
The agent: view and manipulation distance 2 m, steps of 0.25 m, five objects in hand.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from plancheck.domains.langsuite.engine.agent import AgentConfig
from plancheck.domains.langsuite.engine.templates import Templates

TEMPLATE_FILES = {"low": "alfred/templates/alfred_react.json", "high": "alfred/templates/alfred_react_high_level.json"}
LEVELS = tuple(TEMPLATE_FILES)
AGENT = AgentConfig(max_view_distance=2.0, max_manipulate_distance=2.0, step_size=0.25, inventory_capacity=5)
STEP_LIMIT = 60  # timesteps, the reply to the opening question included


@dataclass(frozen=True)
class Texts:
    """The texts of one setting."""

    level: str
    config: AgentConfig = AGENT

    @cached_property
    def templates(self) -> Templates:
        return Templates.load(TEMPLATE_FILES[self.level])

    def intro(self) -> str:
        """``AlfredTask.task_guidance``: the intro with ``floor(aov / 2)`` and the example."""
        c = self.config
        return self.templates.build("intro", max_view_steps=c.max_view_steps, degree=c.degree,
                                    max_inventory=c.inventory_capacity, max_manipulation_steps=c.max_manipulation_steps,
                                    example=self.templates.build("example"))

    def intro_again(self) -> str:
        """The agent's answer to a refused opening: ``aov / 2`` unfloored, no example (``{example}`` stays)."""
        c = self.config
        return self.templates.build("intro", max_view_steps=c.max_view_steps, degree=c.aov / 2,
                                    max_inventory=c.inventory_capacity, max_manipulation_steps=c.max_manipulation_steps)

    def start(self, description: str, observation: str) -> str:
        return self.templates.build("Start", task_description=description, observation=observation)

    def stop(self) -> str:
        return self.templates.build("Stop")

    def invalid(self, key: str) -> str:
        return self.templates.build("InvalidAction", key)

    def verdict(self, success: bool) -> str:
        return self.templates.build("Stop", "success" if success else "failure")
