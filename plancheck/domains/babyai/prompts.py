"""The benchmarks' prompts, byte-identical to the published ones.

LLM-BabyBench (``prompters/utils.py`` of its harness): the zero-shot and chain-of-thought templates
of Predict, Plan and Decompose, filled with the Structured description (and, for Predict, the
action sequence). Its few-shot templates cannot be rendered by the harness itself (they reference
undefined placeholders), so they are not offered. LangSuitE: the BabyAI system prompt ("intro",
with the agent's view size and the example) and the first user turn ("Task: ... Obs: ...").
"""

from __future__ import annotations

from plancheck.domains.babyai.tasks import Task

_PREDICT_TAIL = (
    "At the end of your response, write the agent's final state in the following way '((x, y), dir)'. "
    "For dir (agent facing): chose 0 for east, 1 for south, 2 for west, 3 for north. "
    "Begin this section with the phrase: 'The agent's final state is: '. "
    "Please do not write a full stop mark at the end!")
_PLAN_TAIL = (
    "At the end of your response, write the action sequence in the following way action1, action2, action3 "
    "The names of possible actions are again: left, right, forward, pickup, drop, toggle."
    "Begin this section with the phrase: 'The LLM's action sequence is: '. "
    "Example: The LLM's action sequence is: forward, forward, left"
    "Please do not write a full stop mark at the end! ")
_DECOMPOSE_FORMAT = (
    "Output will be parsed by a strict program. Strictly respect the format given below or parsing will fail.\n"
    "At the end of your answer, the last part of your answer will contain the sequence of subgoals presented "
    "using the following format:\n\n"
    "<START>\n(Subgoal_1)\n(Subgoal_2)\n... (Subgoal_n)\n<END>\n\n"
    "Where (Subgoal_i) can either be (OpenSubgoal), (CloseSubgoal),(DropSubgoal),(PickupSubgoal) or "
    "(GoNextToSubgoal, (x,y)).\n\n"
    "The list of subgoals should be in the chronological order, which means that the agent will follow "
    "Subgoal_1 then Subgoal_2 ...")
_INTRO = "You are an intelligent agent. You are given the following environment description:\n{description}\n\n"

TEMPLATES: dict[str, dict[Task, str]] = {
    "zero_shot": {
        Task.PREDICT: (_INTRO + "Predict the final state of the agent after executing the following action "
                       "sequence:\n{actions}\n\n" + _PREDICT_TAIL + " "),
        Task.PLAN: (_INTRO + "So, your goal is to reach the red ball, and you need to determine the sequence of "
                    "actions to get there. " + _PLAN_TAIL),
        Task.DECOMPOSE: (
            "You are an intelligent agent. Given the environment description, decompose the task into a sequence "
            "of meaningful subgoals that you pick from:\n\n"
            "- OpenSubgoal: If the agent is next to a closed door, this subgoal will open it. \n\n"
            "- CloseSubgoal: If the agent is next to an open door, this subgoal will close it. \n\n"
            "- DropSubgoal: If the agent is carrying an object, this subgoal drops it. \n\n"
            "- PickupSubgoal: If the agent is not carrying any object and is next to an object, this subgoal "
            "picks it up. \n\n"
            "- GoNextToSubgoal, (x,y): If there is a clear, without any blocker, path between the agent and the "
            "cell of coordinates (x,y), this subgoal makes the agent go next to this cell. \n\n"
            "Environment Description:\n{description}\n\n" + _DECOMPOSE_FORMAT),
    },
    "cot": {
        Task.PREDICT: (
            _INTRO + "Let's think step-by-step to predict the agent's final state after executing the following "
            "action sequence:\n{actions}\n\n"
            "Step 1. Note the agent's starting position and direction\n"
            "Step 2. Process each action in sequence:\n"
            "   - For turns: Update the agent's direction\n"
            "   - For forward: Move in the current direction if not blocked\n"
            "   - For toggle/pickup/drop: Execute without changing position\n"
            "Step 3. Track the agent's position after each step\n"
            "Step 4. Determine the final position (x,y) and direction\n\n"
            "Here is a small example of a reasoning process:\n"
            "- Starting at (3, 4) facing north (dir=3)\n"
            "- Action 'right': Now facing east (dir=0), still at (3, 4)\n"
            "- Action 'forward': Move east to (4, 4), still facing east (dir=0)\n"
            "- Action 'pickup': Still at (4, 4) facing east (dir=0), but now holding an object\n\n"
            + _PREDICT_TAIL),
        Task.PLAN: (
            _INTRO + "So, your goal is to reach the red ball, and you need to determine the sequence of actions to "
            "get there. Let's plan step-by-step to solve this MiniGrid environment task.\n\n"
            "Step 1. Identify the mission goal\n"
            "Step 2. Map out the environment layout\n"
            "Step 3. Break down the mission into actions\n"
            "Step 4. For each action:\n"
            "   - Determine optimal path to relevant places\n"
            "   - Plan the necessary rotations\n"
            "Step 5. Verify the plan actually works\n\n"
            "Here is a small example for your reference:\n"
            "- Goal: Go to the red ball at (5, 3)\n"
            "- Agent starts at (2, 4) facing west \n"
            "- Need to turn right twice to face east: 'right, right' (or 'left, left')\n"
            "- Move forward 3 steps to reach the ball: 'forward, forward, forward'\n"
            "- Need to turn left once to face the ball (face north): 'left'\n"
            "- Complete sequence: 'right, right, forward, forward, forward, left'\n\n" + _PLAN_TAIL),
        Task.DECOMPOSE: (
            "You are an intelligent agent. Given the environment description bellow, let's plan step-by-step to "
            "decompose the task into a sequence of meaningful subgoals.\n\n"
            "Environment Description:\n{description}\n\n"
            "Step 1. Identify the mission goal\n"
            "- What is the agent ultimately required to achieve?\n\n"
            "Step 2. Identify relevant objects and obstacles\n"
            "- What doors, keys, objects, or blockers are present?\n"
            "- Which objects need to be picked up, moved, or interacted with?\n\n"
            "Step 3. Determine the necessary interactions\n"
            "- Which doors must be opened or closed?\n"
            "- Are there objects that must be picked up or dropped?\n\n"
            "Step 4. Plan the movement strategy\n"
            "- For each object or location the agent must interact with, decide where it must go next to.\n"
            "- Use (GoNextToSubgoal, (x,y)) if there's a clear path to that location.\n\n"
            "Step 5. Convert each step into a subgoal from the allowed list\n"
            "The available subgoals are:\n"
            "- (OpenSubgoal): If the agent is next to a closed door, this subgoal opens it.\n"
            "- (CloseSubgoal): If the agent is next to an open door, this subgoal closes it.\n"
            "- (DropSubgoal): If the agent is carrying an object, this subgoal drops it.\n"
            "- (PickupSubgoal): If the agent is not carrying any object and is next to an object, this subgoal "
            "picks it up.\n"
            "- (GoNextToSubgoal, (x, y)): If there is a clear, unobstructed path to cell (x, y), this subgoal moves "
            "the agent next to it.\n\n"
            "Step 6. Sequence the subgoals in logical order\n"
            "- Subgoals should be in the order the agent will execute them.\n"
            "- Make sure movement (GoNextToSubgoal) comes *before* interaction subgoals (like Pickup or Open).\n\n"
            "Here is a small example of step-by-step planning:\n"
            "-Goal: Go to the red ball at coordinates (x_b, y_b)"
            "There is a door between the agent and the red ball at coordinate (x,y). So first Subgoal is : "
            "GoNextToSubgoal, (x,y) \n"
            "To continue its travel to the red ball, the agents has to open the door. Next subgoal: OpenSubgoal\n"
            "Path to the ball is clear. Last Subgoal: GoNextToSubgoal, (x_b,y_b)\n\n" + _DECOMPOSE_FORMAT),
    },
}
PROMPTERS = tuple(TEMPLATES)


def babybench_prompt(task: Task, description: str, actions: str = "", prompter: str = "zero_shot") -> str:
    """LLM-BabyBench's prompt for a task (``actions``: Predict's comma-separated action sequence)."""
    return TEMPLATES[prompter][task].format(description=description, actions=actions)


LANGSUITE_INTRO = (
    "You are an autonomous intelligent agent tasked with completing a minigrid game. These tasks will be "
    "accomplished through the use of specific actions you can issue. \n\nHere's the information you'll have: \n"
    "Task: This is the task you are trying to accomplish.\nObs: These are the objects you can see.You can see at "
    "most {max_view_steps} step(s) in front of you, {side_steps} step(s) on your left, {side_steps} step(s) on "
    "your right. \n Manipulable object: The object that you are facing and you can take an operate action like "
    "pick_up [object_name], toggle [object_name] on it. \nInventory: These are the objects you are holding, and "
    "you can take an action like drop on it.\nFeedback: Whether the action is succeed or not and why is it.\n\n"
    "At each step, you can choose to think your plan or execute an action from one of the following: \n"
    "`move_ahead`: it means you move ahead by 1 step.\n`turn_left`: it means you turn left 90 degrees.\n"
    "`turn_right`: it means you turn right 90 degrees.\n`pick_up [object_name]`: Use this action to pick up a "
    "pickupable and visible object directly in front of you without obstacle.\n`drop [object_name]`: it means "
    "you places the object in hand at the place just in front of you.\n`toggle [object_name]`: it means you "
    "toggle a toggleable and visible object directly in front of you without obstacle.\n`stop [answer]`: Issue "
    "this action when you believe the task is complete. If you believe the task is impossible to complete, "
    "provide the answer as \"N/A\" in the bracket.\n\nTo be successful, it is very important to follow the "
    "following rules:\n1. You should only issue a action that is valid given the current observation\n2. You "
    "should only issue ONE action at a time, and ONLY action is enough.\n3. Generate the action in the correct "
    "format starting with \"Act:\". For example, \"Act: pick_up [ball]\".\n4. You can only operate the object "
    "you are facing, if the object is in front of you, on your left or right, take action like move_ahead, "
    "turn_left, turn_right to appraoch it until you are facing it;\n5. Issue stop action when you think you have "
    "achieved the objective. Don't generate anything after stop.\n\nHere are some examples:\n{example}\n"
    "Respond YES if you can play this game.")
LANGSUITE_EXAMPLE = ("Task: go to the red box. \nObs:You can see a blue key in front of you; You can see a red box "
                     "on your right. \nManipulable object: A blue key.\n>Act: turn_right.")
LANGSUITE_START = "Task: {task}\nObs: {observation}\nWhat is your next step? "


def langsuite_system(view_size: int) -> str:
    """LangSuitE's BabyAI system prompt for an agent that sees ``view_size`` cells ahead."""
    return LANGSUITE_INTRO.format(max_view_steps=view_size, side_steps=view_size // 2, example=LANGSUITE_EXAMPLE)


def langsuite_start(mission: str, observation: str) -> str:
    return LANGSUITE_START.format(task=mission, observation=observation)
