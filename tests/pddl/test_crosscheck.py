"""Cross-check the validator against unified-planning's SequentialPlanValidator (and VAL when on PATH)
on the corpus's reference plans and seeded mutations of them: same valid/invalid verdict, and the
same first failing step when both report one."""

from __future__ import annotations

import re
import shutil
import subprocess
import zlib

import pytest

from plancheck.translators.pddl_plan import plan_text
from plancheck.verifier.pddl_validate import validate_text
from tests.pddl.corpus import cases, mutations

MUTANTS_PER_PLAN = 25


@pytest.fixture(scope="module")
def up_tools():
    pytest.importorskip("unified_planning", reason="needs unified-planning: pip install 'plancheck[planners]'")
    import unified_planning.shortcuts as up
    from unified_planning.engines import SequentialPlanValidator
    from unified_planning.engines.results import ValidationResultStatus
    from unified_planning.io import PDDLReader

    up.get_environment().credits_stream = None
    return PDDLReader, SequentialPlanValidator, ValidationResultStatus


def _up_verdict(tools, reader, problem, text: str) -> tuple[bool, int | None, float | None]:
    """UP's verdict: valid, the 1-based failing step (or None), the metric value of a valid plan."""
    _, validator_class, status = tools
    plan = reader.parse_plan_string(problem, text)
    result = validator_class().validate(problem, plan)
    step = None
    if result.inapplicable_action is not None:
        step = next(i for i, action in enumerate(plan.actions, start=1) if action is result.inapplicable_action)
    metrics = list((result.metric_evaluations or {}).values())
    return result.status is status.VALID, step, float(metrics[0]) if metrics else None


@pytest.mark.parametrize("case", cases(), ids=lambda case: case.name)
def test_agrees_with_unified_planning(case, up_tools):
    reader = up_tools[0]()
    problem = reader.parse_problem(str(case.domain_path), str(case.problem_path))
    domain_text, problem_text = case.domain_path.read_text(), case.problem_path.read_text()
    plans = [("reference", case.plan_text)] + [
        (kind, plan_text(steps))
        for kind, steps in mutations(case, MUTANTS_PER_PLAN, seed=zlib.crc32(case.name.encode()))]
    invalid = 0
    for kind, text in plans:
        ours = validate_text(domain_text, problem_text, text)
        valid, step, cost = _up_verdict(up_tools, reader, problem, text)
        assert ours.valid == valid, f"{kind} mutant:\n{text}\nours: {ours.text()}"
        if valid and cost is not None:
            assert ours.cost == cost
        if ours.failure is not None or step is not None:
            assert ours.failure is not None and ours.failure.step == step, f"{kind} mutant:\n{text}\n{ours.text()}"
        invalid += not valid
    assert invalid >= MUTANTS_PER_PLAN // 3  # the mutations do produce invalid plans to compare on


def _val_binary() -> str | None:
    return shutil.which("validate") or shutil.which("Validate")


@pytest.mark.skipif(_val_binary() is None, reason="VAL (validate) is not on PATH")
@pytest.mark.parametrize("case", cases(), ids=lambda case: case.name)
def test_agrees_with_val(case, tmp_path):
    for index, (kind, steps) in enumerate([("reference", None)] + mutations(case, 10, seed=7)):
        plan = tmp_path / f"plan{index}"
        plan.write_text(case.plan_text if steps is None else plan_text(steps))
        done = subprocess.run([_val_binary(), "-v", str(case.domain_path), str(case.problem_path), str(plan)],
                              capture_output=True, text=True, timeout=60)
        ours = validate_text(case.domain_path.read_text(), case.problem_path.read_text(), plan.read_text())
        assert ("Plan valid" in done.stdout) == ours.valid, f"{kind}: {done.stdout[-500:]}"
        failed = re.search(r"Plan failed because of unsatisfied precondition in:\s*\(([^)]*)\)", done.stdout)
        if failed and ours.failure is not None:
            assert ours.failure.action == f"({failed.group(1).lower()})"
