"""Household in alfworld's ALFRED domain: the export, our plans validated there, ALFRED's plans run by LangSuitE."""

from __future__ import annotations

import gzip
import json
import os
import tempfile
from pathlib import Path

import pytest

from plancheck.domains.langsuite import alfworld_data, shipdata
from plancheck.domains.langsuite.alfworld_tables import tables
from plancheck.domains.langsuite.engine.actions import Act
from plancheck.domains.langsuite.household import alfred, alfred_replies
from plancheck.domains.langsuite.household.alfred_check import CLASSES_A, CLASSES_B, cross_check, main, reason
from plancheck.domains.langsuite.household.instance import sample, task
from plancheck.domains.langsuite.household.rules import Task, step
from plancheck.domains.langsuite.household.solve import optimal
from plancheck.translators.pddl_reader import read_domain, read_problem
from plancheck.verifier.pddl_validate import validate_text
from tests.extras import needs_fast_downward

WHEEL = Path(os.environ.get("ALFWORLD_WHEEL", "/tmp/alfw/alfworld-0.4.2-py3-none-any.whl"))
PACKAGE_DATA = Path(shipdata.__file__).resolve().parents[2] / "data" / "langsuite"


@pytest.mark.skipif(not WHEEL.is_file(), reason="the alfworld 0.4.2 wheel is not here (set ALFWORLD_WHEEL)")
def test_the_shipped_alfworld_tables_are_what_the_builder_reads_from_the_wheel():
    with tempfile.TemporaryDirectory() as tmp:
        Path(tmp, "alfworld.json.gz").write_bytes(shipdata._gzip(alfworld_data.extract(WHEEL)))
        assert Path(tmp, "alfworld.json.gz").read_bytes() == (PACKAGE_DATA / "alfworld.json.gz").read_bytes()


def test_alfred_pddl_and_the_goal_library_are_shipped_verbatim_and_the_repairs_are_needed():
    raw = tables()["alfred_pddl"]
    assert raw.startswith(";; Specification in PDDL of the Alfred domain") and len(raw) == 17202
    assert set(json.loads(gzip.decompress((PACKAGE_DATA / "alfworld.json.gz").read_bytes()))["goal_pddl"]) >= {
        "pick_and_place_simple", "look_at_obj_in_light", "pick_and_place_with_movable_recep_slice"}
    with pytest.raises(Exception, match="location,"):
        read_domain(raw, "alfred.pddl")  # the comma in examineObject's quantifier
    domain = read_domain(alfred.domain_text(), "alfred.pddl")
    assert {"gotolocation", "heatobject", "sliceobject"} <= set(domain.actions)
    assert "sinkbasintype" in {c.lower() for c in domain.constants}


def test_the_problem_is_the_scene_at_receptacle_level_with_alfworld_s_goal():
    t = Task(task("FloorPlan10-pick_and_place_simple"))  # "put some egg on microwave"
    problem = alfred.AlfredProblem(t)
    text = problem.text("p")
    read_problem(text, read_domain(alfred.domain_text()), "p")
    assert problem.receptacles["microwave_0"] == "Microwave" and problem.objects["egg_0"] == "Egg"
    assert "(inReceptacle egg_0 fridge_0)" in text and "(openable fridge_0)" in text
    assert "(receptacleType ?r MicrowaveType)" in text and "(objectType ?o EggType)" in text
    assert "#" not in text and text.count("(:goal") == 1


def test_our_optimum_maps_onto_alfred_and_reaches_alfworld_s_goal_with_the_open_alfred_needs():
    t = Task(task("FloorPlan10-pick_and_place_simple"))
    mapped = alfred.from_reference(t, optimal(t).acts)  # LangSuitE's put ignores the closed microwave
    assert mapped.gap is None and mapped.added_opens == 1
    assert "(openobject agent1 loc_microwave_0 microwave_0)" in mapped.steps
    report = validate_text(alfred.domain_text(), alfred.AlfredProblem(t).text("p"), "\n".join(mapped.steps))
    assert report.failure is None and not report.unmet_goals
    without = "\n".join(s for s in mapped.steps if s != "(openobject agent1 loc_microwave_0 microwave_0)")
    failed = validate_text(alfred.domain_text(), alfred.AlfredProblem(t).text("p"), without).failure
    assert failed is not None and "opened microwave_0" in failed.reason + " ".join(failed.unmet)


def test_what_alfred_cannot_express_is_named():
    movable = Task(task("FloorPlan1-pick_and_place_with_movable_recep"))  # tomato into a pot
    assert "receptacle object" in alfred.from_reference(movable, optimal(movable).acts).gap
    lamp = Task(task("FloorPlan220-look_at_obj_in_light"))  # the floor lamp stands on the floor
    toggle = Act("ToggleOn", lamp.scene.names.ids["floorlamp_0"])  # the first manipulation of its optimum
    assert "on the floor" in alfred.from_reference(lamp, [toggle]).gap
    text = alfred.AlfredProblem(lamp).text("p")  # placed as alfworld places it: a location of its own, no receptacle
    assert "(objectAtLocation floorlamp_0 loc_floorlamp_0)" in text and "(inReceptacle floorlamp_0" not in text
    sink = Task(task("FloorPlan12-pick_and_place_simple"))  # the lettuce lies in the Sink, not its SinkBasin
    pick = Act("PickUp", sink.scene.names.ids["lettuce_0"])
    assert "the basin's frame" in alfred.from_reference(sink, [pick]).gap


def test_our_sliced_plan_takes_the_knife_alfred_s_slice_needs():
    t = Task(task("FloorPlan1-pick_and_place_simple"))  # "put sliced lettuce on countertop": LangSuitE needs no knife
    mapped = alfred.from_reference(t, optimal(t).acts)
    assert mapped.gap is None and mapped.knives == ("butterknife_0",)
    assert mapped.steps[1:4] == ("(pickupobject agent1 loc_countertop_0 butterknife_0 countertop_0)",
                                 "(gotolocation agent1 loc_countertop_0 loc_countertop_2 countertop_2)",
                                 "(sliceobject agent1 loc_countertop_2 lettuce_0 butterknife_0)")
    assert mapped.steps[-1].startswith("(putobject agent1 loc_countertop_0 butterknife_0 countertop_0")


@pytest.mark.slow
def test_our_sliced_plan_with_the_knife_is_a_valid_alfred_plan_reaching_alfworld_s_goal():
    t = Task(task("FloorPlan1-pick_and_place_simple"))  # 15 s: the slice goal's exists over object pairs
    mapped = alfred.from_reference(t, optimal(t).acts)
    problem = alfred.AlfredProblem(t).text("p")
    report = validate_text(alfred.domain_text(), problem, "\n".join(mapped.steps))
    assert report.failure is None and not report.unmet_goals
    without = "\n".join(s for s in mapped.steps if "butterknife_0" not in s or s.startswith("(slice"))
    failed = validate_text(alfred.domain_text(), problem, without).failure
    assert failed is not None and "holds agent1 butterknife_0" in failed.reason + " ".join(failed.unmet)


def test_where_langsuite_s_goto_would_raise_alfred_s_goto_becomes_moves():
    t = Task(task("FloorPlan409-pick_two_obj_and_place"))  # a box reaches past LangSuitE's goto grid
    steps = ["(gotolocation agent1 loc_start loc_drawer_2 drawer_2)", "(openobject agent1 loc_drawer_2 drawer_2)",
             "(pickupobject agent1 loc_drawer_2 toiletpaper_0 drawer_2)",
             "(gotolocation agent1 loc_drawer_2 loc_toiletpaperhanger_0 toiletpaperhanger_0)",
             "(putobject agent1 loc_toiletpaperhanger_0 toiletpaper_0 toiletpaperhanger_0 toiletpapertype "
             "toiletpaperhangertype)",
             "(gotolocation agent1 loc_toiletpaperhanger_0 loc_garbagecan_0 garbagecan_0)",
             "(pickupobject agent1 loc_garbagecan_0 toiletpaper_1 garbagecan_0)",
             "(gotolocation agent1 loc_garbagecan_0 loc_toiletpaperhanger_0 toiletpaperhanger_0)",
             "(putobject agent1 loc_toiletpaperhanger_0 toiletpaper_1 toiletpaperhanger_0 toiletpapertype "
             "toiletpaperhangertype)"]
    assert validate_text(alfred.domain_text(), alfred.AlfredProblem(t).text("p"), "\n".join(steps)).failure is None
    high = Task(t.task, "high")
    opened = step(high, high.initial(), "YES").turn
    assert "IndexError" in step(high, opened, "Act: goto [drawer_2]").turn.crashed
    out = alfred_replies.to_replies(t, steps)
    assert out.success and not out.refused and "Act: goto [drawer_2]" not in out.replies
    assert out.by_moves[0] == "goto [drawer_2]: 1 moves and turns" and "Act: turn_left" in out.replies


def test_alfred_s_heat_becomes_langsuite_s_put_toggle_pick_up_and_succeeds():
    t = Task(task("FloorPlan1-pick_heat_then_place_in_recep"))  # Fast Downward's plan for the ALFRED problem
    steps = ["(gotolocation agent1 loc_start loc_cabinet_7 cabinet_7)", "(openobject agent1 loc_cabinet_7 cabinet_7)",
             "(pickupobject agent1 loc_cabinet_7 plate_0 cabinet_7)",
             "(gotolocation agent1 loc_cabinet_7 loc_microwave_0 microwave_0)",
             "(heatobject agent1 loc_microwave_0 microwave_0 plate_0)",
             "(gotolocation agent1 loc_microwave_0 loc_cabinet_7 cabinet_7)",
             "(putobject agent1 loc_cabinet_7 plate_0 cabinet_7 platetype cabinettype)"]
    assert validate_text(alfred.domain_text(), alfred.AlfredProblem(t).text("p"), "\n".join(steps)).failure is None
    out = alfred_replies.to_replies(t, steps)
    assert out.success and out.conditions == (3, 3) and not out.refused
    assert "Act: toggle_on [microwave_0]" in out.replies and "Act: heat [plate_0, microwave_0]" not in out.replies


@needs_fast_downward
@pytest.mark.slow
def test_both_routes_on_many_tasks_agree_or_differ_for_a_named_reason():
    rows = [cross_check(task(tid)) for tid in sample(30)]
    for row in rows:
        a, b = reason(row.ours_on_alfred, CLASSES_A), reason(row.alfred_on_ours, CLASSES_B)
        assert not a.startswith("unexplained") and not b.startswith("unexplained"), row
        if "movable_recep" in row.task_type:
            assert row.alfred_on_ours.outcome == "no-plan" and "unsolvable" in row.alfred_on_ours.detail
        if a == "agree" and row.task_type in ("pick_and_place_simple", "pick_two_obj_and_place"):
            assert b in ("agree", "goto", "view", "grid", "limit"), row  # LangSuitE may not show or reach it
    assert sum(reason(r.ours_on_alfred, CLASSES_A) == "agree" for r in rows) >= 10
    assert sum(reason(r.alfred_on_ours, CLASSES_B) == "agree" for r in rows) >= 12




def test_the_cross_check_command_reads_saved_rows_and_refuses_an_unknown_task(tmp_path, capsys):
    rows = tmp_path / "rows.tsv"
    rows.write_text("FloorPlan1-pick_and_place_simple\tpick_and_place_simple\tagree\t6 ALFRED steps\tagree\t"
                    "6 replies\topens+0\tknives+1\tmoves+0\nnot a row\n")
    assert main(["--rows", str(rows)]) == 0
    assert "1 tasks, 1 agree both ways" in capsys.readouterr().out
    with pytest.raises(SystemExit) as refused:
        main(["FloorPlan1-no_such_task"])
    assert refused.value.code == 2 and "unknown Household task" in capsys.readouterr().err
