"""The paper's Table 1 exactly as printed (issue 21, item 4): rows, order, agents, and the Length column.

The paper's Length is the mean number of *executed* actions (an answer cut at the 20-step limit): it
reproduces every Length cell printed for the random walk, greedy search and GPT-3.5 from the
published answers, which the answers' own lengths do not.
"""

from __future__ import annotations

import math
from dataclasses import replace

import pytest

from plancheck.cli import main
from plancheck.domains.grasp.report import PAPER_ROWS, paper_agent, summary
from plancheck.domains.grasp.world import WORLD
from plancheck.verifier.batch import evaluate_records
from plancheck.verifier.render import table_text
from plancheck.world import Record

# Table 1 as printed: per row (Length, Energy) of Random Walk, Greedy Search, GPT-3.5-Turbo.
PRINTED = {
    "Energy Distribution: Random": ((19.0, -0.80), (18.8, 0.37), (19.7, -1.96)),
    "Energy Distribution: Vertically-skewed": ((19.0, -0.98), (18.7, 0.33), (19.6, -1.66)),
    "Energy Distribution: Horizontally-skewed": ((19.0, -0.97), (18.6, 0.47), (19.7, -2.11)),
    "Energy Distribution: Cluster": ((19.0, -1.60), (18.8, 0.37), (18.6, -2.07)),
    "Energy Distribution: Spiral": ((19.0, -1.38), (18.7, 0.20), (19.4, -2.32)),
    "Obstacle: Yes": ((19.0, -1.18), (18.7, 0.31), (19.3, -2.08)),
    "Obstacle: No": ((19.0, -1.11), (18.7, 0.39), (19.5, -1.97)),
    "Starting Position: Inner Position": ((19.0, -1.06), (18.7, 0.46), (19.4, -1.90)),
    "Starting Position: Outer Position": ((19.0, -1.23), (18.7, 0.23), (19.4, -2.14)),
    "Movement-related Action Set: mu1 (4 directions)": ((19.0, -1.21), (18.5, 0.80), (19.1, -1.89)),
    "Movement-related Action Set: mu2 (8 directions)": ((19.0, -1.08), (18.9, -0.10), (19.7, -2.15)),
    "Energy Carrying Limit: No Limit": ((19.0, -0.89), (18.7, 1.50), (19.8, -2.00)),
    "Energy Carrying Limit: 2 Units": ((19.0, -1.40), (18.7, -0.81), (19.0, -2.05)),
    "Energy Cost Per Step: 0 Unit": ((19.0, 1.68), (18.7, 3.14), (19.4, 1.25)),
    "Energy Cost Per Step: 0.3 Unit": ((19.0, -3.97), (18.7, -2.44), (19.4, -5.30)),
    "Average": ((19.0, -1.14), (18.7, 0.35), (19.4, -2.02)),
}
MODELS = ("random", "greedy", "gpt-3.5-turbo-0125")




@pytest.fixture(scope="module")
def results(shared_data):
    """Verdicts of the 4,800 published answers on grid indices 0-9 (both baselines and GPT-3.5)."""
    grasp = shared_data / "grasp"
    records = [record for path in (grasp / "baselines" / "greedy", grasp / "baselines" / "random",
                                   grasp / "llm" / "gpt35_responses.jsonl")
               for file in (sorted(path.glob("*.jsonl")) if path.is_dir() else [path])
               for record in WORLD.read_answers(file, shared_data, indices="0-9")]
    items = list(evaluate_records(WORLD, records, shared_data))
    assert len(items) == 4800 and all(item.verdict is not None for item in items)
    return [(item.record, replace(item.verdict, steps=())) for item in items]


def test_the_default_summary_is_table1_as_printed(results):
    made = WORLD.summarize(results)
    data = {**made.to_json()}
    assert [r[0] for r in data["rows"] if r[0]] == [control for control, _ in PAPER_ROWS] + ["Average"]
    labels = [r[1] for r in data["rows"]]
    assert labels == ["Random", "Vertically-skewed", "Horizontally-skewed", "Cluster", "Spiral", "Yes", "No",
                      "Inner Position", "Outer Position", "mu1 (4 directions)", "mu2 (8 directions)", "No Limit",
                      "2 Units", "0 Unit", "0.3 Unit", ""]
    assert data["header"][:4] == ["Control", "Setting", "Random Walk\nLength", "Energy"]
    assert [h.split("\n")[0] for h in data["header"][2::2]] == ["Random Walk", "Greedy Search", "GPT-3.5-Turbo"]
    lengths_equal, baseline_energies_equal, gpt_energies = 0, 0, []
    for row, printed in PRINTED.items():
        for model, (length, energy) in zip(MODELS, printed):
            cell = data["models"][model]["rows"][row]
            lengths_equal += cell["length"] == length
            if model == "gpt-3.5-turbo-0125":
                gpt_energies.append(round(abs(cell["energy"] - energy), 2))
            else:
                baseline_energies_equal += cell["energy"] == energy
    assert lengths_equal == 48  # every Length cell of the three agents the data covers
    assert baseline_energies_equal == 32
    # GPT-3.5's energies depend on how each free-text answer is read (the paper's reader is not published):
    # 12 of the 16 are equal, the other 4 differ by 0.01
    assert max(gpt_energies) <= 0.01 and gpt_energies.count(0.0) >= 12


def test_the_answer_length_is_not_the_papers_length(results):
    """The same answers in plancheck's earlier layout (mean answer length as read): far from the printed 19.4."""
    rows = WORLD.summarize(results, table="factors").data["models"]["gpt-3.5-turbo-0125"]["rows"]
    assert rows["average"]["length"] > 25 and rows["average"]["n"] == 1600


def test_the_printed_table_rounds_lengths_to_one_decimal(shared_data, capsys):
    grasp = shared_data / "grasp"
    assert main(["evaluate", "grasp", str(grasp / "baselines" / "random"), "--indices", "0-9", "--summary",
                 "--data", str(shared_data), "--no-progress"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("GRASP Table 1 (Length = executed actions")
    average = next(line for line in lines if line.startswith("Average"))
    assert average.split() == ["Average", "19.0", "-1.14"]
    assert lines[1].split() == ["Random", "Walk"] and lines[2].split() == ["Control", "Setting", "Length", "Energy"]


def test_agents_follow_the_papers_order_and_names(shared_data):
    env = next(WORLD.instances(["inner_random_free-0"], shared_data, setting="0-0-0"))
    verdict = WORLD.check(env, "[UP, TAKE]")
    models = ("my-model", "o1-mini-2024-09-12", "gpt-4o-mini", "gpt-4o-2024-08-06", "gpt-4o")
    results = [(Record(1, env.id, meta={"model": model}), verdict) for model in models]
    header = summary(results).header
    assert [h.split("\n")[0] for h in header[2::2]] == [
        "GPT-4o (gpt-4o-2024-08-06)", "GPT-4o (gpt-4o)", "GPT-o1-mini", "my-model", "gpt-4o-mini"]
    assert paper_agent("gpt-3.5-turbo") == (2, "GPT-3.5-Turbo") and paper_agent("greedy") == (1, "Greedy Search")


def test_no_table_prints_minus_zero(shared_data):
    env = next(WORLD.instances(["inner_random_free-0"], shared_data, setting="0-0-1"))
    verdict = WORLD.check(env, "[UP, TAKE]")
    results = [(Record(1, env.id, meta={"model": "m"}), replace(verdict, scores={"paper": -0.004, "delivered": 0.3}))]
    for table in ("paper", "factors"):
        made = summary(results, table=table)
        text = table_text(made.header, made.rows, made.title, made.labels)
        assert "-0.00" not in text and "-0.0 " not in text
        energies = [cell["energy"] for cell in made.data["models"]["m"]["rows"].values() if cell["energy"] is not None]
        assert energies and all(value == 0 and math.copysign(1, value) == 1 for value in energies)
