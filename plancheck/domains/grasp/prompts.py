"""GRASP's system and user prompts, byte-identical to the published requests."""

from __future__ import annotations

from plancheck.domains.grasp.grid import render_grid
from plancheck.domains.grasp.instance import Environment

_OBSTACLES = "Some cells are blocked by obstacles. You cannot move to or through these cells. "
_ACTIONS_4 = ("For each step, you can choose UP, DOWN, LEFT, RIGHT, TAKE, and DROP. "
              "UP allows you to move one cell up in one step. ")
_ACTIONS_8 = ("For each step, you can choose UP, DOWN, LEFT, RIGHT, UPLEFT, UPRIGHT, DOWNLEFT, DOWNRIGHT, "
              "TAKE, and DROP. UPLEFT allows you to move diagonally one cell up and left in one step. ")
_CARRY = "You can only carry two unit of energy at a time. "
_COST = "Each step costs you 0.3 unit of energy. "


def system_prompt(env: Environment) -> str:
    """The system message for an environment (obstacle sentence, action set, carry limit, cost)."""
    setting = env.setting
    return (
        "You are an agent in a grid world. The grid world consists of cells. Each cell may have one unit of "
        "energy or no energy at all. "
        + (_OBSTACLES if env.grid.has_obstacles or env.info.obstacle == "block" else "")
        + "The goal for you is to collect as much energy as possible and put the collected energy back in the "
        f"cell where you started. You have {env.step_limit} steps. "
        + (_ACTIONS_8 if setting.directions == 8 else _ACTIONS_4)
        + "The other movements are similar. You can collect energy from a cell by being in the cell and TAKE "
        "the energy from the cell. If there is no energy in the cell, you cannot take any energy from it. "
        + (_CARRY if setting.carry_limit is not None else "")
        + "You can not move across the boundary of the grid world. You can drop all your energy by DROP."
        + (_COST if setting.step_cost > 0 else " ")
        + f"You can use less than {env.step_limit} steps. Any invalid step will not cause any change in the "
        "grid world."
    )


def user_prompt(env: Environment) -> str:
    """The user message: the legend, the grid text and the answer-format request."""
    legend = ", O is an obstacle" if env.grid.has_obstacles or env.info.obstacle == "block" else ""
    return ("You are given the following as the representation of the grid world, where A is you, E is energy"
            f"{legend}:\n{render_grid(env.grid)}Give your sequence of steps as a list. For example: [STEP, STEP, ...]")
