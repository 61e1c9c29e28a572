"""SmartPlay's Crafter texts, byte for byte: the manual, the action names, the observation, the history, the chat.

The observation is SmartPlay's ``describe_frame`` rebuilt from crafter's state (see
:func:`describe`): an optional ``You took action {a}.`` line (crafter's action name, the four moves
renamed to compass points), the sleeping or died remark glued to it, the objects in the 9 x 7 window
around the player (ascending semantic id; the nearest cell of each, ties to the lowest x, then the
lowest y), the tile the player faces, the vitals and the inventory. SmartPlay's code fails, and says
``Error, you are out of the map.``, when the window crosses the left or top edge of the map or the
faced tile falls outside a window cut off at the right or bottom edge; :func:`describe` says the same.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from importlib.resources import files
from typing import Any

PLAYER = "You\u2019re a player trying to play the game."
QUESTIONS = ("What is the best action to take? Let's think step by step, ",
             "Choose the best executable action from the list of all actions. Write the exact chosen action.")
OUT_OF_MAP = "Error, you are out of the map."
SLEEPING = "You are sleeping, and will not be able take actions until energy is full.\n\n"
DIED = "You died.\n\n"
NOTHING_SEEN = "You see nothing away from you."
MANUAL_SHA256 = "2ece2c1256a11a3e80bd1a2804c066652b0ed478a99d65eedecec4fdbbcb9dde"

# SmartPlay's action_list; index i is crafter's action i (data.yaml order).
ACTIONS = ("Noop", "Move West", "Move East", "Move North", "Move South", "Do", "Sleep", "Place Stone",
           "Place Table", "Place Furnace", "Place Plant", "Make Wood Pickaxe", "Make Stone Pickaxe",
           "Make Iron Pickaxe", "Make Wood Sword", "Make Stone Sword", "Make Iron Sword")
CRAFTER_ACTIONS = ("noop", "move_left", "move_right", "move_up", "move_down", "do", "sleep", "place_stone",
                   "place_table", "place_furnace", "place_plant", "make_wood_pickaxe", "make_stone_pickaxe",
                   "make_iron_pickaxe", "make_wood_sword", "make_stone_sword", "make_iron_sword")
# The name echoed in "You took action ...": crafter's name with the moves renamed.
ECHOED = {name: name.replace("move_up", "move_north").replace("move_down", "move_south")
          .replace("move_left", "move_west").replace("move_right", "move_east") for name in CRAFTER_ACTIONS}

# crafter's semantic ids: 0 = outside the map, 1-12 materials, 13-18 objects.
NAMES = ("None", "water", "grass", "stone", "path", "sand", "tree", "lava", "coal", "iron", "diamond", "table",
         "furnace", "player", "cow", "zombie", "skeleton", "arrow", "plant")
PLAYER_ID = 13
VITALS = ("health", "food", "drink", "energy")
ITEMS = ("sapling", "wood", "stone", "coal", "iron", "diamond", "wood_pickaxe", "stone_pickaxe", "iron_pickaxe",
         "wood_sword", "stone_sword", "iron_sword")  # the rest of crafter's inventory, in its order
HISTORY = {"code": 2, "paper": 5}  # SmartPlay's HistoryTracker(max_steps=2); the paper's Table 1 says 5

_HALF_X, _HALF_Y = 4, 3  # the window is x - 4 .. x + 4 by y - 3 .. y + 3; the player at (4, 3)


def _cell_order() -> tuple[tuple[int, int, int, str], ...]:
    """Window cells (i, j, distance, direction) nearest first, ties in C order (lowest i, then j)."""
    cells = []
    for i in range(2 * _HALF_X + 1):
        for j in range(2 * _HALF_Y + 1):
            dx, dy = i - _HALF_X, j - _HALF_Y
            if dx or dy:
                words = (["north"] if dy < 0 else ["south"] if dy > 0 else []) + \
                        (["west"] if dx < 0 else ["east"] if dx > 0 else [])
                cells.append((abs(dx) + abs(dy), i, j, "-".join(words)))
    return tuple((i, j, d, words) for d, i, j, words in sorted(cells))


_CELLS = _cell_order()


@cache
def manual() -> str:
    """The Crafter manual SmartPlay sends (CC BY 4.0, SmartPlay; see the NOTICE beside the file)."""
    return files("plancheck.data").joinpath("smartplay/crafter_manual.txt").read_text(encoding="utf-8")


def view_text(semantic: Any, position: tuple[int, int], facing: tuple[int, int]) -> str | None:
    """The ``You see:`` and ``You face`` block, or None where SmartPlay's code fails (out of the map).

    ``semantic`` is crafter's semantic map indexed ``[x, y]`` (a numpy array or nested lists).
    """
    x, y = position
    if x < _HALF_X or y < _HALF_Y or semantic[x][y] != PLAYER_ID:
        return None
    if hasattr(semantic, "tolist"):  # numpy: one slice
        rows = semantic[x - _HALF_X: x + _HALF_X + 1, y - _HALF_Y: y + _HALF_Y + 1].tolist()
    else:
        rows = [list(column[y - _HALF_Y: y + _HALF_Y + 1]) for column in semantic[x - _HALF_X: x + _HALF_X + 1]]
    width, height = len(rows), len(rows[0])
    fi, fj = _HALF_X + facing[0], _HALF_Y + facing[1]
    if not (0 <= fi < width and 0 <= fj < height):
        return None
    nearest: dict[int, str] = {}
    for i, j, distance, direction in _CELLS:
        if i < width and j < height:
            ident = int(rows[i][j])
            if ident not in nearest and ident != PLAYER_ID:
                nearest[ident] = f"- {NAMES[ident]} {distance} steps to your {direction}"
    seen = "You see:\n" + "\n".join(nearest[k] for k in sorted(nearest)) if nearest else NOTHING_SEEN
    return f"{seen}\n\nYou face {NAMES[int(rows[fi][fj])]} at your front."


def status_text(inventory: Mapping[str, int] | Sequence[tuple[str, int]]) -> str:
    """The ``Your status:`` block and the inventory (or ``You have nothing in your inventory.``)."""
    items = list(inventory.items()) if isinstance(inventory, Mapping) else list(inventory)
    counts = dict(items)
    vitals = "\n".join(f"- {name}: {counts[name]}/9" for name in VITALS)
    held = "\n".join(f"- {name}: {count}" for name, count in items if name not in VITALS and count != 0)
    return f"Your status:\n{vitals}\n\n" + (f"Your inventory:\n{held}" if held else
                                            "You have nothing in your inventory.")


def describe(semantic: Any, position: tuple[int, int], facing: tuple[int, int],
             inventory: Mapping[str, int] | Sequence[tuple[str, int]], sleeping: bool, dead: bool,
             action: str | None) -> str:
    """SmartPlay's observation text; ``action`` is crafter's action name, or None for the reset's text."""
    view = view_text(semantic, position, facing)
    if view is None:
        return OUT_OF_MAP
    head = f"You took action {ECHOED[action]}." if action is not None else ""
    remark = SLEEPING if sleeping else DIED if dead else ""
    return f"{head}{remark}\n\n{view}\n\n{status_text(inventory)}".strip()


def history_text(observations: Sequence[str], game_step: int) -> str:
    """SmartPlay's history message: the kept observations numbered up to ``game_step - 1`` ('' if none)."""
    if not observations:
        return ""
    count = len(observations)
    body = "".join(f"Player Observation Step {game_step - count + i}:\n{text}\n\n"
                   for i, text in enumerate(observations))
    return f"Most recent {count} steps of the player's in-game observation:\n\n{body}".strip()


def chat(manual_text: str, history: str, observation: str, question: str,
         past: Sequence[tuple[str, str]] = ()) -> list[dict[str, str]]:
    """SmartPlay's ``compose_ingame_prompt``: the chat messages for one question at one step."""
    messages = [{"role": "system", "content": PLAYER}]
    if manual_text:
        messages.append({"role": "system", "content": manual_text})
    if history:
        messages.append({"role": "system", "content": history})
    messages.append({"role": "system", "content": f"current step observation: {observation}"})
    for asked, answered in past:
        messages += [{"role": "user", "content": asked}, {"role": "assistant", "content": answered}]
    messages.append({"role": "user", "content": question})
    return messages
