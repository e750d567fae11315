"""One game being played, of any game: the engine's state, its log on disk and undo/redo.

The session holds no rule: every event goes through the engine, which refuses an illegal one with
`IllegalMove` and the reason, and only an accepted event is written to the log (one fsynced line per event).
A write that fails (a full disk) is refused with `LogWriteError` and the move is not taken. A game is
continued past a spoiled last line (cut off by a crash, or a stray line after its last event): the line is
moved to `PATH.cut` and the players told. Undo drops the
log's last line; redo re-applies an undone event (kept in memory only: what is on disk is always exactly the
game as played). A log deleted while the game is played is written again whole at its path; one replaced by
another file (never touched) at a free name beside it, where the game goes on. The move (or undo) that found
it so is refused with `LogWriteError` saying where the game is now, so that it is said on screen the way a
full disk is, and the players make it again. Each game gives its engine and its log's format as `Rules`.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import partial
from pathlib import Path
from typing import Generic, TypeVar

from jsonfile.folders import free_path, make_folder

from .eventlog import (
    GameLog,
    LoadedLog,
    LogError,
    LogFormat,
    LogLost,
    LogWriteError,
    load_log,
    set_cut_line_aside,
)
from .folding import IllegalMove
from .held import InUse

E = TypeVar("E")
S = TypeVar("S")
X = TypeVar("X")

LOG_SUFFIX = ".jsonl"

__all__ = ["LOG_SUFFIX", "LogWriteError", "ResumeError", "Rules", "Session", "log_stem", "new_log_path"]


class ResumeError(ValueError):
    """A saved game cannot be continued; the message names the file and why."""


@dataclass(frozen=True)
class Rules(Generic[E, S, X]):
    """What a session needs of a game: its engine's fold, what it expects next, and its log's format."""

    log: LogFormat[E]
    replay: Callable[[list[E]], S]
    """The state after a list of events, the set-up first (`IllegalMove` for an impossible set-up)."""
    apply: Callable[[S, E], S]
    undo: Callable[[list[E]], tuple[list[E], S]]
    expectation: Callable[[S], X]
    players: Callable[[E], tuple[str, ...]]
    """The players a set-up event names, for the log's file name."""

    def steps(self, events: Sequence[E]) -> Iterator[tuple[S, E, S]]:
        """Each event with the state before and after it, the game replayed event by event (the set-up: its
        own state on both sides): how a game's log is worded, on its screen and in a replay."""
        state = self.replay(list(events[:1]))
        yield state, events[0], state
        for event in events[1:]:
            after = self.apply(state, event)
            yield state, event, after
            state = after

    def last_step(self, events: Sequence[E]) -> tuple[S, E, S]:
        """The last event with the state before and after it (the set-up: its own state on both sides), the
        game replayed once, as `replay` does: the latest move as the game's log words it."""
        if len(events) == 1:
            state = self.replay(list(events))
            return state, events[0], state
        before = self.replay(list(events[:-1]))
        try:
            return before, events[-1], self.apply(before, events[-1])
        except IllegalMove as exc:  # named by its place in the log, as `replay` names every other
            raise IllegalMove(f"event {len(events)}: {exc}") from exc


_UNDECOMPOSED = str.maketrans({"ø": "o", "ł": "l", "æ": "ae", "đ": "d", "œ": "oe", "þ": "th", "ð": "d"})
"""Letters with no accent to take off (case folded first), folded by hand: Søren and Łukasz read
`s-ren-ukasz`."""


def _slug(names: tuple[str, ...]) -> str:
    # Accents folded to their letters, not dropped: Jürgen and Zoë read `j-rgen-zo`; Groß `gro`.
    decomposed = unicodedata.normalize("NFKD", "-".join(names).casefold().translate(_UNDECOMPOSED))
    text = "".join(char for char in decomposed if not unicodedata.combining(char))
    return re.sub(r"[^a-z0-9]+", "-", text).strip("-")[:40] or "game"


def log_stem(players: tuple[str, ...], now: datetime) -> str:
    """A new game's log's name without its suffix (of any game): start time and the players' names."""
    return f"{now:%Y%m%d-%H%M%S}-{_slug(players)}"


def new_log_path(folder: Path, players: tuple[str, ...], now: datetime) -> Path:
    """A fresh file name for a new game (of any game)."""
    return free_path(folder, log_stem(players, now), LOG_SUFFIX)


@dataclass
class Session(Generic[E, S, X]):
    """A game in progress, kept on disk as it is played."""

    rules: Rules[E, S, X]
    path: Path
    log: GameLog[E]
    events: list[E]
    state: S
    redo_stack: list[E] = field(default_factory=list)
    warning: str = ""
    """Set when the log's last line was spoiled (cut off by a crash): its text is kept in `PATH.cut`."""

    @classmethod
    def create(cls, rules: Rules[E, S, X], folder: Path, setup: E, now: datetime) -> Session[E, S, X]:
        """Start a new game (the engine refuses an impossible set-up with `IllegalMove`) and its log."""
        state = rules.replay([setup])
        make_folder(folder)
        while True:
            path = new_log_path(folder, rules.players(setup), now)
            try:
                log = GameLog.create(path, setup, rules.log.encode)
            except (LogError, InUse):
                # Another window began a game of these players in the same second and took the name since it
                # was chosen: the file is there now, so the next name chosen is another.
                continue
            return cls(rules, path, log, [setup], state)

    @classmethod
    def resume(cls, rules: Rules[E, S, X], path: Path) -> Session[E, S, X]:
        """Continue a saved game; `ResumeError` says why one cannot be. A spoiled last line is moved aside.
        The log is held first, so that nothing changes it between reading it and going on."""
        try:
            log = GameLog(path, rules.log.encode)
        except InUse as exc:
            raise ResumeError(f"{path}: {exc}") from exc
        except OSError as exc:
            raise ResumeError(f"{path}: cannot be written ({exc.strerror or exc})") from exc
        try:
            loaded = _loaded(rules, path)
            state = _replayed(rules, loaded)
            set_cut_line_aside(loaded)
            log.end_last_line()
        except OSError as exc:
            log.close()
            raise ResumeError(f"{path}: cannot be written ({exc.strerror or exc})") from exc
        except ResumeError:
            log.close()
            raise
        # Said where the spoiled line went: a player who wants it back (to type the move again) finds it.
        kept = f" (its text is in {path.name}.cut)" if loaded.cut_line is not None else ""
        return cls(rules, path, log, list(loaded.events), state, warning=loaded.warning + kept)

    @property
    def setup(self) -> E:
        return self.events[0]

    def expectation(self) -> X:
        return self.rules.expectation(self.state)

    def submit(self, event: E) -> S:
        """Apply a new event and append it to the log; `IllegalMove` or `LogWriteError` change nothing. The
        move undone last, made again, is a redo: what was undone before it can still be redone (a screen
        makes the game's own moves again after a redo, and undoing a move took those back with it)."""
        self._take(event)
        if self.redo_stack and self.redo_stack[-1] == event:
            self.redo_stack.pop()
        else:
            self.redo_stack.clear()
        return self.state

    def undo(self) -> E:
        """Take back the last event (not the start of the game); raises `IllegalMove` when there is none."""
        kept, state = self.rules.undo(self.events)
        self._kept(self.log.truncate_last, "nothing was undone: undo again")
        self.redo_stack.append(self.events[-1])
        self.events, self.state = kept, state
        return self.redo_stack[-1]

    def redo(self) -> E:
        """Re-apply the last undone event; raises `IllegalMove` when there is nothing to redo."""
        if not self.redo_stack:
            raise IllegalMove("nothing to redo")
        event = self.redo_stack[-1]
        self._take(event)
        self.redo_stack.pop()
        return event

    def _take(self, event: E) -> None:
        """The engine's word first, then the log's: an event refused by either changes nothing."""
        state = self.rules.apply(self.state, event)
        self._kept(partial(self.log.append, event), "this move was not taken: make it again")
        self.state = state
        self.events.append(event)

    def _kept(self, write: Callable[[], None], again: str) -> None:
        """`write` to the log; where its file was lost from its path, the game is written again whole and
        the write refused (`LogWriteError`), saying where the game goes on and what to do `again`."""
        try:
            write()
        except LogLost as lost:
            path = self._written_again(lost)
            where = "there" if path == lost.path else f"at {path}"
            raise LogWriteError(f"{lost}: every move is written again {where}; {again}") from lost

    def _written_again(self, lost: LogLost) -> Path:
        """The game's events written whole as its log, at its path (folders made again) or, where another
        file took its place, at a free name beside it; the session goes on there (its path: returned)."""
        path = free_path(self.path.parent, self.path.stem, LOG_SUFFIX) if lost.replaced else self.path
        try:
            make_folder(path.parent)
            log = GameLog.written(path, self.events, self.rules.log.encode)
        except (OSError, LogError) as exc:
            why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            raise LogWriteError(f"{lost}, and cannot be written again at {path} ({why})") from exc
        self.log.close()
        self.log, self.path = log, path
        return path

    def close(self) -> None:
        self.log.close()


def _loaded(rules: Rules[E, S, X], path: Path) -> LoadedLog[E]:
    try:
        return load_log(path, rules.log, lenient=True)
    except LogError as exc:
        raise ResumeError(str(exc)) from exc


def _replayed(rules: Rules[E, S, X], loaded: LoadedLog[E]) -> S:
    try:
        return rules.replay(list(loaded.events))
    except IllegalMove as exc:
        raise ResumeError(f"{loaded.path}: {exc}") from exc
