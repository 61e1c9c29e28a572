"""The second-route cross-check of a Household task against ALFRED's own domain and goal (:mod:`.alfred`).

Two directions, each with a named outcome:

* (a) **ours on ALFRED's**: the certified optimum (:func:`~.solve.optimal`, LangSuitE's rules) mapped onto
  ``alfred.pddl`` (:func:`~.alfred.from_reference`) and validated by plancheck's PDDL verifier on the ALFRED
  problem: ``agree`` (every step applicable and alfworld's goal holds at the end), ``invalid`` (a step is
  not applicable: the unmet condition is named), ``goal-unmet``, ``gap`` (an action ALFRED cannot express,
  named) or ``no-reference`` (no plan of ours);
* (b) **ALFRED's on ours**: Fast Downward's plan for the ALFRED problem translated to LangSuitE's
  high-level replies (:func:`~.alfred_replies.to_replies`) and run through LangSuitE's conversation: ``agree``
  (LangSuitE scores a success at the stop), ``differ`` (with the refused replies and the goal score), or
  ``no-plan`` (Fast Downward's status: the ALFRED problem has no plan, or none was found in time).

``python -m plancheck.domains.langsuite.household.alfred_check SELECTOR...`` prints one row per task and
the counts.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from plancheck.domains.langsuite.household import alfred, alfred_replies, search
from plancheck.domains.langsuite.household.instance import HouseholdTask
from plancheck.domains.langsuite.household.problem import Node, Problem
from plancheck.domains.langsuite.household.prompts import STEP_LIMIT
from plancheck.domains.langsuite.household.rules import Task
from plancheck.domains.langsuite.household.solve import optimal
from plancheck.solvers.external import run_fast_downward
from plancheck.solvers.result import Status
from plancheck.verifier.pddl_validate import validate_text

SEARCH = "lazy_greedy([ff()], preferred=[ff()])"  # a plan, not an optimum: only existence is compared


@dataclass(frozen=True)
class Direction:
    outcome: str  # agree | invalid | goal-unmet | gap | no-reference | differ | no-plan
    detail: str = ""


@dataclass(frozen=True)
class Row:
    task: str
    task_type: str
    ours_on_alfred: Direction
    alfred_on_ours: Direction
    added_opens: int = 0
    alfred_steps: int | None = None
    added_knives: int = 0  # knife pick-ups ALFRED's slice needs and LangSuitE's does not
    gotos_by_moves: int = 0  # LangSuitE gotos replaced by moves and turns in (b)


def ours_on_alfred(task: Task, problem_text: str) -> tuple[Direction, alfred.Mapped | None]:
    ref = optimal(task)
    if ref.acts is None or not ref.certified:
        cause = no_reference_cause(task, ref.reason) if ref.acts is None else ""
        return Direction("no-reference", ref.reason + cause), None
    mapped = alfred.from_reference(task, ref.acts)
    if mapped.gap is not None:
        return Direction("gap", mapped.gap), mapped
    report = validate_text(alfred.domain_text(), problem_text, "\n".join(mapped.steps))
    if report.failure is not None:
        f = report.failure
        where = f"; substituted: {', '.join(mapped.substituted)}" if mapped.substituted else ""
        return Direction("invalid", f"step {f.step} {f.action}: {f.reason}{where}"), mapped
    if report.unmet_goals:
        where = f"; nested: {', '.join(mapped.nested)}" if mapped.nested else ""
        where += f"; substituted: {', '.join(mapped.substituted)}" if mapped.substituted else ""
        puts = sum(step.startswith("(putobject") for step in mapped.steps)
        if task.task.task_type == "pick_two_obj_and_place" and puts < 2:
            where += "; one object put: LangSuitE counted it twice"
        return Direction("goal-unmet", "alfworld's goal is false at the end" + where), mapped
    return Direction("agree", f"{len(mapped.steps)} ALFRED steps"), mapped


def alfred_on_ours(task: Task, problem_text: str, timeout: float) -> tuple[Direction, alfred_replies.Translated | None,
                                                                              int | None]:
    run = run_fast_downward(alfred.domain_text(), problem_text, search=SEARCH, timeout=timeout)
    if run.plan is None:
        cause = no_plan_cause(task) if run.status is Status.UNSOLVABLE else ""
        return Direction("no-plan", f"{run.status.value}: {cause or run.message}"), None, None
    out = alfred_replies.to_replies(task, run.plan)
    moved = f"; by moves: {', '.join(out.by_moves)}" if out.by_moves else ""
    if out.success:
        return Direction("agree", f"{len(out.replies)} replies{moved}"), out, len(run.plan)
    why = [out.crashed] if out.crashed else []
    why += [f"LangSuitE's {STEP_LIMIT}-timestep limit reached before the stop"] if out.limit else []
    why += [f"{len(out.refused)} refused, first: {out.refused[0]}"] if out.refused else []
    why.append(f"goal conditions {out.conditions[0]} of {out.conditions[1]} at the stop")
    if task.task.task_type == "pick_clean_then_place_in_recep" and not out.refused and not _dirtyable(task):
        why.append("the object is not dirtyable")
    return Direction("differ", "; ".join(why) + moved), out, len(run.plan)


def no_plan_cause(task: Task) -> str:
    """Why the ALFRED problem has no plan, when a known cause applies ("" otherwise)."""
    item = task.task
    if item.task_type == "pick_and_place_with_movable_recep":
        return "the goal needs inReceptacleObject, which no action of alfred.pddl adds"
    problem = alfred.AlfredProblem(task)
    problem.text("p")
    kinds = {item.object_target, item.toggle_target}
    floor = sorted(o for o in problem.on_no_receptacle if problem.objects[o] in kinds)
    return "; ".join(f"{o} {problem.unplaced(task.scene, o)}" for o in floor)


def no_reference_cause(task: Task, reason: str) -> str:
    """Why our reference class holds no plan, where the dirtyable rule does not say: a plan exists once the
    prompt's 2 m reach (which LangSuitE never checks) is dropped."""
    if "not dirtyable" in reason or "no plan of the reference class" not in reason:
        return ""
    found = search.solve(_Unreached(task))
    if found.plan is not None:
        return (f"; without the prompt's 2 m reach (LangSuitE checks none) a plan of {len(found.plan)} actions "
                "exists")
    return ""


class _Unreached(Problem):
    """The reference problem without the prompt's manipulation distance."""

    def within_reach(self, node: Node, oid: str, poses: frozenset[int]) -> frozenset[int]:
        return poses


def _dirtyable(task: Task) -> bool:
    target = task.task.object_target
    return any(t.dirtyable for t in task.scene.nodes.values() if t.object_type == target)


def cross_check(item: HouseholdTask, timeout: float = 60.0) -> Row:
    task = Task(item)
    text = alfred.AlfredProblem(task).text(f"alfred-{item.id.lower()}")
    a, mapped = ours_on_alfred(task, text)
    b, out, steps = alfred_on_ours(task, text, timeout)
    return Row(item.id, item.task_type + ("_slice" if item.object_sliced else ""), a, b,
               mapped.added_opens if mapped else 0, steps, len(mapped.knives) if mapped else 0,
               len(out.by_moves) if out else 0)


# Why a direction does not agree, by the text of its detail: (class, what it means)
CLASSES_A = (
    ("no-reference", "dirtyable", "dirtyable-only: LangSuitE never registers the object as cleaned, no plan of "
     "ours succeeds"),
    ("no-reference", "2 m reach", "reach: only the prompt's 2 m reach (which LangSuitE never checks) leaves our "
     "reference class without a plan"),
    ("no-reference", "", "no-reference: no plan of ours"),
    ("gap", "without a knife", "knife: LangSuitE slices without a knife; ALFRED's SliceObject needs one held, "
     "and no knife lies in a receptacle ALFRED knows"),
    ("gap", "slices holding", "knife: LangSuitE slices holding another object; ALFRED's SliceObject needs the "
     "knife held"),
    ("gap", "receptacle object", "movable: a put into a bowl, pot, ...: alfred.pddl has no action for it"),
    ("gap", "a Sink is no receptacle", "sink: LangSuitE cleans in a Sink (the basin's frame); ALFRED only in a "
     "SinkBasin"),
    ("gap", "a Bathtub is no receptacle", "sink: LangSuitE cleans in a Bathtub; ALFRED only in a SinkBasin"),
    ("gap", "no receptacle in ALFRED's table", "substring: LangSuitE's goal matched another type by substring "
     "(a Box task takes a TissueBox, a Pot task a Potato)"),
    ("gap", "on the floor", "floor: the object stands on the floor, which is no receptacle in ALFRED"),
    ("gap", "names no parent", "no-parent: the scene's metadata names no receptacle holding the object; ALFRED's "
     "state then has it in none"),
    ("gap", "the basin's frame", "sink: the object lies in a Sink or Bathtub; ALFRED's receptacle is the basin"),
    ("gap", "receptacle table lacks", "unlisted: the object lies on a receptacle ALFRED's table lacks (a Chair)"),
    ("invalid", "sinkbasintype", "sink: LangSuitE cleans in a Bathtub or its basin; ALFRED only in a SinkBasin"),
    ("invalid", "any lit lamp", "any-lamp: LangSuitE's look-at goal counts any lit lamp in view, of any type"),
    ("invalid", "substituted", "substring: LangSuitE's goal matched another type by substring"),
    ("goal-unmet", "any lit lamp", "any-lamp: LangSuitE's look-at goal counts any lit lamp in view, of any type"),
    ("invalid", "toastertype", "toaster: LangSuitE heats in a toaster, ALFRED only in a microwave"),
    ("goal-unmet", "substituted", "substring: LangSuitE's goal matched another type by substring"),
    ("goal-unmet", "counted it twice", "double-count: one object put, LangSuitE counts it twice (the receptacle "
     "is a root and a child after put: put-root)"),
    ("goal-unmet", "nested", "subtree: LangSuitE counts an object in a receptacle standing in the goal's "
     "receptacle; ALFRED's inReceptacle only the nearest one"),
)
CLASSES_B = (
    ("no-plan", "inReceptacleObject", "movable: the goal needs inReceptacleObject, which no action of alfred.pddl "
     "adds (alfworld skips these tasks)"),
    ("no-plan", "on the floor", "floor: the object (or every lamp) of the goal stands on the floor, no receptacle "
     "in ALFRED"),
    ("no-plan", "names no parent", "no-parent: the scene's metadata names no receptacle holding the goal's object"),
    ("no-plan", "the basin's frame", "sink: the goal's object lies in a Sink or Bathtub; ALFRED's receptacle is the "
     "basin"),
    ("no-plan", "receptacle table lacks", "unlisted: the goal's object lies on a receptacle ALFRED's table lacks"),
    ("differ", "limit reached", "limit: LangSuitE's step limit comes before the stop (moves replace its goto)"),
    ("no-plan", "timed out", "Fast Downward found no plan in time"),
    ("differ", "IndexError", "grid: LangSuitE's goto would raise IndexError (a box past its grid)"),
    ("differ", "Failed to goto", "goto: LangSuitE's goto (its grid planner) does not reach the receptacle"),
    ("differ", "view space", "view: LangSuitE does not show the object or receptacle ALFRED acts on (a receptacle "
     "the metadata lists under several parents is built once under each)"),
    ("differ", "existing", "view: LangSuitE does not show the object or receptacle ALFRED acts on"),
    ("differ", "dirtyable", "dirtyable-only: every reply accepted, LangSuitE never registers the cleaning"),
    ("differ", "goal conditions", "goal: every reply accepted, LangSuitE's goal still unmet"),
)


def reason(direction: Direction, classes: tuple[tuple[str, str, str], ...]) -> str:
    """The named class of an outcome (``agree``, or the first class whose outcome and text match)."""
    if direction.outcome == "agree":
        return "agree"
    for outcome, text, meaning in classes:
        if direction.outcome == outcome and text in direction.detail:
            return meaning.split(":")[0]
    return f"unexplained {direction.outcome}"


TYPES = (("pick and place", "pick_and_place_simple"), ("pick two", "pick_two_obj_and_place"),
         ("look at in light", "look_at_obj_in_light"), ("clean", "pick_clean_then_place_in_recep"),
         ("heat", "pick_heat_then_place_in_recep"), ("cool", "pick_cool_then_place_in_recep"),
         ("movable receptacle", "pick_and_place_with_movable_recep"))


def summary(rows: Iterable[Row]) -> str:
    """The counts of both directions, and the per-type table of ``docs/langsuite.md``."""
    rows = list(rows)
    a = Counter(reason(r.ours_on_alfred, CLASSES_A) for r in rows)
    b = Counter(reason(r.alfred_on_ours, CLASSES_B) for r in rows)
    both = sum(reason(r.ours_on_alfred, CLASSES_A) == "agree" == reason(r.alfred_on_ours, CLASSES_B) for r in rows)
    agreed_a = [r for r in rows if r.ours_on_alfred.outcome == "agree"]
    agreed_b = [r for r in rows if r.alfred_on_ours.outcome == "agree"]
    lines = [f"{len(rows)} tasks, {both} agree both ways",
             "ours on ALFRED: " + ", ".join(f"{k} {v}" for k, v in a.most_common()),
             f"  agreeing with an OpenObject added {sum(r.added_opens > 0 for r in agreed_a)}, "
             f"with a knife taken {sum(r.added_knives > 0 for r in agreed_a)}",
             "ALFRED on ours: " + ", ".join(f"{k} {v}" for k, v in b.most_common()),
             f"  agreeing with a goto replaced by moves and turns {sum(r.gotos_by_moves > 0 for r in agreed_b)}",
             "", "| type | tasks | (a) agree | (a) differs: why | (b) agree | (b) differs: why |",
             "|---|---|---|---|---|---|"]
    for label, kind in TYPES:
        of = [r for r in rows if r.task_type.removesuffix("_slice") == kind]
        ca = Counter(reason(r.ours_on_alfred, CLASSES_A) for r in of)
        cb = Counter(reason(r.alfred_on_ours, CLASSES_B) for r in of)
        why_a = ", ".join(f"{k} {v}" for k, v in sorted(ca.items(), key=lambda kv: (-kv[1], kv[0])) if k != "agree")
        why_b = ", ".join(f"{k} {v}" for k, v in sorted(cb.items(), key=lambda kv: (-kv[1], kv[0])) if k != "agree")
        lines.append(f"| {label} | {len(of)} | {ca['agree']} | {why_a} | {cb['agree']} | {why_b} |")
    return "\n".join(lines)


def row_line(row: Row) -> str:
    """One row as the tab-separated line ``__main__`` prints (and :func:`read_rows` reads back)."""
    return "\t".join((row.task, row.task_type, row.ours_on_alfred.outcome, row.ours_on_alfred.detail,
                      row.alfred_on_ours.outcome, row.alfred_on_ours.detail, f"opens+{row.added_opens}",
                      f"knives+{row.added_knives}", f"moves+{row.gotos_by_moves}"))


def read_rows(lines: Iterable[str]) -> list[Row]:
    """Rows printed by :func:`row_line` (other lines are skipped)."""
    rows = []
    for line in lines:
        f = line.rstrip("\n").split("\t")
        if len(f) == 9 and f[6].startswith("opens+"):
            rows.append(Row(f[0], f[1], Direction(f[2], f[3]), Direction(f[4], f[5]), int(f[6][6:]), None,
                            int(f[7][7:]), int(f[8][6:])))
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    """The command: a row per task of the selectors (or per row of saved files), then the counts."""
    import argparse

    from plancheck.domains.langsuite.household.instance import select
    from plancheck.errors import BadInputError

    parser = argparse.ArgumentParser(
        prog="python -m plancheck.domains.langsuite.household.alfred_check",
        description="Cross-check Household tasks against alfworld's ALFRED domain and goal, both ways: a "
                    "tab-separated row per task, then the counts (docs/langsuite.md).")
    parser.add_argument("selectors", nargs="*", default=["all"], metavar="SELECTOR",
                        help="a task id (FloorPlan1-pick_and_place_simple), a floor plan (FloorPlan1), a task type, "
                             "sample, langsuite-batch or all (the default)")
    parser.add_argument("--rows", nargs="+", metavar="FILE", help="print the counts of rows saved by an earlier run")
    args = parser.parse_args(argv)
    if args.rows:
        done = [row for name in args.rows for row in read_rows(open(name, encoding="utf-8"))]
    else:
        done = []
        try:
            for item in select(args.selectors):
                done.append(cross_check(item))
                print(row_line(done[-1]), flush=True)
        except BadInputError as error:
            parser.error(str(error))
    print(summary(done))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
