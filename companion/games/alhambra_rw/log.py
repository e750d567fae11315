"""The game log on disk: append-only, one event per line as JSON, flushed and fsynced per event.

A crash can cut off the line being written: loading keeps every complete event and reports the cut line.
A corrupt line anywhere else is an error naming its line number, because events after it cannot be trusted.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import IO, Any

from vision.jsonfile import JsonFileError, Limits, loads, read_bytes

from .engine import Game, IllegalMove, fold
from .events import Event, EventFormatError, event_from_json, event_to_json

LIMITS = Limits(size=20_000_000)
"""A whole game's log is some 50 KB; far more is not a log, and is refused before it is read."""


class LogError(ValueError):
    """A game log cannot be read; the message names the file and line."""


@dataclass(frozen=True, slots=True)
class LoadedLog:
    """The complete events of a log; `cut_line` is the 1-based number of a cut-off last line (or None)."""

    path: Path
    events: tuple[Event, ...]
    cut_line: int | None = None
    cut_text: str = ""

    @property
    def warning(self) -> str:
        """A message for the user when the last line was cut off, else ''."""
        if self.cut_line is None:
            return ""
        return (
            f"{self.path}: line {self.cut_line} was cut off (an interrupted write); "
            f"kept the {len(self.events)} complete events before it"
        )


def load_log(path: str | Path) -> LoadedLog:
    """Read a log; a cut-off last line is reported in the result, a corrupt earlier line raises `LogError`."""
    path = Path(path)
    try:
        data = read_bytes(path, LIMITS)
    except JsonFileError as exc:
        raise LogError(str(exc)) from exc
    lines = data.split(b"\n")
    complete, tail = lines[:-1], lines[-1]
    events: list[Event] = []
    for number, raw in enumerate(complete, start=1):
        if not raw.strip():
            continue
        try:
            events.append(parse_line(raw, number))
        except ValueError as exc:
            # A line that ends with its newline was written whole: it is corrupt, not cut off.
            raise LogError(f"{path}: {exc}") from exc
    if tail.strip():
        try:
            events.append(parse_line(tail, len(complete) + 1))
        except ValueError:
            # A last line without its newline was being written when the program stopped.
            return LoadedLog(path, tuple(events), len(complete) + 1, tail.decode("utf-8", "replace"))
    return LoadedLog(path, tuple(events))


def parse_line(raw: bytes, number: int) -> Event:
    """The event on line `number` of a log; a `ValueError` says where and what is wrong."""
    obj = loads(raw, LIMITS, line=number)
    try:
        return event_from_json(obj)
    except EventFormatError as exc:
        raise ValueError(f"line {number}: not a valid event ({exc})") from exc


def replay_log(loaded: LoadedLog) -> Game:
    """Fold a loaded log; an illegal event raises `LogError` naming its line."""
    try:
        return fold(loaded.events)
    except IllegalMove as exc:
        raise LogError(f"{loaded.path}: {exc}") from exc


class GameLog:
    """An open log file that events are appended to, each flushed and fsynced before `append` returns.

    `encode` turns an event into its JSON object: Roll & Write's by default; another game's log (Alhambra –
    the dice game's) is the same file with its own events."""

    def __init__(self, path: str | Path, encode: Callable[[Any], dict[str, Any]] = event_to_json) -> None:
        self.path = Path(path)
        self.encode = encode
        self._file: IO[bytes] = open(self.path, "ab")  # noqa: SIM115 - kept open for the whole game
        if self._file.tell() and not self.path.read_bytes().endswith(b"\n"):
            # A whole last event written without its newline: end its line before appending.
            self._file.write(b"\n")

    @classmethod
    def create(
        cls, path: str | Path, first: object, encode: Callable[[Any], dict[str, Any]] = event_to_json
    ) -> GameLog:
        """Start a new log with its `GameStarted` event; refuses to overwrite an existing file."""
        path = Path(path)
        if path.exists():
            raise LogError(f"{path}: a game log already exists there")
        log = cls(path, encode)
        log.append(first)
        return log

    @classmethod
    def resume(cls, path: str | Path) -> tuple[GameLog, LoadedLog]:
        """Open an existing log to continue it. A cut-off last line is moved to `PATH.cut` (nothing is
        thrown away) and removed from the log, so the next event starts on a fresh line."""
        loaded = load_log(path)
        if loaded.cut_line is not None:
            path = Path(path)
            with open(path.with_name(path.name + ".cut"), "a", encoding="utf-8") as keep:
                keep.write(loaded.cut_text + "\n")
            size = path.stat().st_size - len(loaded.cut_text.encode("utf-8"))
            with open(path, "r+b") as f:
                f.truncate(size)
                f.flush()
                os.fsync(f.fileno())
        return cls(path), loaded

    def append(self, event: object) -> None:
        line = json.dumps(self.encode(event), ensure_ascii=False, separators=(",", ":")) + "\n"
        self._file.write(line.encode("utf-8"))
        self._file.flush()
        os.fsync(self._file.fileno())

    def truncate_last(self) -> None:
        """Undo: remove the last event line from the file (the log stays one event per line)."""
        self._file.flush()
        with open(self.path, "r+b") as f:
            data = f.read()
            end = data.rstrip(b"\n").rfind(b"\n") + 1
            f.truncate(end)
            f.flush()
            os.fsync(f.fileno())

    def close(self) -> None:
        self._file.close()

    def __enter__(self) -> GameLog:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, value: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()


def write_log(path: str | Path, events: list[Event]) -> None:
    """Write a whole event list as a new log (e.g. an example game)."""
    with GameLog.create(path, events[0]) as log:
        for event in events[1:]:
            log.append(event)
