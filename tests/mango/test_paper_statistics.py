"""The paper's map statistics (Table 6) against the release data, and reading damaged game folders (issue 21, item 5).

Table 6 as printed, for the 15 games the shared data holds. With the paper's definition of easy route
finding (a *shortest* revealed route was walked forward) 11 of them are reproduced exactly; with the
release's (any revealed route was walked forward) only 9: advent and zork1 differ in their RF columns
alone. The other 4 games' maps changed after the paper (their edge files have another number of rows).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from plancheck.cli import main
from plancheck.domains.mango.game import load_game
from plancheck.domains.mango.instance import select
from plancheck.domains.mango.prompts import prompt_text
from plancheck.domains.mango.report import paper_row
from plancheck.errors import BadInputError

# map: locs, edges, avg len path, steps, DF easy, DF hard, RF easy, RF hard (the paper's Table 6)
PAPER = {
    "905": (5, 7, 1.88, 21, 11, 5, 11, 5), "advent": (31, 57, 7.79, 70, 692, 100, 532, 100),
    "deephome": (27, 49, 4.83, 70, 429, 19, 429, 19), "detective": (32, 40, 8.79, 50, 505, 4, 505, 4),
    "huntdark": (12, 11, 4.33, 66, 66, 0, 66, 0), "library": (7, 12, 2.48, 51, 42, 0, 42, 0),
    "loose": (12, 21, 4.18, 49, 94, 27, 94, 27), "lostpig": (7, 11, 2.28, 70, 22, 14, 22, 14),
    "moonlit": (6, 9, 2.2, 58, 18, 7, 18, 7), "night": (20, 41, 6.93, 70, 633, 59, 380, 0),
    "partyfoul": (4, 9, 1.97, 55, 24, 6, 11, 1), "pentari": (18, 30, 3.72, 48, 208, 4, 208, 4),
    "snacktime": (4, 6, 1.5, 33, 12, 0, 12, 0), "zork1": (19, 34, 7.16, 70, 351, 46, 279, 45),
    "ztuu": (15, 26, 3.15, 70, 183, 0, 183, 0),
}
SAME_MAP = {"905", "advent", "deephome", "library", "loose", "lostpig", "moonlit", "night", "snacktime", "zork1",
            "ztuu"}


def _rows(shared_data: Path, rule: str) -> dict[str, tuple]:
    return {name: tuple(paper_row(load_game(shared_data / "mango" / name), 70, rule).values()) for name in PAPER}


def test_the_papers_definitions_reproduce_table6_where_the_maps_did_not_change(shared_data):
    paper, release = _rows(shared_data, "paper"), _rows(shared_data, "release")
    assert {name for name, row in paper.items() if row == PAPER[name]} == SAME_MAP
    assert {name for name, row in release.items() if row == PAPER[name]} == SAME_MAP - {"advent", "zork1"}
    for name in ("advent", "zork1"):  # only the RF split differs under the release's definition
        assert release[name][:6] == PAPER[name][:6] and release[name][6:] != PAPER[name][6:]
        assert sum(release[name][6:]) == sum(PAPER[name][6:])
    for name in set(PAPER) - SAME_MAP:  # maps changed after the paper: another number of edges
        assert paper[name][1] != PAPER[name][1]


def test_steps_used_are_the_cutoff_capped_below_the_last_move(shared_data):
    game = load_game(shared_data / "mango" / "905")
    assert len(game.steps) - 1 == 22 and paper_row(game, 70, "paper")["steps"] == 21
    assert paper_row(game, 10, "paper")["steps"] == 10


def test_difficulty_reaches_instances_verdicts_and_the_cli(shared_data, capsys):
    hard = [i for i in select(["advent/rf"], shared_data, 70, True, "paper") if i.difficulty.value == "hard"]
    assert len(hard) == 100 and len([i for i in select(["advent/rf"], shared_data, 70, True)
                                     if i.difficulty.value == "hard"]) == 10
    assert main(["stats", "mango", "advent", "--difficulty", "paper", "--json", "--data", str(shared_data)]) == 0
    counts = json.loads(capsys.readouterr().out)["games"]["advent"]
    assert (counts["RF easy"], counts["RF hard"], counts["DF easy"], counts["DF hard"]) == (532, 100, 692, 100)
    assert main(["stats", "mango", "905", "zork1", "--table", "paper", "--difficulty", "paper",
                 "--data", str(shared_data)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].split() == ["map", "locs", "edges", "avg", "len", "path", "steps", "DF", "easy", "DF", "hard",
                                "RF", "easy", "RF", "hard"]
    assert lines[3].split() == ["905", "5", "7", "1.88", "21", "11", "5", "11", "5"]
    assert lines[4].split() == ["zork1", "19", "34", "7.16", "70", "351", "46", "279", "45"]
    question = hard[0]
    assert main(["instances", "mango", question.id, "--difficulty", "paper", "--json",
                 "--data", str(shared_data)]) == 0
    assert json.loads(capsys.readouterr().out)["difficulty"] == "hard"


def _copy(shared_data: Path, tmp_path: Path, name: str = "905") -> Path:
    folder = tmp_path / name
    shutil.copytree(shared_data / "mango" / name, folder)
    return folder


def test_a_game_with_crlf_line_ends_reads_as_the_release(shared_data, tmp_path):
    folder = _copy(shared_data, tmp_path)
    for path in folder.iterdir():
        path.write_bytes(path.read_bytes().replace(b"\n", b"\r\n"))
    assert b"\r\n" in (folder / "905.walkthrough").read_bytes()
    crlf, original = load_game(folder), load_game(shared_data / "mango" / "905")
    assert crlf.steps == original.steps and crlf.walkthrough == original.walkthrough
    assert (crlf.df, crlf.rf, crlf.edges) == (original.df, original.rf, original.edges)
    mine = [prompt_text(i) for i in select([str(folder)], None)]
    theirs = [prompt_text(i) for i in select([str(shared_data / "mango" / "905")], None)]
    assert mine == theirs and len(mine) == 36 and "\r" not in "".join(mine)


def test_repeated_question_lines_are_reported_and_read_once(shared_data, tmp_path, capsys):
    folder = _copy(shared_data, tmp_path)
    pairs = folder / "905.all_pairs.jsonl"
    lines = pairs.read_text().splitlines()
    pairs.write_text("\n".join(lines + [lines[3], lines[0]]) + "\n")
    assert main(["stats", "mango", str(folder), "--json"]) == 0  # the first load of the folder says it
    out, err = capsys.readouterr()
    data = json.loads(out)
    assert data["games"]["905"]["RF"] == 20 and len(data["duplicate_lines"]["905"]) == 2
    assert "plancheck: note: 905.all_pairs.jsonl line 21 repeats line 4" in err
    game = load_game(folder)
    assert len(game.rf) == 20 and game.duplicates == (
        f"905.all_pairs.jsonl line 21 repeats line 4 (rf {json.loads(lines[3])['id'][:12]}...)",
        f"905.all_pairs.jsonl line 22 repeats line 1 (rf {json.loads(lines[0])['id'][:12]}...)")
    answers = tmp_path / "answers.jsonl"
    answers.write_text(json.dumps({"instance": f"{folder}/rf/{json.loads(lines[3])['id']}", "response": "[]"}))
    assert main(["evaluate", "mango", str(answers), "--summary", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["records"] == 1


def test_a_repeated_question_with_other_labels_is_bad_input(shared_data, tmp_path):
    folder = _copy(shared_data, tmp_path)
    pairs = folder / "905.all_pairs.jsonl"
    lines = pairs.read_text().splitlines()
    changed = {**json.loads(lines[2]), "min_step_forward": 1}
    pairs.write_text("\n".join(lines + [json.dumps(changed)]) + "\n")
    with pytest.raises(BadInputError) as error:
        load_game(folder)
    assert error.value.location.line == 21 and "of line 3 appears again" in error.value.message
