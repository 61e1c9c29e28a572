"""plancheck in lm-evaluation-harness: task configs for the one-shot worlds and a metric that calls plancheck
(``pip install 'plancheck[lmeval]'``).

The configs (``plancheck_grasp``, ``plancheck_babyai``, ``plancheck_hanoi``, ``plancheck_mango``) live in
this folder (:data:`TASKS`), beside ``hooks.py``, which they name with ``!function``::

    lm_eval --model hf --model_args pretrained=... --include_path "$(python -m plancheck.integrations.lmeval)" \\
        --tasks plancheck_hanoi --metadata '{"instances": "hanoi-3"}'

A document is one instance: its prompt (the benchmark's chat messages, joined with blank lines,
since lm-eval sends one text; ``messages`` keeps them apart for ``--apply_chat_template`` users),
the world and the instance. :func:`process_results` checks the model's generation with plancheck
and returns ``passed`` (1 or 0 under the config's semantics) and ``score`` (the headline score;
absent for an unreadable answer, so its mean is over the answers that have one). Which instances
and options: the config's ``metadata`` (``world``, ``instances``, ``semantics``, and any option of
the world, e.g. ``setting``), which ``--metadata`` overrides. lm-eval adds its own keys (version,
model arguments) to the metadata; keys that are not the world's options are ignored.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from plancheck import api
from plancheck.errors import BadInputError
from plancheck.registry import get_world
from plancheck.verifier.rows import headline
from plancheck.verifier.verdict import Semantics
from plancheck.world import Capability, World

TASKS = Path(__file__).resolve().parent  # the folder of the task configs: lm-eval's --include_path
WORLDS = ("grasp", "babyai", "hanoi", "mango")  # the one-shot worlds with a config here


def _options(world: World, command: str, given: Mapping[str, Any]) -> dict[str, Any]:
    names = {option.name for option in world.options if command in option.commands}
    return {name: value for name, value in given.items() if name in names}


def prompt_text(messages: Sequence[Mapping[str, str]]) -> str:
    """The benchmark's chat messages as one text: their contents joined with blank lines.

    >>> prompt_text([{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Plan."}])
    'Be brief.\\n\\nPlan.'
    """
    return "\n\n".join(message["content"] for message in messages)


def documents(world: str, instances: str | Sequence[str] = "all", data: str | None = None,
              semantics: str = "strict", **metadata: Any) -> list[dict[str, Any]]:
    """One document per selected instance of a one-shot world: world, instance, prompt, messages (JSON) and the
    options ``process_results`` checks with (JSON); ``metadata`` keys that are not the world's options are ignored."""
    found = get_world(world)
    found.require()
    if found.supports(Capability.PLAY) or not found.supports(Capability.ANSWERS):
        raise BadInputError(f"the {world} world is played step by step; lm-eval asks one question per document "
                            "(use the inspect-ai task for interactive worlds)")
    Semantics(semantics)
    check = {"data": data, "semantics": semantics, **_options(found, "check", metadata)}
    docs = []
    for instance in api.instances(world, instances, data=data, **_options(found, "instances", metadata)):
        messages = found.prompt(instance, **_options(found, "prompt", metadata)).messages()
        docs.append({"world": world, "instance": found.instance_id(instance), "prompt": prompt_text(messages),
                     "messages": json.dumps(messages, ensure_ascii=False), "options": json.dumps(check)})
    if not docs:
        raise BadInputError(f"no {world} instance matches {instances!r}")
    return docs


def dataset(**metadata: Any) -> Any:
    """The ``custom_dataset`` of a config: its documents as a ``datasets.DatasetDict`` with a ``test`` split."""
    import datasets

    return datasets.DatasetDict({"test": datasets.Dataset.from_list(documents(**metadata))})


def doc_to_text(doc: Mapping[str, Any]) -> str:
    return doc["prompt"]


def process_results(doc: Mapping[str, Any], results: Sequence[str]) -> dict[str, float]:
    """The metric: plancheck's verdict on the generation, as ``passed`` and (when the answer has one) ``score``."""
    options = json.loads(doc["options"])
    data, semantics = options.pop("data"), Semantics(options.pop("semantics"))
    verdict = api.check(doc["world"], doc["instance"], results[0], data=data, **options)
    _, value = headline(verdict, options.get("rule"))
    found = {"passed": 1.0 if verdict.passed(semantics) else 0.0}
    if value is not None:
        found["score"] = float(value)
    return found
