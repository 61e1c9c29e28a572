"""Files saved by editors that prepend a UTF-8 byte-order mark read like files without one."""

from __future__ import annotations

import json

from plancheck.cli import main
from plancheck.domains.mango.world import WORLD as MANGO
from plancheck.domains.smartplay.hanoi.instance import HanoiInstance
from plancheck.domains.smartplay.hanoi.pddl import DOMAIN_FILE, export, to_pddl_plan
from plancheck.domains.smartplay.hanoi.solve import recursive_plan
from plancheck.domains.smartplay.hanoi.world import WORLD as HANOI
from plancheck.translators.pddl_plan import plan_text

BOM = "\ufeff"


def test_jsonl_answer_files_with_a_byte_order_mark(tmp_path):
    hanoi = tmp_path / "hanoi.jsonl"
    hanoi.write_text(BOM + json.dumps({"instance": "hanoi-3", "response": "A->C"}) + "\n", encoding="utf-8")
    assert [record.instance for record in HANOI.read_answers(hanoi, None)] == ["hanoi-3"]
    mango = tmp_path / "mango.jsonl"
    mango.write_text(BOM + json.dumps({"instance": "905/rf/1", "response": "[]"}) + "\n", encoding="utf-8")
    assert [record.instance for record in MANGO.read_answers(mango, None)] == ["905/rf/1"]


def test_pddl_files_with_a_byte_order_mark(tmp_path, capsys):
    instance = HanoiInstance(3)
    written = {name: tmp_path / name for name in export(instance)}
    for name, text in export(instance).items():
        written[name].write_text(BOM + text, encoding="utf-8")
    plan = tmp_path / "plan.txt"
    plan.write_text(BOM + plan_text(to_pddl_plan(instance, recursive_plan(3))), encoding="utf-8")
    problem = next(path for name, path in written.items() if name != DOMAIN_FILE)
    assert main(["validate", str(written[DOMAIN_FILE]), str(problem), str(plan)]) == 0, capsys.readouterr().err
