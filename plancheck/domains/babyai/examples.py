"""BabyAI's contract corpus (LLM-BabyBench's Plan task on ``BabyAI-GoToRedBallGrey-v0``, seed 1): answers with
the verdict they must get, and the certified optimum. The agent starts at (3, 4) facing north; the
red ball lies at (1, 6) behind a grey box at (1, 4), which ``toggle`` opens (an empty box vanishes)."""

from plancheck.world import Example, Optimum

GO_TO = "BabyAI-GoToRedBallGrey-v0/seed=1"
MARKER = "The LLM's action sequence is: "
QUICK = {"no_optimal": True}  # the optimum is the corpus's Optimum; checking need not search for it again

EXAMPLES = (
    Example(GO_TO, MARKER + "left, forward, toggle, forward, left, forward", valid=True, goal_reached=True,
            scores={"success": 1.0}, options=QUICK, shows="the 6-action optimum (the bot needs 7)"),
    Example(GO_TO, MARKER + "forward, forward, forward, forward", valid=False, goal_reached=False, failure_step=4,
            failure="blocked by a wall at (3, 0)", scores={"success": 0.0}, options=QUICK,
            shows="forward into a wall does nothing in minigrid"),
    Example(GO_TO, MARKER + "left, forward, toggle, forward, left, forward, right", valid=False, goal_reached=True,
            failure_step=7, failure="the goal is reached at step 6", options=QUICK,
            shows="actions after the goal, which minigrid never runs"),
    Example(GO_TO, MARKER + "left, fly, forward", valid=True, goal_reached=False, options=QUICK,
            shows="an unknown action is skipped (LLM-BabyBench's rule) and reported"),
    Example(GO_TO, MARKER + "left, fly, forward", valid=False, goal_reached=False, failure_step=2,
            failure="'fly' is not a BabyAI action", options={**QUICK, "unknown": "noop"},
            shows="with --unknown noop it is a step that fails"),
    Example(GO_TO, "left, forward, toggle, forward, left, forward", valid=False, parsed=False, goal_reached=False,
            options=QUICK, shows="no marker: the harness reads no actions"),
    Example(GO_TO, MARKER + "left, forward, toggle, forward, left, forward.\n\nExplanation:\n- left: face the box\n"
            "- forward, toggle: open it", valid=True, goal_reached=True, read="clear", options=QUICK,
            shows="an explanation after the answer is not read as the answer"),
    Example(GO_TO, MARKER + "forward x4\nWait, the box is on my left.\n" + MARKER + "Turn left, move forward, open, "
            "forward, turn left, forward", valid=True, goal_reached=True, read="ambiguous", options=QUICK,
            shows="a later marker after 'Wait' corrects the first; action words in any spelling"),
    Example(GO_TO, MARKER + "forward x4\nWait, the box is on my left.\n" + MARKER + "Turn left, move forward, open, "
            "forward, turn left, forward", valid=True, goal_reached=False, options={**QUICK, "read": "harness"},
            shows="--read harness: the harness reads after the first marker and keeps exact names only"),
)

OPTIMA = (Optimum(GO_TO, {"length": 6}),)
