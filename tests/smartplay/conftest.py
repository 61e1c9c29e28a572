"""SmartPlay's own code, when a checkout is named by ``SMARTPLAY_SRC`` (see ``original.py``)."""

from __future__ import annotations

import pytest

from .original import Original, load, source_root


@pytest.fixture(scope="session")
def smartplay() -> Original:
    root = source_root()
    if root is None:
        pytest.skip("set SMARTPLAY_SRC to a checkout of microsoft/SmartPlay (a work tree or a git directory) to "
                    "compare with SmartPlay's own environments")
    return load(root)
