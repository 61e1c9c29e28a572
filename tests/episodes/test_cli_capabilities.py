"""The command line decides by a world's declared capabilities, never by guessing from a file:
a world with episodes and answers takes both forms of check, and evaluate tells logs by their header."""

from __future__ import annotations

import json

import pytest

import plancheck.cli as cli
import plancheck.cli.parser as cli_parser
from plancheck.registry import get_world
from plancheck.world import Capability, WorldBase


class Both:
    """Hanoi's one-shot answers plus the bandit's episodes, as a world declaring both would."""

    def __init__(self):
        self.one_shot, self.episodic = get_world("hanoi"), get_world("bandits")
        self.name, self.title = "both", "answers and episodes"
        self.capabilities = frozenset({Capability.CHECK, Capability.EVALUATE, Capability.PLAY, Capability.ANSWERS})
        self.episodes = self.episodic.episodes
        self.options = tuple(o for o in self.one_shot.options if "check" in o.commands)

    supports, commands, require, missing = WorldBase.supports, WorldBase.commands, WorldBase.require, WorldBase.missing
    requires = ()

    def __getattr__(self, name):
        return getattr(self.one_shot, name)


@pytest.fixture
def both(monkeypatch):
    world = Both()
    monkeypatch.setattr(cli_parser, "world_names", lambda: ("both",))
    monkeypatch.setattr(cli_parser, "get_world", lambda name: world)
    monkeypatch.setattr(cli, "get_world", lambda name: world)
    return world


def test_check_takes_an_answer_or_an_episode_log_by_the_number_of_arguments(both, tmp_path, capsys):
    answer = tmp_path / "answer.txt"
    answer.write_text("A->C\nA->B\nC->B\nA->C\nB->A\nB->C\nA->C\n")
    assert cli.main(["check", "both", "hanoi-3", str(answer)]) == 0
    assert "PASS" in capsys.readouterr().out
    log = tmp_path / "log.jsonl"
    assert cli.main(["play", "both", "BanditTwoArmedHighLowFixed", "--policy", "oracle", "-o", str(log)]) == 0
    assert cli.main(["check", "both", str(log)]) == 0
    assert "episode log" in capsys.readouterr().out
    assert cli.main(["check", "both", "a", "b", "c"]) == 2
    assert "takes an instance and an answer file, or an episode log" in capsys.readouterr().err


def test_evaluate_reads_a_file_as_an_episode_log_when_it_starts_with_a_header(both, tmp_path, capsys):
    log = tmp_path / "log.jsonl"
    assert cli.main(["play", "both", "BanditTwoArmedHighLowFixed", "--policy", "bayes", "-o", str(log)]) == 0
    answers = tmp_path / "answers.jsonl"
    answers.write_text(json.dumps({"instance": "hanoi-3", "response": "A->C, A->B"}) + "\n")
    capsys.readouterr()
    assert cli.main(["evaluate", "both", str(log), str(answers)]) == 0
    items = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [item["instance"] for item in items] == ["BanditTwoArmedHighLowFixed", "hanoi-3"]
    assert items[0]["verdict"]["form"].startswith("episode log") and items[1]["verdict"]["actions"] == ["A->C", "A->B"]
