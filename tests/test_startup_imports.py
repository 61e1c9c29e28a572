"""A single ``check`` imports only what checking needs: no drawing, no graphs, no planners (issue 22's start-up)."""

from __future__ import annotations

import subprocess
import sys

import pytest

HEAVY = ("plancheck.drawing.shapes", "networkx", "plancheck.solvers.external", "unified_planning", "minigrid")

CHECKS = {
    "grasp": ("inner_cluster_block.jsonl-0-0-0-0", "[DOWN, TAKE, UP, DROP]"),
    "hanoi": ("hanoi-1", "A->C"),
    "mango": ("zork1/df/abff93fa369a032276d6dc3dd28517a97ae4e506858437b833e43ebd0c16542e",
              '[{"location_before": "West of House", "action": "north", "location_after": "North of House"}]'),
}

NOT_NEEDED = {"mango": ("lark",),  # a plain literal list is read without the free-text grammar
              "hanoi": ("plancheck.episodes.committed",)}  # a one-shot answer, no episode machinery


@pytest.mark.parametrize("world", sorted(CHECKS))
def test_a_single_check_leaves_the_heavy_modules_unimported(world, tmp_path, shared_data):
    instance, answer = CHECKS[world]
    unwanted = HEAVY + NOT_NEEDED.get(world, ())
    (tmp_path / "answer.txt").write_text(answer + "\n")
    code = ("import sys, contextlib, io\nfrom plancheck.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            f"    code = main(['check', {world!r}, {instance!r}, {str(tmp_path / 'answer.txt')!r},"
            f" '--data', {str(shared_data)!r}])\n"
            f"print(code, [name for name in {unwanted!r} if name in sys.modules])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    exit_code, loaded = out.split(" ", 1)
    assert exit_code in {"0", "1"}, out  # the check ran to a verdict
    assert loaded.strip() == "[]"


def test_the_grasp_facade_offers_the_planners_solve_knows():
    from plancheck.domains.grasp import solve, world

    assert world.PLANNERS == solve.PLANNERS  # the facade keeps its own copy so that a check does not import solve
