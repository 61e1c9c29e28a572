"""IQA's texts, byte for byte from LangSuitE's template files and its task code.

Two settings, as LangSuitE's configs pair them: ``low`` (``configs/iqa_gpt_cfg.yml``:
``templates/iqa_cot.json``, move/turn actions, view and manipulation distance 2 m) and ``high``
(``configs/iqa_cfg.yml``, the batch script's config: ``templates/iqa_cot-hl.json``, ``goto``,
5 m). Both place the agent at random (the high-level config has that line commented out, which
would make LangSuitE's ``Point2D(None)`` raise; plancheck draws the start at both levels).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from plancheck.domains.langsuite.engine.agent import AgentConfig
from plancheck.domains.langsuite.engine.templates import Templates

TEMPLATE_FILES = {"low": "iqa/templates/iqa_cot.json", "high": "iqa/templates/iqa_cot-hl.json"}
LEVELS = tuple(TEMPLATE_FILES)
AGENTS = {"low": AgentConfig(max_view_distance=2.0, max_manipulate_distance=2.0, step_size=0.25, inventory_capacity=1),
          "high": AgentConfig(max_view_distance=5.0, max_manipulate_distance=5.0, step_size=0.25,
                              inventory_capacity=1)}
VIEW_DEGREE = 60  # the configs' view_degree, which the intro's {degree} would print
STEP_LIMIT = 30  # timesteps, the opening reply included; at the limit the task answers for the agent
STOP_RIGHT, STOP_WRONG = "Your are right!", "Your are wrong!"


@dataclass(frozen=True)
class Texts:
    """The texts of one setting."""

    level: str

    @property
    def config(self) -> AgentConfig:
        return AGENTS[self.level]

    @cached_property
    def templates(self) -> Templates:
        return Templates.load(TEMPLATE_FILES[self.level])

    def intro(self) -> str:
        """``IqaTask.start``: the intro with the agent's raw distances and view degree."""
        c = self.config
        return self.templates.build("intro", degree=VIEW_DEGREE, max_manipulation_steps=c.max_manipulate_distance,
                                    max_view_steps=c.max_view_distance)

    def intro_again(self) -> str:
        """The agent's answer to a refused opening: the intro built with no values."""
        return self.templates.build("intro")

    def start(self, question: str, observation: str) -> str:
        return self.templates.build("IqaStart", task=question, object_str=observation)

    def verdict(self, right: bool) -> str:
        return self.templates.build("Stop", "success" if right else "failure")
