"""The console examples of docs/smartplay.md's Messenger section run and print what the page shows.

A ``$ plancheck ...`` or ``$ python ...`` line is a command (run in one fresh folder, in page order); the
lines after it are its output (standard output and error together). ``...`` on a line of its own stands
for any lines; ``<any>`` inside a line for any text.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

from plancheck.cli import main

REPO = Path(__file__).resolve().parents[3]
SECTION = "## Messenger"


def examples() -> list[tuple[str, list[str]]]:
    text = (REPO / "docs" / "smartplay.md").read_text(encoding="utf-8")
    section = text[text.index(SECTION):]
    following = section.find("\n## ", len(SECTION))
    section = section if following < 0 else section[:following]
    found: list[tuple[str, list[str]]] = []
    for block in re.findall(r"```console\n(.*?)```", section, re.S):
        for line in block.splitlines():
            if line.startswith("$ "):
                found.append((line[2:], []))
            else:
                found[-1][1].append(line)
    return found


def matches(expected: list[str], got: list[str]) -> bool:
    if not expected:
        return not got
    if expected[0] == "...":
        return any(matches(expected[1:], got[i:]) for i in range(len(got) + 1))
    pattern = ".*".join(re.escape(part) for part in expected[0].split("<any>"))
    return bool(got) and re.fullmatch(pattern, got[0]) is not None and matches(expected[1:], got[1:])


def run(command: str, folder: Path) -> list[str]:
    """The lines a command prints: ``plancheck`` runs in this process, ``python`` as a subprocess."""
    words = shlex.split(command)
    if words[0] == "python":
        env = {**os.environ, "PYTHONPATH": str(REPO)}
        done = subprocess.run([sys.executable, *words[1:]], cwd=folder, env=env, capture_output=True, text=True,
                              timeout=120)
        return (done.stdout + done.stderr).splitlines()
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        main(words[1:])
    return (out.getvalue() + err.getvalue()).splitlines()


def test_the_messenger_examples_print_what_the_page_shows(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    commands = examples()
    assert len(commands) >= 10
    for command, expected in commands:
        got = run(command, tmp_path)
        shown, printed = "\n".join(expected), "\n".join(got)
        assert matches(expected, got), f"$ {command}\n--- the page shows:\n{shown}\n--- it printed:\n{printed}"
