"""Hanoi's contract corpus (SmartPlay's 3 disks): answers with the verdict they must get, and the optimum."""

from plancheck.world import Example, Optimum

OPTIMAL = "A->C\nA->B\nC->B\nA->C\nB->A\nB->C\nA->C"

EXAMPLES = (
    Example("hanoi-3", OPTIMAL, valid=True, goal_reached=True, scores={"score": 3}, shows="the 7-move optimum"),
    Example("hanoi-3", "Move the top disk of rod A to the top of rod C\nMove the top disk of rod A to the top of rod C",
            valid=False, goal_reached=False, failure_step=2, failure="puts disk 1 on the smaller disk 0",
            shows="a bigger disk onto a smaller one (SmartPlay: ignored, reward -1)"),
    Example("hanoi-3", OPTIMAL + "\nA->B", valid=False, goal_reached=True, failure_step=8,
            failure="the goal is reached at step 7", shows="moves after the goal, which the episode never runs"),
    Example("hanoi-3", '["A->C", "fly to the moon", "A->B"]', valid=False, goal_reached=False, failure_step=2,
            failure="'fly to the moon' is not a Hanoi move", scores={"score": 1},
            shows="an unreadable slot is an invalid move"),
    Example("hanoi-3", "1. A->C\n2. fly to the moon\n3. A->B", valid=False, parsed=False, goal_reached=False,
            read="none", shows="numbered prose: a line that starts with no move makes the lines no plan"),
    Example("hanoi-3", "1. A->C\n2. fly to the moon\n3. A->B", valid=False, goal_reached=False, failure_step=2,
            failure="'fly to the moon' is not a Hanoi move", options={"pick": "last"},
            shows="--pick last reads every numbered line as a slot (the earlier rule)"),
    Example("hanoi-3", "A->C\nA->B\nWait, that is wrong. Instead:\n1. A->C\n2. A->B\n3. C->B", valid=True,
            goal_reached=False, read="ambiguous", scores={"score": 0}, shows="a correction replaces the draft"),
    Example("hanoi-3", "A->C\nA->B\nWait, that is wrong. Instead:\n1. A->C\n2. A->B\n3. C->B", valid=False,
            parsed=False, goal_reached=False, read="ambiguous", options={"strict_read": True},
            shows="--strict-read: an ambiguous answer is unreadable"),
    Example("hanoi-3", ("Move the top disk of rod A to the top of rod C",), valid=True, goal_reached=False,
            scores={"score": 1}, shows="a ready list of SmartPlay's action texts"),
    Example("hanoi-3", "I give up.", valid=False, parsed=False, goal_reached=False, shows="no move at all"),
)

OPTIMA = (Optimum("hanoi-3", {"score": 3, "normalised": 1.0}),)
