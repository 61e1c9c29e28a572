"""Text views of an instance: LLM-BabyBench's "Structured" description and its state strings.

The Structured description is byte-identical to the ``env_description`` of LLM-BabyBench's records:
a fixed header, then the room layout, the agent's pose, every door, key, ball and box on the grid
in row-major order, and the mission.
"""

from __future__ import annotations

from plancheck.domains.babyai.instance import DIR_VEC, DIRECTIONS, LOCKED, Instance, State
from plancheck.domains.babyai.scoring import red_ball

HEADER = (
    "An agent is in a grid world consisting of one or more rooms. All rooms in the same grid world are squares of "
    "identical size and are organized in a square grid layout. Rooms are separated by walls and might contain "
    "objects such as keys, balls, and boxes of different colors. Some walls, connecting two adjacent rooms, have "
    "doors. Some doors are unlocked, whereas others need to be unlocked with keys of the same color. The agent can "
    "perform 6 actions: left (turn left), right (turn right), forward (move forward), pickup (pickup an object), "
    "drop (drop an object), and toggle (open/close a door or a box). Only the forward action changes the agent's "
    "position in the grid world. Turning left or right changes the agent's orientation only but not the position. "
    "The agent cannot move into a cell that is already occupied by an object, even if the object is one it is "
    "trying to interact with. Using a coordinate system where the (0, 0) position is the top-left corner of the "
    "grid world, necessarily corresponding to a wall, the coordinates follow the format (x, y), with x denoting "
    "the horizontal position in the grid and y denoting the vertical position in the grid,\n\n"
    "These are the specifics regarding this environment: \n\n")


def structured(instance: Instance) -> str:
    """The Structured environment description of the instance's start state."""
    start = instance.start
    rooms = (f"{instance.num_rows}x{instance.num_cols}" if instance.num_rows > 1 or instance.num_cols > 1 else "1")
    size = instance.room_size
    dx, dy = DIR_VEC[start.dir]
    front = (start.pos[0] + dx, start.pos[1] + dy)
    lines = [
        f"- Number of rooms: {rooms}",
        f"- Size of each room (including walls): {size}x{size}",
        f"- Effective room size (excluding walls): {size - 2}x{size - 2}",
        f"- Total grid size: {instance.height}x{instance.width}",
        f"- Agent initial position: {start.pos}",
        f"- Agent facing direction: {DIRECTIONS[start.dir]} (toward {front})",
    ]
    things = [(door.pos[1], door.pos[0], f"  - door, color={door.color}, position={door.pos}, "
                                        f"locked={state == LOCKED}")
              for door, state in zip(instance.doors, start.doors)]
    things += [(cell[1], cell[0], f"  - {thing.kind}, color={thing.color}, position={cell}")
               for thing, cell in zip(instance.things, start.objects) if cell is not None]
    if things:
        lines.append("- Objects in environment:")
        lines.extend(text for _, _, text in sorted(things))
    else:
        lines.append("- Objects in environment: none")
    lines.append(f"- Mission: '{instance.mission.text}'")
    return HEADER + "\n".join(lines)


def state_text(state: State) -> str:
    """The benchmark's state notation ``((x, y), dir)``.

    >>> from plancheck.domains.babyai.mission import Progress
    >>> state_text(State((3, 4), 3, -1, (), (), Progress((), (), ())))
    '((3, 4), 3)'
    """
    return f"({state.pos}, {state.dir})"


def pose_text(state: State) -> str:
    """A person's view of the agent: ``(3, 4) facing north``."""
    return f"{state.pos} facing {DIRECTIONS[state.dir]}"


def published_mismatch(instance: Instance, record: dict) -> str | None:
    """Where an LLM-BabyBench record's stored text disagrees with the instance regenerated here, or None.

    Compares what the record stores of the world: ``env_description`` (line by line), ``initial_state``,
    ``mission`` (Decompose) and ``target_subgoal`` (Plan: the red ball's cell). A disagreement means the
    record was made on another world (another minigrid), which must not be scored as this one.
    """
    stored = record.get("env_description")
    if isinstance(stored, str):
        made = structured(instance)
        if stored != made:
            theirs, ours = stored.split("\n"), made.split("\n")
            line = next((n for n, (a, b) in enumerate(zip(theirs, ours)) if a != b), min(len(theirs), len(ours)))
            shown = [text[line] if line < len(text) else "(no such line)" for text in (theirs, ours)]
            return f"env_description line {line + 1}: the record says {shown[0]!r}, regenerated {shown[1]!r}"
    expected = {"initial_state": state_text(instance.start), "mission": instance.mission.text}
    ball = red_ball(instance, instance.start.objects)
    if ball is not None:
        expected["target_subgoal"] = str(ball)
    for field, made in expected.items():
        if isinstance(record.get(field), str) and record[field] != made:
            return f"{field}: the record says {record[field]!r}, regenerated {made!r}"
    return None
