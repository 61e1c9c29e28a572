"""GRASP's contract corpus: answers with the verdict they must get, and a certified optimum.

The grid is generated (``gen7_outer_spiral_block``, grid 0), so the corpus needs no data folder;
setting ``0-1-1``: four moves, carry limit 2, 0.3 per step. The agent starts at (9, 6), energy
lies at (8, 6), (8, 5) and (8, 4), an obstacle at (9, 9).
"""

from plancheck.world import Example, Optimum

GRID = "gen7_outer_spiral_block-0-0-1-1"

EXAMPLES = (
    Example(GRID, "[UP, TAKE, LEFT, TAKE, LEFT, DROP]", valid=True, scores={"paper": 1.2},
            shows="the optimum: two units dropped on a cell holding one, six steps paid"),
    Example(GRID, "Here is my plan: [RIGHT, RIGHT, RIGHT, DOWN]", valid=False, failure_step=3,
            failure="blocked by an obstacle at (9, 9)", scores={"paper": -1.2},
            shows="a blocked move is a no-op that still costs a step"),
    Example(GRID, "[DOWN, DOWN]", valid=False, failure_step=2, failure="would leave the grid",
            shows="the boundary"),
    Example(GRID, "Plan: [UP, JUMP, TAKE]", valid=False, failure_step=2, failure="'JUMP' is not a GRASP action",
            scores={"paper": -0.9}, shows="an unknown token uses a step (the benchmark's rule)"),
    Example(GRID, "[" + ", ".join(["UP", "DOWN"] * 10 + ["UP"]) + "]", valid=False, failure_step=21,
            failure="the step limit is 20", shows="only the first 20 actions run"),
    Example(GRID, ("UP", "TAKE", "LEFT", "TAKE", "LEFT", "DROP"), valid=True, scores={"paper": 1.2},
            shows="a ready list of action names"),
    Example(GRID, "I would rather not say.", valid=False, parsed=False, shows="no list: unreadable"),
    Example(GRID, "Final answer: [UP, TAKE, LEFT, TAKE, LEFT, DROP]\n\nExplanation:\n- UP: to the energy\n- TAKE",
            valid=True, scores={"paper": 1.2}, read="clear", shows="a recap after the answer is not the answer"),
    Example(GRID, "[UP, TAKE]\nWait, that leaves energy behind. Instead: [UP, TAKE, LEFT, TAKE, LEFT, DROP]",
            valid=True, scores={"paper": 1.2}, read="ambiguous", shows="a correction replaces the draft"),
    Example(GRID, "[UP, TAKE]\nWait, that leaves energy behind. Instead: [UP, TAKE, LEFT, TAKE, LEFT, DROP]",
            valid=False, parsed=False, read="ambiguous", options={"strict_read": True},
            shows="--strict-read: an ambiguous answer is unreadable"),
    Example(GRID, "[UP, TAKE, LEFT, TAKE, LEFT, DR", valid=False, failure_step=6, failure="'DR' is not a GRASP action",
            shows="a list cut off by the token limit is read (noted); its cut-off word is an unknown action"),
    Example(GRID, "[UP, TAKE, LEFT, TAKE, LEFT, DR", valid=False, parsed=False, options={"unclosed": "reject"},
            shows="--unclosed reject: a cut-off answer is unreadable"),
    Example(GRID, "1. UP\n2. TAKE\n3. LEFT twice, past the energy", valid=True, scores={"paper": -0.2},
            shows="repetition words are expanded (and noted)"),
)

OPTIMA = (Optimum(GRID, {"paper": 1.2, "delivered": -1.8}),)
