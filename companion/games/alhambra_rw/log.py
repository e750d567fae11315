"""Roll & Write's game log: the shared log file (`companion.games.eventlog`) with this game's events."""

from __future__ import annotations

from pathlib import Path

from ..eventlog import GameLog, LoadedLog, LogError
from ..eventlog import load_log as load_any_log
from ..eventlog import write_log as write_any_log
from .events import LOG_FORMAT, Event, event_to_json

__all__ = ["GameLog", "LoadedLog", "LogError", "load_log", "write_log"]


def load_log(path: str | Path) -> LoadedLog[Event]:
    """Read a log; a spoiled last line is reported in the result, a bad earlier line raises `LogError`."""
    return load_any_log(path, LOG_FORMAT)


def write_log(path: str | Path, events: list[Event]) -> None:
    """Write a whole event list as a new log (e.g. an example game)."""
    write_any_log(path, events, event_to_json)
