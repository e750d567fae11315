"""A game log's text, one event a JSON object per line: reading it back checked line by line, and writing it.

Every engine's events convert to and from JSON objects (`event_to_json`, `event_from_json`); this module is
the file around them, so every game's log reads and fails the same way.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, TypeVar

from vision.jsonfile import JsonFileError, Limits, loads

EventT = TypeVar("EventT")


def read_events(
    path: Path,
    data: bytes,
    limits: Limits,
    parse: Callable[[object], EventT],
    bad_event: type[Exception],
    error: type[Exception],
) -> list[EventT]:
    """The events of a log's bytes, one per line; `error` (one line) names the file and the line of a bad
    one: JSON that does not parse, or an event `parse` refuses with `bad_event`."""
    if len(data) > limits.size:
        raise error(f"{path}: too large (over {limits.size:,} bytes)")
    events = []
    for number, line in enumerate(data.split(b"\n"), start=1):
        if not line.strip():
            continue
        try:
            events.append(parse(loads(line, limits, line=number)))
        except JsonFileError as exc:
            raise error(f"{path}: {exc}") from exc
        except bad_event as exc:
            raise error(f"{path}: line {number}: not a valid event ({exc})") from exc
    if not events:
        raise error(f"{path}: no event in the log")
    return events


def log_text(events: Iterable[EventT], to_json: Callable[[EventT], dict[str, Any]]) -> str:
    """A game log's text: one event a line (the examples are written with it)."""
    return "".join(json.dumps(to_json(e), separators=(",", ":")) + "\n" for e in events)
