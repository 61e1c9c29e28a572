"""The shipped optima are found by a grid's content and setting, never by its id alone."""

from __future__ import annotations

import json
import shutil

from plancheck.cli import main
from plancheck.domains.grasp.catalog import environment
from plancheck.domains.grasp.exact import solve_exact
from plancheck.domains.grasp.optima import content_key, optimum_of, published_optima, shipped_table

ENV = "inner_random_free.jsonl-0-1-0-1"


def _verdict(capsys, *args: str) -> dict:
    main(["check", "grasp", *args, "--json"])
    return json.loads(capsys.readouterr().out)


def test_every_published_grid_has_its_optima_by_content(shared_data):
    table = shipped_table()
    assert len(table.by_content) == len(table.by_id) == 16000  # no two published grids share a content key
    env = environment(ENV, shared_data)
    assert optimum_of(env) == published_optima()[ENV] == {rule: solve_exact(env, rule).value
                                                          for rule in ("paper", "delivered")}


def test_an_edited_grid_under_a_published_id_gets_no_stale_optimum(shared_data, tmp_path, capsys):
    data = tmp_path / "data"
    shutil.copytree(shared_data / "grasp" / "grids", data / "grasp" / "grids")
    grids = data / "grasp" / "grids" / "inner_random_free.jsonl"
    lines = grids.read_text().splitlines()
    record = json.loads(lines[0])
    assert "E" in record["grid"]
    record["grid"] = record["grid"].replace("E", " ", 1)  # one unit of energy less, same id
    lines[0] = json.dumps(record)
    grids.write_text("\n".join(lines) + "\n")
    answer = tmp_path / "answer.txt"
    answer.write_text("[UP, TAKE]")

    published = _verdict(capsys, ENV, str(answer), "--data", str(shared_data))
    edited = _verdict(capsys, ENV, str(answer), "--data", str(data))
    assert published["instance"] == edited["instance"] == ENV
    assert published["optimal"] == published_optima()[ENV] and "optimal" not in edited
    assert content_key(environment(ENV, data).grid, 20) != content_key(environment(ENV, shared_data).grid, 20)
    untouched = "inner_random_free.jsonl-1-1-0-1"  # the other grids of the edited file keep theirs
    assert _verdict(capsys, untouched, str(answer), "--data", str(data))["optimal"] == published_optima()[untouched]


def test_a_copy_of_a_published_grid_in_a_users_file_gets_its_optimum(shared_data, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    line = (shared_data / "grasp" / "grids" / "inner_random_free.jsonl").read_text().splitlines()[0]
    record = {**json.loads(line), "index": 7}
    (tmp_path / "mine.jsonl").write_text(json.dumps(record) + "\n")
    answer = tmp_path / "answer.txt"
    answer.write_text("[UP, TAKE]")
    verdict = _verdict(capsys, "./mine.jsonl-7-1-0-1", "answer.txt")
    assert verdict["instance"] == "./mine.jsonl-7-1-0-1" and verdict["optimal"] == published_optima()[ENV]
