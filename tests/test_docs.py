"""Every console example of README.md and docs/ runs and prints what the page shows.

A console example is a fenced block whose first line starts with ``$ ``. Its commands run in order in one bash
session (``cd`` carries over) in a fresh folder laid out like a checkout: ``T/work`` holds a copy of the repository
(``plancheck/`` linked, so ``python -m plancheck`` runs this checkout's code) and is the working folder, and
``T/shared`` is the real shared folder (the parent of ``$PLANCHECK_DATA``), so ``../shared/data/...``,
``tests/data/pddl`` and ``benchmarks/...`` resolve as they do beside a checkout. ``plancheck`` is a shell function
calling ``python -m plancheck`` with this checkout first on ``PYTHONPATH``; ``$PLANCHECK_DATA`` is unset, so
commands find the data the documented way (``shared/data`` next to the working folder). Standard input is empty;
standard output and standard error are shown together, as on a terminal.

The conventions (docs/writing-docs.md explains them to authors):

* A command is a ``$ `` line (continued while a line ends with ``\\``); its output is the lines up to the next
  command. Trailing blanks of every line and blank lines at the end of an output are ignored.
* Exact by default: the output shown is the real output, line for line. A line ``...`` stands for any number of
  lines (none included).
* A command marked ``# abridged`` (a shell comment, e.g. ``# abridged: hashes shortened``): the lines shown must
  appear in the real output in that order (others may come between them), and ``...`` inside a line matches any
  text.
* Timings: the value of a JSON or Python-dict field named ``seconds`` or ``<something>_seconds`` is replaced by
  ``<seconds>`` on both sides before comparing (``"seconds": 0.0086``). Other timings must be left out with
  ``...`` in an abridged command.
* ``$ cat FILE`` of a file that does not exist yet creates it from the output shown (plus a final newline): that
  is how a page shows an input file. The page shows the whole file: no ``...`` line, not abridged.
* Exit codes are compared only where the page shows them (``$ echo $?``). A Python traceback in the real output
  fails the example unless the page shows one.
* Block directives, HTML comments on the lines right above the fence: ``<!-- doctest: slow -->`` (the example
  takes more than about 5 s; it runs with ``-m slow``) and ``<!-- doctest: skip -- REASON -->`` (it cannot run
  here, e.g. benchmark timings; the reason is required and reported). An unknown or misplaced directive fails.

Each example is one test, named by its page and the line of its fence (``docs/mango.md:171``).
"""

from __future__ import annotations

import difflib
import os
import re
import shutil
import signal
import subprocess
import sys
import uuid
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
PAGES = [REPO / "README.md", *sorted((REPO / "docs").rglob("*.md"))]
FENCE = re.compile(r"^(?P<indent> {0,3})(?P<fence>`{3,}|~{3,})")
DIRECTIVE = re.compile(r"^\s*<!--\s*doctest:\s*(?P<text>.*?)\s*-->\s*$")
ABRIDGED = re.compile(r"#\s*abridged\b")
CAT = re.compile(r"^cat\s+(?P<file>[\w./-]+)\s*(#.*)?$")
TIMING = re.compile(r"""(?P<key>(?P<q>["'])(?:\w+_)?seconds(?P=q):\s*)-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?""")
TRACEBACK = "Traceback (most recent call last)"
TIMEOUT = 1800


@dataclass(frozen=True)
class Command:
    """One ``$`` command of an example and the output its page shows."""

    line: int
    text: str
    shown: tuple[str, ...]

    @property
    def abridged(self) -> bool:
        return bool(ABRIDGED.search(self.text.splitlines()[-1]))

    @property
    def creates(self) -> str | None:
        """The file a ``$ cat FILE`` shows (created from the output shown when it does not exist)."""
        match = CAT.match(self.text)
        return match["file"] if match else None


@dataclass(frozen=True)
class Example:
    """One console block: its page, the line of its fence, its commands and directives."""

    page: str
    line: int
    commands: tuple[Command, ...]
    slow: bool = False
    skip: str | None = None
    problem: str | None = None

    @property
    def id(self) -> str:
        return f"{self.page}:{self.line}"


def _directives(lines: list[str], fence: int) -> tuple[list[str], list[int]]:
    """The directive texts on the lines right above the fence (index ``fence``), and their indices."""
    texts, used = [], []
    row = fence - 1
    while row >= 0 and (match := DIRECTIVE.match(lines[row])):
        texts.insert(0, match["text"])
        used.append(row)
        row -= 1
    return texts, used


def _commands(body: list[str], first: int) -> tuple[Command, ...]:
    """Split a block's lines (the first at page line ``first``) into commands and the output shown."""
    commands: list[Command] = []
    row = 0
    while row < len(body):
        start, text = row, [body[row][2:]]
        while text[-1].endswith("\\") and row + 1 < len(body):
            row += 1
            text.append(body[row])
        row += 1
        shown = []
        while row < len(body) and not body[row].startswith("$ "):
            shown.append(body[row].rstrip())
            row += 1
        while shown and not shown[-1]:
            shown.pop()
        commands.append(Command(first + start, "\n".join(text), tuple(shown)))
    return tuple(commands)


def _example(page: str, fence_line: int, body: list[str], directives: list[str]) -> Example:
    commands = _commands(body, fence_line + 1)
    slow, skip, problems = False, None, []
    for text in directives:
        if text == "slow":
            slow = True
        elif text == "skip" or text.startswith(("skip ", "skip--")):
            reason = text[len("skip"):].strip().removeprefix("--").strip()
            if not reason:
                problems.append("a skip directive needs a reason: <!-- doctest: skip -- REASON -->")
            skip = reason
        else:
            problems.append(f"unknown directive {text!r} (known: slow, skip -- REASON)")
    for command in commands:
        if command.creates and (command.abridged or "..." in command.shown):
            problems.append(f"line {command.line}: `cat {command.creates}` shows a file, so it must be shown whole")
    return Example(page, fence_line, commands, slow, skip, "; ".join(problems) or None)


def page_examples(path: Path, root: Path = REPO) -> list[Example]:
    """The console examples of one page, and a failing example for each directive that stands above none."""
    page = path.relative_to(root).as_posix()
    lines = path.read_text(encoding="utf-8").splitlines()
    examples, directives, row = [], [], 0
    while row < len(lines):
        if DIRECTIVE.match(lines[row]):
            directives.append(row)
        match = FENCE.match(lines[row])
        if not match:
            row += 1
            continue
        fence, start = match["fence"], row
        row += 1
        while row < len(lines) and not lines[row].strip().startswith(fence):
            row += 1
        body = [line.removeprefix(match["indent"]) for line in lines[start + 1:row]]
        row += 1
        if body and body[0].startswith("$ "):
            texts, used = _directives(lines, start)
            directives = [d for d in directives if d not in used]
            examples.append(_example(page, start + 1, body, texts))
    examples += [Example(page, row + 1, (), problem="a doctest directive must stand right above the fence of a "
                                                    "console example") for row in directives]
    return examples


def all_examples() -> list[Example]:
    return [example for path in PAGES for example in page_examples(path)]


# -- running -------------------------------------------------------------------------------------------------------

def _data_dir() -> Path:
    return Path(os.environ.get("PLANCHECK_DATA", REPO.parent / "shared" / "data")).resolve()


def _checkout(root: Path) -> Path:
    """``root/work`` laid out like a checkout (a copy; the package linked) and ``root/shared``."""
    work = root / "work"
    work.mkdir()
    skip = shutil.ignore_patterns("__pycache__", "*.pyc", ".pytest_cache", ".hypothesis", ".ruff_cache")
    for entry in REPO.iterdir():
        if entry.name.startswith(".") or entry.name.endswith(".egg-info") or entry.name in ("build", "dist"):
            continue
        if entry.name == "plancheck":
            (work / entry.name).symlink_to(entry, target_is_directory=True)
        elif entry.is_dir():
            shutil.copytree(entry, work / entry.name, ignore=skip, symlinks=True)
        else:
            shutil.copy2(entry, work / entry.name)
    data = _data_dir()
    if not data.is_dir():
        raise RuntimeError(f"the published data is missing at {data}; set PLANCHECK_DATA")
    if data.name == "data":
        (root / "shared").symlink_to(data.parent, target_is_directory=True)
    else:
        (root / "shared").mkdir()
        (root / "shared" / "data").symlink_to(data, target_is_directory=True)
    return work


def _script(example: Example, outputs: Path) -> str:
    """One bash session: each command's output (stdout and stderr together) goes to ``outputs/<n>``."""
    parts = ['plancheck() { python -m plancheck "$@"; }', "export -f plancheck"]
    for number, command in enumerate(example.commands):
        if command.creates:
            end = f"DOCTEST_{uuid.uuid4().hex}"
            content = "\n".join(command.shown)
            parts.append(f"if [ ! -e {command.creates} ]; then cat > {command.creates} <<'{end}'\n{content}\n{end}\n"
                         "fi")
        parts.append(f"{{\n{command.text}\n}} > {outputs / str(number)} 2>&1")
    return "\n".join(parts) + "\n"


def _environment() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PLANCHECK_DATA" and not k.startswith("PYTEST_")}
    env["PYTHONPATH"] = os.pathsep.join([str(REPO), *filter(None, [os.environ.get("PYTHONPATH")])])
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    env["PYTHONUNBUFFERED"] = "1"
    env["COLUMNS"] = "80"
    return env


def run_example(example: Example, root: Path) -> list[list[str]]:
    """Run the example's commands in one session; each command's output lines (trailing blanks removed)."""
    work, outputs = _checkout(root), root / "outputs"
    outputs.mkdir()
    with subprocess.Popen(["bash", "-c", _script(example, outputs)], cwd=work, env=_environment(),
                          stdin=subprocess.DEVNULL, start_new_session=True) as session:
        try:
            session.wait(timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            os.killpg(session.pid, signal.SIGKILL)
            session.wait()
            pytest.fail(f"{example.id}: the commands did not finish within {TIMEOUT} s")
    real = []
    for number in range(len(example.commands)):
        path = outputs / str(number)
        text = path.read_text(encoding="utf-8", errors="replace") if path.exists() else "(the command did not run)"
        lines = [line.rstrip() for line in text.split("\n")]
        while lines and not lines[-1]:
            lines.pop()
        real.append(lines)
    return real


# -- comparing -----------------------------------------------------------------------------------------------------

def normalise(lines: list[str] | tuple[str, ...]) -> list[str]:
    """Timing fields (``"seconds": 0.0086``, ``'planner_seconds': 3.7``) read ``<seconds>``."""
    return [TIMING.sub(r"\g<key><seconds>", line) for line in lines]


def matches_exactly(shown: list[str], real: list[str]) -> bool:
    """Line for line, where a line ``...`` in ``shown`` stands for any number of real lines."""
    parts: list[list[str]] = [[]]
    for line in shown:
        if line == "...":
            parts.append([])
        else:
            parts[-1].append(line)
    if len(parts) == 1:
        return shown == real
    first, *middle, last = parts
    end = len(real) - len(last)
    if end < len(first) or real[:len(first)] != first or real[end:] != last:
        return False
    position = len(first)
    for part in middle:
        found = next((i for i in range(position, end - len(part) + 1) if real[i:i + len(part)] == part), None)
        if found is None:
            return False
        position = found + len(part)
    return True


def _pattern(line: str) -> re.Pattern[str]:
    return re.compile(".*".join(re.escape(piece) for piece in line.split("...")))


def first_missing(shown: list[str], real: list[str]) -> str | None:
    """For an abridged command: the first shown line not found, in order, in the real output (``...`` in a line
    matches any text; a line ``...`` is only a reminder that lines were left out)."""
    position = 0
    for line in shown:
        if line == "...":
            continue
        pattern = _pattern(line)
        position = next((i + 1 for i in range(position, len(real)) if pattern.fullmatch(real[i])), -1)
        if position < 0:
            return line
    return None


def mismatch(command: Command, real: list[str]) -> str | None:
    """Why the real output does not match the page, or None."""
    shown, real = normalise(command.shown), normalise(real)
    if any(TRACEBACK in line for line in real) and not any(TRACEBACK in line for line in shown):
        return "the command raised a Python exception:\n" + "\n".join(real)
    if command.abridged:
        missing = first_missing(shown, real)
        if missing is None:
            return None
        return (f"(abridged) this shown line is not in the real output, in order:\n  {missing}\nreal output:\n"
                + "\n".join(real))
    if matches_exactly(shown, real):
        return None
    return "\n".join(difflib.unified_diff(shown, real, "shown in the page", "real output", lineterm=""))


def _param(example: Example):
    marks = [pytest.mark.slow] if example.slow else []
    if example.skip and not example.problem:
        marks.append(pytest.mark.skip(reason=f"{example.id}: {example.skip}"))
    return pytest.param(example, id=example.id, marks=marks)


@pytest.mark.parametrize("example", [_param(e) for e in all_examples()])
def test_documented_example(example: Example, tmp_path: Path) -> None:
    if example.problem:
        pytest.fail(f"{example.id}: {example.problem}", pytrace=False)
    failures = []
    for command, real in zip(example.commands, run_example(example, tmp_path)):
        if (why := mismatch(command, real)) is not None:
            failures.append(f"--- {example.page}:{command.line}: $ {command.text}\n{why}")
    if failures:
        pytest.fail("\n\n".join(failures), pytrace=False)


# -- the conventions themselves ------------------------------------------------------------------------------------

def test_a_line_of_dots_stands_for_any_number_of_lines() -> None:
    assert matches_exactly(["a", "...", "d"], ["a", "b", "c", "d"])
    assert matches_exactly(["a", "...", "b"], ["a", "b"])
    assert matches_exactly(["...", "c", "..."], ["a", "b", "c", "d"])
    assert not matches_exactly(["a", "...", "d"], ["a", "b", "c"])
    assert not matches_exactly(["a", "c"], ["a", "b", "c"])
    assert not matches_exactly(["a", "...", "b", "..."], ["a", "c"])
    assert not matches_exactly(["a", "...", "a"], ["a"])


def test_abridged_lines_appear_in_order_and_dots_inside_a_line_match_any_text() -> None:
    real = ['{"instance": "905/rf/eaaf7386abc", "planner": "bfs", "seconds": 0.1}', "done"]
    assert first_missing(['{"instance": "905/rf/eaaf7386...", ..., "seconds": 0.1}', "...", "done"], real) is None
    assert first_missing(["done", '{"instance": ...}'], real) == '{"instance": ...}'
    assert first_missing(['{"instance": "905/rf/eaaf7386..."'], real) == '{"instance": "905/rf/eaaf7386..."'


def test_only_timing_fields_are_normalised() -> None:
    assert normalise(['{"seconds": 0.0086, "planner_seconds": 3.761, "nodes": 423}', "{'seconds': 11.147}"]) == [
        '{"seconds": <seconds>, "planner_seconds": <seconds>, "nodes": 423}', "{'seconds': <seconds>}"]
    assert normalise(["took 3.2 seconds", '"timeout": 60']) == ["took 3.2 seconds", '"timeout": 60']


def test_pages_are_parsed_into_commands_outputs_and_directives(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("\n".join([
        "text", "<!-- doctest: slow -->", "```console", "$ cat a.txt", "x", "$ echo one \\", "  two  # abridged",
        "one two", "", "```", "", "```", "not a console block", "```", "<!-- doctest: skip -->", "```",
        "$ true", "```", "<!-- doctest: slow -->", "prose", "````", "<!-- doctest: slow -->", "```", "$ shown", "```",
        "````"]))
    first, second, stray = page_examples(page, tmp_path)
    assert (first.id, first.slow, first.skip, first.problem) == ("page.md:3", True, None, None)
    assert [(c.line, c.text, c.shown, c.creates, c.abridged) for c in first.commands] == [
        (4, "cat a.txt", ("x",), "a.txt", False), (6, "echo one \\\n  two  # abridged", ("one two",), None, True)]
    assert second.problem and "needs a reason" in second.problem
    assert stray.line == 19 and "right above the fence" in stray.problem


def test_a_block_is_one_session_and_cat_creates_the_file_shown(tmp_path: Path) -> None:
    example = Example("page.md", 1, (
        Command(2, "cd tests", ()),
        Command(3, "cat new.txt", ("made", "here")),
        Command(4, "cat ../../work/tests/new.txt", ("made", "here")),
        Command(5, "false; echo $?", ("1",)),
        Command(6, "ls ../../shared/data/grasp >/dev/null && echo ok", ("ok",)),
        Command(7, "plancheck worlds | head -1  # abridged", ("grasp...",))))
    real = run_example(example, tmp_path)
    assert all(mismatch(c, r) is None for c, r in zip(example.commands, real)), real
    assert not (REPO / "tests" / "new.txt").exists()
