"""The rendered prompts equal every one of the 1600 published GPT-3.5 requests."""

from __future__ import annotations

import json

from plancheck.cli import main
from plancheck.domains.grasp.world import WORLD


def _requests(shared_data):
    with open(shared_data / "grasp" / "llm" / "gpt35_requests.jsonl") as handle:
        return [json.loads(line) for line in handle]


def test_all_1600_published_prompts_are_reproduced_exactly(shared_data):
    requests = _requests(shared_data)
    assert len(requests) == 1600
    mismatches = []
    for request in requests:
        env = next(WORLD.instances([request["custom_id"]], shared_data))
        if WORLD.prompt(env).messages() != request["body"]["messages"]:
            mismatches.append(request["custom_id"])
    assert mismatches == []


def test_prompt_command_writes_the_published_messages(shared_data, tmp_path, capsys):
    out = tmp_path / "prompts.jsonl"
    assert main(["prompt", "grasp", "outer_spiral_block", "--indices", "0-1", "--data", str(shared_data),
                 "-o", str(out)]) == 0
    written = {row["instance"]: row["messages"] for row in map(json.loads, out.read_text().splitlines())}
    published = {r["custom_id"]: r["body"]["messages"] for r in _requests(shared_data)
                 if r["custom_id"].startswith("outer_spiral_block.jsonl-0-") or
                 r["custom_id"].startswith("outer_spiral_block.jsonl-1-")}
    assert len(written) == 16 and written == published
