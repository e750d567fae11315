"""Fixtures for the app tests: XDG folders under tmp, so no test touches the user's files."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from textual.widgets import Input


@pytest.fixture
def xdg(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield tmp_path
    monkeypatch.undo()
    time.tzset()


@pytest.fixture(autouse=True)
def steady_cursor(monkeypatch: pytest.MonkeyPatch) -> None:
    """A focused Input's cursor blinks every 0.5 s: a snapshot taken on a loaded machine caught it hidden
    (CI's alhambra_pad snapshots). Here it stays shown while focused: a snapshot does not hang on timing."""
    monkeypatch.setattr(Input, "_toggle_cursor", lambda self: None)
