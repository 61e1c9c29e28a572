"""MANGO's contract corpus (game 905 of the release data, cutoff 70): answers with the verdict they must
get, and certified optima. Route finding from the bedroom to the driveway; destination finding of
the single action ``south`` from the bedroom (it leads to the bathroom)."""

from plancheck.world import Example, Optimum

RF = "905/rf/eaaf7386"
DF = "905/df/294beb47"


def _steps(*moves: tuple[str, str, str]) -> str:
    return "[" + ", ".join(f"{{'location_before': {a!r}, 'action': {b!r}, 'location_after': {c!r}}}"
                           for a, b, c in moves) + "]"


EXAMPLES = (
    Example(RF, _steps(("bedroom", "east", "living room"), ("living room", "south", "driveway")), valid=True,
            goal_reached=True, scores={"strict": 1.0, "loose": 1.0, "reasoning": 1.0}, shows="a shortest route"),
    Example(RF, _steps(("bedroom", "east", "kitchen")), valid=False, goal_reached=False, failure_step=1,
            failure="'east' from 'bedroom' leads to 'living room', not 'kitchen'", scores={"strict": 0.0},
            shows="a move the map does not have"),
    Example(RF, _steps(("living room", "south", "driveway")), valid=False, goal_reached=False, failure_step=1,
            failure="the start is 'bedroom'", scores={"reasoning": 0.0}, shows="a route that starts elsewhere"),
    Example(RF, "[{'location_before': 'bedroom', 'action': 'east', 'location_after': driveway}]", valid=False,
            parsed=False, goal_reached=False, shows="a bare word where a string belongs: unreadable"),
    Example(DF, _steps(("bedroom", "south", "bathroom")), valid=True, goal_reached=True,
            scores={"strict": 1.0, "reasoning": 1.0}, shows="the true destination"),
    Example(DF, _steps(("bedroom", "north", "bathroom")), valid=False, goal_reached=True, failure_step=1,
            failure="the question's action 1 is 'south', not 'north'", scores={"strict": 1.0, "reasoning": 0.0},
            shows="the right place for the wrong reason"),
    Example(RF, ("east", "south"), valid=False, parsed=False, goal_reached=False,
            shows="bare action names are not a MANGO trajectory"),
)

OPTIMA = (Optimum(RF, {"strict": 1.0, "loose": 1.0, "reasoning": 1.0}),
          Optimum(DF, {"strict": 1.0, "loose": 1.0, "reasoning": 1.0}))
