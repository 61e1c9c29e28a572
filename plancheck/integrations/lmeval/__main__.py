"""``python -m plancheck.integrations.lmeval`` prints the folder of the task configs (lm-eval's --include_path)."""

from plancheck.integrations.lmeval import TASKS

print(TASKS)
