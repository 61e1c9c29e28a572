"""Tests and doctests of code that needs an optional extra are skipped, naming the extra, when it is not installed.

Most tests that need a planner carry a marker (tests/extras.py); whole trees that run on an extra's package are
listed here, so that a core-only install (`pip install plancheck`) runs the rest cleanly.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

# Property tests bound their work by example counts, never by time: a loaded machine (CI's two cores) must not
# turn slow data generation into a failure.
settings.register_profile("plancheck", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("plancheck")

ROOT = Path(__file__).resolve().parent
TREES = {  # folder (relative to the checkout) -> (module it needs, the extra that installs it)
    "plancheck/domains/babyai": ("minigrid", "babyai"),
    "tests/babyai": ("minigrid", "babyai"),
    "plancheck/domains/smartplay/crafter": ("crafter", "crafter"),
    "tests/smartplay/crafter": ("crafter", "crafter"),
}
MODULES = {  # a module whose import needs an extra's package: not collected (its doctests) without it
    "plancheck/integrations/inspect_tasks.py": "inspect_ai",
}


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    for path, module in MODULES.items():
        if collection_path == ROOT / path and importlib.util.find_spec(module) is None:
            return True
    return None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    missing = {tree: needs for tree, needs in TREES.items() if importlib.util.find_spec(needs[0]) is None}
    if not missing:
        return
    for item in items:
        where = Path(str(item.fspath)).resolve()
        for tree, (module, extra) in missing.items():
            if where.is_relative_to(ROOT / tree):
                item.add_marker(pytest.mark.skip(reason=f"needs {module}: pip install 'plancheck[{extra}]'"))
