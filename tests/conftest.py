"""Fixtures shared by the tests: the shipped pip reader, its models loaded once."""

from __future__ import annotations

import pytest

from vision.pips import PipReader


@pytest.fixture(scope="session")
def reader() -> PipReader:
    return PipReader()
