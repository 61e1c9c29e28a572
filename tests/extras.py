"""Markers for tests that need an optional extra: without it they are skipped, saying which extra to install."""

from __future__ import annotations

import importlib.util

import pytest

from plancheck.solvers.external import fast_downward_driver, symk_driver


def _missing(module: str) -> bool:
    return importlib.util.find_spec(module) is None


needs_minigrid = pytest.mark.skipif(_missing("minigrid"),
                                    reason="needs the babyai extra: pip install 'plancheck[babyai]'")
needs_fast_downward = pytest.mark.skipif(fast_downward_driver() is None,
                                         reason="needs Fast Downward: pip install 'plancheck[planners]'")
needs_symk = pytest.mark.skipif(symk_driver() is None, reason="needs SymK: pip install 'plancheck[symk]'")
needs_pyperplan = pytest.mark.skipif(_missing("pyperplan"), reason="needs pyperplan: pip install 'plancheck[planners]'")
needs_pillow = pytest.mark.skipif(_missing("PIL"), reason="needs Pillow: pip install 'plancheck[render]'")
needs_unified_planning = pytest.mark.skipif(_missing("unified_planning"),
                                            reason="needs unified-planning: pip install 'plancheck[planners]'")
INSPECT = "needs inspect-ai: pip install 'plancheck[inspect]'"
LMEVAL = "needs lm-eval: pip install 'plancheck[lmeval]'"


def unified_planning():
    """unified-planning's shortcuts, quiet (no credits banner); the test is skipped when it is not installed."""
    up = pytest.importorskip("unified_planning.shortcuts", reason="needs unified-planning: pip install "
                                                                  "'plancheck[planners]'")
    up.get_environment().credits_stream = None
    return up
