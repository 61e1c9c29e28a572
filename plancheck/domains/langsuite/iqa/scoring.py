"""IQA's scores (``iqa_task.py``, ``iqa_eval.py``), per episode.

* ``correct``: LangSuitE's verdict, "Your are right!": the answer text in ``Answer [...]`` (else
  ``answer [...]``) equals ``str(gold)`` case-insensitively; at the step limit the task's own
  ``answer [False]`` / ``answer [0]`` is judged (*forced-answer*: a model that never answers is right
  on every "no" and every count of 0).
* ``accuracy``: what LangSuitE's evaluator counts (*eval-lines*): a right verdict in a log of more
  than four lines (an answer in the opening reply leaves four) whose answer line holds neither "Obs"
  nor "Feedback". The paper's Exists / Contains / Counts columns are this accuracy, in %.
* ``steps``: the timesteps, the opening reply included (a forced answer: 30).
* ``answered``: the model answered itself (not the step limit).
"""

from __future__ import annotations

SCORES = ("correct", "accuracy", "steps", "answered")
