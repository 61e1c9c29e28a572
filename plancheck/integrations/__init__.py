"""plancheck inside the harnesses people run models with: inspect-ai (:mod:`.inspect_tasks`) and
lm-evaluation-harness (:mod:`.lmeval`). Each needs its optional extra (``plancheck[inspect]``,
``plancheck[lmeval]``); the core never imports them. The integrations reach the worlds through the
registry and the Python API only, so every world the registry names works in them.
"""
