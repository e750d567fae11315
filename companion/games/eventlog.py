"""Every game's log on disk: one event a JSON object per line, appended, flushed and fsynced per event.

One reader and one writer serve every game; a game gives its `LogFormat` (how its events convert to and from
JSON, and the limits of a log). A crash can cut off only the line being written, the last, which then lacks
its newline: reading keeps every event before it and reports it. A whole bad line is an error naming it,
because the events after it cannot be trusted; but continuing a game (`lenient`) also takes a whole bad last
line for a stray write after the game's last event. Continuing moves a spoiled last line to `PATH.cut`
(nothing is thrown away) so that the game goes on. A write that fails (a full disk, a folder
made read-only) is undone on disk and refused with `LogWriteError`: the file never keeps half a line.
A log being written is held (`held`): a second program opening the same game is refused with `InUse`.
Every write first checks that the file at the log's path is still the one open: a log deleted, or another
file put in its place, while the game is played is refused with `LogLost`, and that other file is left as it
is (the game is written again whole by its session).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Any, Generic, TypedDict, TypeVar

from jsonfile import JsonFileError, Limits, loads, optional_text, read_bytes, refuse_unknown, short

from .held import open_held

E = TypeVar("E")

LOG_LIMITS = Limits(size=2_000_000)
"""Every game's log: a whole game is some 20 to 50 KB; far more is not a log, and is refused unread."""


FRAME_NAME = re.compile(r"[0-9]{4,6}\.jpg")
"""A camera frame's name in an event: a file of the game's frames folder, never a path out of it."""


def _frame_name(data: dict[str, Any], error: type[ValueError]) -> str:
    """The `frame` an event names ('' where none); `error` when it is no frame's name."""
    name = optional_text(data, "frame", error)
    if name and not FRAME_NAME.fullmatch(name):
        raise error(f"frame: must name a frame like 0001.jpg, got {short(name)}")
    return name


def event_fields(
    raw: object, fields: Mapping[str, Collection[str]], error: type[ValueError]
) -> tuple[str, dict[str, Any]]:
    """A log line's event kind and its object, once that holds only the fields its kind writes (`fields`,
    by kind); `error` names the first thing wrong."""
    if not isinstance(raw, dict):
        raise error("an event must be a JSON object")
    kind = raw.get("event")
    if not isinstance(kind, str) or kind not in fields:
        raise error(f"event: unknown kind {short(kind)}")
    refuse_unknown(raw, fields[kind], "", error)
    return kind, raw


def name_field(data: Mapping[str, object], key: str, error: type[ValueError]) -> str:
    """The player's name at `key`; the engine checks it is one of the game's."""
    value = data.get(key)
    if not isinstance(value, str):
        raise error(f"{key}: must be a name, got {short(value)}")
    return value


def names_field(data: Mapping[str, object], key: str, error: type[ValueError]) -> tuple[str, ...]:
    """The names listed at `key`."""
    value = data.get(key)
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise error(f"{key}: must be a list of names, got {short(value)}")
    return tuple(value)


SAID = ("source", "note", "frame")
"""The fields of `Said` in a log's line, each written only when it holds something."""


@dataclass(frozen=True, slots=True)
class Said:
    """What a roll's event keeps beside the dice for people, and no rule depends on: who read them, a note,
    the camera's picture. Every game's roll event builds on it (keywords, never compared)."""

    source: str = field(default="", compare=False, kw_only=True)
    """Who read the dice: "keyboard", "mouse", "camera", "virtual" (the app rolled for an imaginary one)."""
    note: str = field(default="", compare=False, kw_only=True)
    """What the camera read when the players typed or confirmed the dice: kept to settle disputes later."""
    frame: str = field(default="", compare=False, kw_only=True)
    """The camera's picture of the dice at the settled moment (`GAME.frames/NNNN.jpg`; '' when none was
    kept): kept to settle disputes by looking."""

    @property
    def read_by(self) -> str:
        """Who read the dice, where a log line says so: not the keyboard, the way of every table."""
        return "" if self.source == "keyboard" else self.source

    def said_json(self) -> dict[str, str]:
        return {name: text for name in SAID if (text := getattr(self, name))}


class SaidFields(TypedDict):
    source: str
    note: str
    frame: str


def said_from_json(data: dict[str, Any], error: type[ValueError]) -> SaidFields:
    """A roll event's `Said` fields from its line, to pass as keywords; `error` names a bad one."""
    return SaidFields(
        source=optional_text(data, "source", error),
        note=optional_text(data, "note", error),
        frame=_frame_name(data, error),
    )


class LogError(ValueError):
    """A game log cannot be read; the message is one line naming the file and the line."""


class LogWriteError(OSError):
    """An event could not be written (the file is as it was before); the message says where and why."""


class LogLost(LogWriteError):
    """The file at the log's path is no longer the log open (deleted, or another file put in its place):
    nothing was written, as a write through the open file would be lost with it and one by name would change
    another file."""

    def __init__(self, path: Path, replaced: bool) -> None:
        self.path = path
        self.replaced = replaced
        self.what = "replaced by another file (left as it is)" if replaced else "deleted"
        super().__init__(f"{path}: the game's log was {self.what}")


@dataclass(frozen=True)
class LogFormat(Generic[E]):
    """How one game's events are kept in its log."""

    parse: Callable[[object], E]
    """An event from its JSON object; raises `bad_event` naming the bad field."""
    encode: Callable[[E], dict[str, Any]]
    bad_event: type[Exception]
    limits: Limits = LOG_LIMITS


@dataclass(frozen=True)
class LoadedLog(Generic[E]):
    """The events of a log; `cut_line` is the 1-based number of a spoiled last line (None: none was)."""

    path: Path
    events: tuple[E, ...]
    cut_line: int | None = None
    cut_text: str = ""
    cut_at: int = 0
    """Where the spoiled line starts in the file, in bytes: the log is kept up to there."""
    cut_why: str = ""
    """Why a whole last line was no event ('' for a line cut off by an interrupted write)."""

    @property
    def warning(self) -> str:
        """A message for the user when the last line was spoiled, else ''."""
        if self.cut_line is None:
            return ""
        # A whole line is no cut write: one of a newer version, or written by hand, says what it holds.
        spoiled = self.cut_why or f"line {self.cut_line} was cut off (an interrupted write)"
        return f"{self.path}: {spoiled}; kept the {len(self.events)} complete events before it"


def read_log(path: Path, data: bytes, log_format: LogFormat[E], lenient: bool = False) -> LoadedLog[E]:
    """The events of a log's bytes; `LogError` for a log with no event or a bad line before its last (or a
    bad whole last line, unless `lenient`)."""
    if len(data) > log_format.limits.size:
        raise LogError(f"{path}: too large (over {log_format.limits.size:,} bytes)")
    numbered, start, blank, lost = [], 0, None, None
    for number, raw in enumerate(data.split(b"\n"), start=1):
        if raw.strip():
            if blank is not None:
                # Events are written one a line, never a blank one: a blank line between two is an event
                # lost, and a game continued without it (a throw again) could be legal and score otherwise.
                # Said once the lines before it are read: a file that is no log is named so by its first.
                lost = blank
                break
            numbered.append((number, raw, start))
        elif numbered and blank is None:
            blank = number
        start += len(raw) + 1
    events: list[E] = []
    for index, (number, raw, start) in enumerate(numbered):
        try:
            events.append(_parse(raw, number, log_format))
        except LogError as exc:
            whole = data[start + len(raw) : start + len(raw) + 1] == b"\n"
            if lost is not None or index < len(numbered) - 1 or (whole and not lenient) or not events:
                raise LogError(f"{path}: {exc}") from exc
            why = str(exc) if whole else ""
            return LoadedLog(path, tuple(events), number, raw.decode("utf-8", "replace"), start, why)
    if lost is not None:
        raise LogError(f"{path}: line {lost}: empty between two events (a lost event?)")
    if not events:
        raise LogError(f"{path}: no event in the log")
    return LoadedLog(path, tuple(events))


def load_log(path: str | Path, log_format: LogFormat[E], lenient: bool = False) -> LoadedLog[E]:
    """Read a log file (`read_log`); a file that cannot be read is a `LogError` too."""
    path = Path(path)
    try:
        data = read_bytes(path, log_format.limits)
    except JsonFileError as exc:
        raise LogError(str(exc)) from exc
    return read_log(path, data, log_format, lenient)


def _parse(raw: bytes, number: int, log_format: LogFormat[E]) -> E:
    try:
        obj = loads(raw, log_format.limits, line=number)
    except JsonFileError as exc:
        raise LogError(str(exc)) from exc
    try:
        return log_format.parse(obj)
    except log_format.bad_event as exc:
        raise LogError(f"line {number}: not a valid event ({exc})") from exc


def set_cut_line_aside(loaded: LoadedLog[Any]) -> None:
    """Move a spoiled last line to `PATH.cut` and out of the log, so the next event starts a fresh line."""
    if loaded.cut_line is None:
        return
    path = loaded.path
    with open(path.with_name(path.name + ".cut"), "a", encoding="utf-8") as keep:
        keep.write(loaded.cut_text + "\n")
    with open(path, "r+b") as file:
        file.truncate(loaded.cut_at)
        file.flush()
        os.fsync(file.fileno())


class GameLog(Generic[E]):
    """An open log file that events are appended to, each flushed and fsynced before `append` returns."""

    def __init__(self, path: str | Path, encode: Callable[[E], dict[str, Any]]) -> None:
        self.path = Path(path)
        self.encode = encode
        # Unbuffered: a write that fails leaves nothing in a buffer to reach the file later.
        self._file = open_held(self.path, "ab", buffering=0)

    def end_last_line(self) -> None:
        """A whole last event written without its newline (read back as an event): end its line before
        appending. Done once the log is read as a game's, so that a file that is none is left as it was."""
        if os.fstat(self._file.fileno()).st_size and not self.path.read_bytes().endswith(b"\n"):
            self._write(b"\n")

    @classmethod
    def create(cls, path: str | Path, first: E, encode: Callable[[E], dict[str, Any]]) -> GameLog[E]:
        """Start a new log with its set-up event; refuses to overwrite an existing file."""
        return cls.written(path, [first], encode)

    @classmethod
    def written(
        cls, path: str | Path, events: Sequence[E], encode: Callable[[E], dict[str, Any]]
    ) -> GameLog[E]:
        """A new log holding `events` (the set-up first), written at once: refuses to overwrite an existing
        file (`LogError`), and leaves no file where the write fails (`LogWriteError`)."""
        path = Path(path)
        if path.exists():
            raise LogError(f"{path}: a game log already exists there")
        log = cls(path, encode)
        try:
            log._write(b"".join(log._line(event) for event in events))
        except LogWriteError:
            log.close()
            path.unlink(missing_ok=True)
            raise
        return log

    def append(self, event: E) -> None:
        self._write(self._line(event))

    def _line(self, event: E) -> bytes:
        return f"{log_line(self.encode(event))}\n".encode()

    def _in_place(self) -> os.stat_result:
        """The open file's status, once the file at `path` is found to be it (else `LogLost`)."""
        try:
            there = os.stat(self.path)
        except FileNotFoundError:
            raise LogLost(self.path, replaced=False) from None
        except OSError as exc:
            raise LogWriteError(
                f"{self.path}: the game's log cannot be checked ({exc.strerror or exc})"
            ) from exc
        mine = os.fstat(self._file.fileno())
        if not os.path.samestat(there, mine):
            raise LogLost(self.path, replaced=True)
        return mine

    def _write(self, data: bytes) -> None:
        """Write all of `data` and fsync it, or leave the file as it was and raise `LogWriteError`."""
        size = self._in_place().st_size
        try:
            written = 0
            while written < len(data):
                written += self._file.write(data[written:]) or 0
            os.fsync(self._file.fileno())
        except OSError as exc:
            try:
                os.ftruncate(self._file.fileno(), size)
                os.fsync(self._file.fileno())
            except OSError:
                pass  # the file is already unwritable; reading it back moves a cut line aside
            why = exc.strerror or type(exc).__name__
            raise LogWriteError(f"{self.path}: the move was not saved ({why})") from exc

    def truncate_last(self) -> None:
        """Undo: remove the last event line from the file (the log stays one event per line). The file is
        opened by name to read it (the log is open for appending only), and cut only if it is the log."""
        mine = self._in_place()
        with open(self.path, "r+b") as file:
            if not os.path.samestat(os.fstat(file.fileno()), mine):
                raise LogLost(self.path, replaced=True)  # put there since it was checked
            data = file.read()
            file.truncate(data.rstrip(b"\n").rfind(b"\n") + 1)
            file.flush()
            os.fsync(file.fileno())

    def close(self) -> None:
        self._file.close()

    def __enter__(self) -> GameLog[E]:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, value: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()


def log_line(event: object) -> str:
    """An event's JSON as a log's line holds it (without its line end): compact, its names as typed."""
    return json.dumps(event, ensure_ascii=False, separators=(",", ":"))


def log_text(events: Iterable[E], encode: Callable[[E], dict[str, Any]]) -> str:
    """A game log's text: one event a line (the examples are written with it)."""
    return "".join(json.dumps(encode(e), separators=(",", ":")) + "\n" for e in events)


def write_log(path: str | Path, events: list[E], encode: Callable[[E], dict[str, Any]]) -> None:
    """Write a whole event list as a new log (e.g. an example game)."""
    GameLog.written(path, events, encode).close()
