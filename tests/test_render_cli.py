"""``plancheck render`` on the command line: formats by suffix, exit codes, the missing extra named."""

from __future__ import annotations

import builtins
import xml.etree.ElementTree as ET

import pytest

from plancheck.cli import main
from tests.extras import needs_pillow

ENV = "inner_cluster_block.jsonl-0-0-1-1"


def test_render_writes_svg_and_says_so(tmp_path, capsys):
    answer = tmp_path / "a.txt"
    answer.write_text("[DOWN, TAKE, UP, DROP]")
    out = tmp_path / "grid.svg"
    assert main(["render", "grasp", ENV, "--answer", str(answer), "-o", str(out)]) == 0
    root = ET.fromstring(out.read_text())
    assert root.find("{http://www.w3.org/2000/svg}polyline[@class='answer-path']") is not None
    assert f"wrote {out}" in capsys.readouterr().err


def test_render_to_standard_output_and_from_standard_input(monkeypatch, capsys):
    import io

    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"[UP, JUMP]")))
    assert main(["render", "grasp", ENV, "--answer", "-", "-o", "-"]) == 0
    printed = capsys.readouterr().out
    assert printed.startswith("<svg") and "'JUMP' is not a GRASP action" in printed


@pytest.mark.parametrize("argv, message", [
    (["render", "grasp", ENV, "-o", "x.jpg"], "--output x.jpg: a picture is written as .svg, .png, .gif"),
    (["render", "grasp", "no_such_set-1-0-0-0", "-o", "x.svg"], "no_such_set"),
    (["render", "grasp", "inner_cluster_block-0", "-o", "x.svg"], "render needs exactly one"),
    (["render", "grasp", ENV, "--answer", "missing.txt", "-o", "x.svg"], "missing.txt does not exist"),
    (["render", "bandits", "BanditTwoArmedHighLowFixed", "-o", "x.svg"], "give its log with --answer FILE"),
])
def test_bad_input_exits_2(tmp_path, monkeypatch, capsys, argv, message):
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "x.svg").exists()


def test_an_episode_of_another_instance_is_refused(tmp_path, capsys):
    log = tmp_path / "m.jsonl"
    assert main(["play", "messenger-l1", "MessengerL1", "--policy", "optimal", "--seed", "2", "-o", str(log)]) == 0
    assert main(["render", "messenger-l1", "MessengerL1/seed=2", "--answer", str(log), "-o",
                 str(tmp_path / "m.svg")]) == 2
    assert "is an episode of MessengerL1, not of MessengerL1-v0/seed=2" in capsys.readouterr().err
    assert main(["render", "messenger-l1", "MessengerL1", "--answer", str(log), "-o", str(tmp_path / "m.svg")]) == 0


def test_png_without_pillow_exits_2_naming_the_extra(tmp_path, monkeypatch, capsys):
    real = builtins.__import__

    def without_pil(name, *args, **kwargs):
        if name == "PIL" or name.startswith("PIL."):
            raise ImportError(name)
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", without_pil)
    assert main(["render", "grasp", ENV, "-o", str(tmp_path / "g.png")]) == 2
    assert "pip install 'plancheck[render]'" in capsys.readouterr().err
    assert not (tmp_path / "g.png").exists()


@needs_pillow
def test_gif_holds_the_answers_steps(tmp_path):
    from PIL import Image

    answer = tmp_path / "a.txt"
    answer.write_text("[DOWN, TAKE, UP, DROP]")
    out = tmp_path / "steps.gif"
    assert main(["render", "grasp", ENV, "--answer", str(answer), "-o", str(out)]) == 0
    with Image.open(out) as gif:
        assert gif.n_frames == 5
