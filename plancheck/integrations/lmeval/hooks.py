"""What the task configs beside this file name with ``!function hooks.<name>`` (lm-eval loads this file by its
path, as a module of its own): plancheck's dataset, prompt and metric."""

from plancheck.integrations.lmeval import dataset, doc_to_text, process_results

__all__ = ["dataset", "doc_to_text", "process_results"]
