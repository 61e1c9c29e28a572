"""Rearrangement's texts, byte for byte from LangSuitE's template files and its task code.

Two settings, as LangSuitE's configs pair them: ``low`` (``configs/rearrange_gpt_cfg.yml``:
``templates/rearrange_react.json``, move/turn actions) and ``high`` (``configs/rearrange_cfg.yml``,
the batch script's config: ``templates/rearrange_react-hl.json``, ``goto``). The agent settings are
the same: view and manipulation distance 2 m, steps of 0.25 m, one object in hand.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from plancheck.domains.langsuite.engine.agent import AgentConfig
from plancheck.domains.langsuite.engine.templates import Templates

TEMPLATE_FILES = {"low": "rearrange/templates/rearrange_react.json",
                  "high": "rearrange/templates/rearrange_react-hl.json"}
LEVELS = tuple(TEMPLATE_FILES)
AGENT = AgentConfig(max_view_distance=2.0, max_manipulate_distance=2.0, step_size=0.25, inventory_capacity=1)
STEP_LIMIT = 100  # timesteps, the reply to the opening question included


@dataclass(frozen=True)
class Texts:
    """The texts of one setting."""

    level: str
    config: AgentConfig = AGENT

    @cached_property
    def templates(self) -> Templates:
        return Templates.load(TEMPLATE_FILES[self.level])

    def _intro_values(self) -> dict[str, object]:
        c = self.config
        return {"max_view_steps": c.max_view_steps, "degree": c.degree, "max_inventory": c.inventory_capacity,
                "max_manipulation_steps": c.max_manipulation_steps}

    def intro(self) -> str:
        """The opening message (``task_guidance``: the intro with its example)."""
        return self.templates.build("intro", **self._intro_values(), example=self.templates.build("example"))

    def intro_again(self) -> str:
        """The opening message sent again after a refusal: without ``example``, so ``{example}`` stays."""
        return self.templates.build("intro", **self._intro_values())

    def start(self, original_state: str, observation: str) -> str:
        return self.templates.build("Start", original_state=original_state, observation=observation)

    def stop(self) -> str:
        return self.templates.build("Stop")

    def invalid(self, key: str) -> str:
        return self.templates.build("InvalidAction", key)
