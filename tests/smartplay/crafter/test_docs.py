"""The console examples of docs/smartplay.md's Crafter section give the output shown.

A block's ``$ plancheck ...`` lines run in a scratch folder that sees the repository's ``tests``;
the lines that follow a command are its output: all of it, or, for a command marked ``# abridged``,
lines that appear in it in that order. Timings (``"seconds": ...``) are not compared.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from plancheck.cli import main

DOCS = Path(__file__).resolve().parents[3] / "docs" / "smartplay.md"
TESTS = Path(__file__).resolve().parents[2]


def _commands() -> list[tuple[str, list[str]]]:
    text = DOCS.read_text(encoding="utf-8")
    section = text[text.index("\n## Crafter\n"):]
    section = section[:section.find("\n## ", 1)] if "\n## " in section[1:] else section
    found = []
    for block in re.findall(r"```\n(.*?)```", section, flags=re.S):
        lines = block.splitlines()
        for index, line in enumerate(lines):
            if line.startswith("$ plancheck "):
                output = []
                for after in lines[index + 1:]:
                    if after.startswith("$ "):
                        break
                    output.append(after)
                found.append((line[2:], output))
    return found


def _masked(text: str) -> str:
    return re.sub(r'"seconds": [0-9.]+', '"seconds": _', text)


@pytest.mark.slow
def test_the_crafter_examples_give_their_output(tmp_path, monkeypatch, capsys):
    commands = _commands()
    assert len(commands) >= 5
    (tmp_path / "tests").symlink_to(TESTS)
    monkeypatch.chdir(tmp_path)
    for command, expected in commands:
        abridged = "# abridged" in command
        words = shlex.split(command.split("#")[0])[1:]
        code = main(words)
        out = capsys.readouterr().out
        assert code in (0, 1), command
        got = _masked(out).splitlines()
        want = [_masked(line) for line in expected]
        if abridged:
            at = 0
            for line in want:
                assert line in got[at:], (command, line)
                at = got.index(line, at) + 1
        else:
            assert got == want, command
