"""A game whose engine is a pure fold over events (Alhambra dice, Carcassonne dice) being played: the engine's
state, its log on disk (one fsynced line per event, the same log file as Roll & Write's) and undo/redo.

As `session.GameSession`, it holds no rule: every event goes through the engine, which refuses an illegal one
with `IllegalMove` and the reason, and only an accepted event is written. Each game gives its engine and log
format as `Rules`; its session class adds the typed `create`, `resume` and `expectation`.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Generic, Self, TypeVar

from companion.games.alhambra_rw.log import GameLog
from companion.games.folding import IllegalMove
from vision.jsonfile import JsonFileError, Limits, read_bytes

from .session import new_log_path

E = TypeVar("E")
S = TypeVar("S")


class ResumeError(ValueError):
    """A saved game cannot be continued; the message names the file and why."""


@dataclass(frozen=True)
class Rules(Generic[E, S]):
    """What a session needs of a game: its engine's fold and its log's format."""

    apply: Callable[[S, E], S]
    replay: Callable[[list[E]], S]
    """The state after a list of events, the set-up first (refusing an impossible set-up)."""
    undo: Callable[[list[E]], tuple[list[E], S]]
    to_json: Callable[[E], dict[str, Any]]
    read_log: Callable[[Path, bytes], list[E]]
    """The events of a log file's bytes; raises `log_error` naming the bad line."""
    log_error: type[Exception]
    limits: Limits


@dataclass
class EventSession(Generic[E, S]):
    """A game in progress, kept on disk as it is played."""

    rules: Rules[E, S]
    path: Path
    log: GameLog
    events: list[E]
    state: S
    redo_stack: list[E] = field(default_factory=list)

    @classmethod
    def started(
        cls, rules: Rules[E, S], folder: Path, setup: E, players: tuple[str, ...], now: datetime
    ) -> Self:
        """Start a new game (the engine refuses an impossible set-up with `IllegalMove`) and its log."""
        state = rules.replay([setup])
        folder.mkdir(parents=True, exist_ok=True)
        path = new_log_path(folder, players, now)
        return cls(rules, path, GameLog.create(path, setup, rules.to_json), [setup], state)

    @classmethod
    def loaded(cls, rules: Rules[E, S], path: Path) -> Self:
        """Continue a saved game; `ResumeError` says why one cannot be."""
        events = _events(rules, path)
        return cls(rules, path, GameLog(path, rules.to_json), events, _replayed(rules, path, events))

    def line(self, event: E) -> str:
        """One line of the game log on screen: the event as the log file holds it, without the JSON noise."""
        data = self.rules.to_json(event)
        kind = data.pop("event")
        return f"{kind}: " + json.dumps(data, ensure_ascii=False)[1:-1].replace('"', "")

    def submit(self, event: E) -> S:
        """Apply a new event (or raise `IllegalMove`, changing nothing) and append it to the log."""
        self.state = self.rules.apply(self.state, event)
        self.log.append(event)
        self.events.append(event)
        self.redo_stack.clear()
        return self.state

    def undo(self) -> E:
        """Take back the last event (not the start of the game); raises `IllegalMove` when there is none."""
        kept, state = self.rules.undo(self.events)
        self.log.truncate_last()
        self.redo_stack.append(self.events[-1])
        self.events, self.state = kept, state
        return self.redo_stack[-1]

    def redo(self) -> E:
        """Re-apply the last undone event; raises `IllegalMove` when there is nothing to redo."""
        if not self.redo_stack:
            raise IllegalMove("nothing to redo")
        event = self.redo_stack[-1]
        self.state = self.rules.apply(self.state, event)
        self.log.append(event)
        self.events.append(event)
        self.redo_stack.pop()
        return event

    def close(self) -> None:
        self.log.close()


def _events(rules: Rules[E, S], path: Path) -> list[E]:
    try:
        return rules.read_log(path, read_bytes(path, rules.limits))
    except (rules.log_error, JsonFileError) as exc:
        raise ResumeError(str(exc)) from exc


def _replayed(rules: Rules[E, S], path: Path, events: list[E]) -> S:
    try:
        return rules.replay(events)
    except IllegalMove as exc:
        raise ResumeError(f"{path}: {exc}") from exc


def resumed_state(rules: Rules[E, S], path: Path) -> S:
    """The state a saved game would continue from; `ResumeError` says why it cannot."""
    return _replayed(rules, path, _events(rules, path))
