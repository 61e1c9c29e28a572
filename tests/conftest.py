"""Shared fixtures: where the published data lives (``../shared/data`` beside the checkout)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


def shared_data_dir() -> Path:
    return Path(os.environ.get("PLANCHECK_DATA", REPO.parent / "shared" / "data"))


@pytest.fixture(scope="session")
def shared_data() -> Path:
    path = shared_data_dir()
    if not path.is_dir():
        raise RuntimeError(f"the published data is missing at {path}; set PLANCHECK_DATA")
    return path
