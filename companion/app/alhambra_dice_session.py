"""One Alhambra dice game being played: the engine's state, its log on disk (one fsynced line per event, the
same log file as Roll & Write's) and undo/redo. As `session.GameSession`, it holds no rule: every event goes
through the engine, which refuses an illegal one with the reason, and only an accepted event is written.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from companion.games import alhambra_dice as ad
from companion.games.alhambra_dice.events import event_to_json
from companion.games.alhambra_dice.scorefile import LIMITS, read_log
from companion.games.alhambra_rw.log import GameLog
from vision.jsonfile import JsonFileError, read_bytes

from .session import new_log_path


class ResumeError(ValueError):
    """A saved Alhambra dice game cannot be continued; the message names the file and why."""


@dataclass
class AlhambraDiceSession:
    """An Alhambra dice game in progress, kept on disk as it is played."""

    path: Path
    log: GameLog
    events: list[ad.Event]
    state: ad.GameState
    redo_stack: list[ad.Event] = field(default_factory=list)

    @classmethod
    def create(cls, folder: Path, setup: ad.GameStarted, now: datetime) -> AlhambraDiceSession:
        """Start a new game (the engine refuses an impossible set-up with `IllegalMove`) and its log."""
        state = ad.start(setup)
        folder.mkdir(parents=True, exist_ok=True)
        path = new_log_path(folder, setup.players, now)
        return cls(path, GameLog.create(path, setup, event_to_json), [setup], state)

    @classmethod
    def resume(cls, path: Path) -> AlhambraDiceSession:
        """Continue a saved game; `ResumeError` says why one cannot be."""
        events = _events(path)
        return cls(path, GameLog(path, event_to_json), events, _replayed(path, events))

    def expectation(self) -> ad.Expectation:
        return ad.expectation(self.state)

    def submit(self, event: ad.Event) -> ad.GameState:
        """Apply a new event (or raise `IllegalMove`, changing nothing) and append it to the log."""
        self.state = ad.apply(self.state, event)
        self.log.append(event)
        self.events.append(event)
        self.redo_stack.clear()
        return self.state

    def undo(self) -> ad.Event:
        """Take back the last event (not the start of the game); raises `IllegalMove` when there is none."""
        kept, state = ad.undo(self.events)
        self.log.truncate_last()
        self.redo_stack.append(self.events[-1])
        self.events, self.state = kept, state
        return self.redo_stack[-1]

    def redo(self) -> ad.Event:
        """Re-apply the last undone event; raises `IllegalMove` when there is nothing to redo."""
        if not self.redo_stack:
            raise ad.IllegalMove("nothing to redo")
        event = self.redo_stack[-1]
        self.state = ad.apply(self.state, event)
        self.log.append(event)
        self.events.append(event)
        self.redo_stack.pop()
        return event

    def close(self) -> None:
        self.log.close()


def _events(path: Path) -> list[ad.Event]:
    try:
        return read_log(path, read_bytes(path, LIMITS))
    except (ad.ScoreFileError, JsonFileError) as exc:
        raise ResumeError(str(exc)) from exc


def _replayed(path: Path, events: list[ad.Event]) -> ad.GameState:
    try:
        return ad.replay(events)
    except ad.IllegalMove as exc:
        raise ResumeError(f"{path}: {exc}") from exc


def resumed_state(path: Path) -> ad.GameState:
    """The state a saved game would continue from; `ResumeError` says why it cannot."""
    return _replayed(path, _events(path))
