"""One game being played: the engine's state, its log on disk (one fsynced line per event) and undo/redo.

The session holds no rule: every event goes through the engine's `apply`, which raises `IllegalMove` with the
reason, and only an accepted event is written to the log. Undo drops the log's last line; redo re-applies an
undone event (redo is kept in memory only: what is on disk is always exactly the game as played).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from datetime import datetime
from pathlib import Path

from companion.games import alhambra_dice as ad
from companion.games import alhambra_rw as rw
from companion.games import carcassonne_dice as cd
from companion.games.alhambra_dice.engine import ROUNDS as AD_ROUNDS
from companion.games.alhambra_rw.endstate import GAME_ID as ALHAMBRA_RW
from companion.log_index import read_through

LOG_SUFFIX = ".jsonl"
MAX_FIRST_LINE = 100_000
"""A game_started line is at most a few KB (Roll & Write's holds its sheet): more is no log's first line."""


def _slug(names: tuple[str, ...]) -> str:
    text = "-".join(names).lower()
    return re.sub(r"[^a-z0-9]+", "-", text).strip("-")[:40] or "game"


def new_log_path(folder: Path, players: tuple[str, ...], now: datetime) -> Path:
    """A fresh file name for a new game (of any game): start time and the players' names."""
    stem = f"{now:%Y%m%d-%H%M%S}-{_slug(players)}"
    path = folder / f"{stem}{LOG_SUFFIX}"
    n = 2
    while path.exists():
        path = folder / f"{stem}-{n}{LOG_SUFFIX}"
        n += 1
    return path


@dataclass
class GameSession:
    """A game in progress, kept on disk as it is played."""

    path: Path
    log: rw.GameLog
    events: list[rw.Event]
    state: rw.GameState
    redo_stack: list[rw.Event] = field(default_factory=list)
    warning: str = ""
    """Set when the log's last line was cut off by a crash (the cut text is kept in `PATH.cut`)."""

    @classmethod
    def create(cls, folder: Path, setup: rw.GameStarted, now: datetime) -> GameSession:
        """Start a new game (the engine refuses an impossible set-up with `IllegalMove`) and its log."""
        state = rw.start(setup)
        folder.mkdir(parents=True, exist_ok=True)
        path = new_log_path(folder, setup.players, now)
        return cls(path, rw.GameLog.create(path, setup), [setup], state)

    @classmethod
    def resume(cls, path: Path) -> GameSession:
        """Continue a saved game; raises `LogError` when the log cannot be read or replayed."""
        log, loaded = rw.GameLog.resume(path)
        try:
            state = rw.replay_log(loaded).state
        except rw.LogError:
            log.close()
            raise
        return cls(path, log, list(loaded.events), state, warning=loaded.warning)

    @property
    def setup(self) -> rw.GameStarted:
        first = self.events[0]
        assert isinstance(first, rw.GameStarted)
        return first

    def expectation(self) -> rw.Expectation:
        return rw.expectation(self.state)

    def submit(self, event: rw.Event) -> rw.GameState:
        """Apply a new event (or raise `IllegalMove`, changing nothing) and append it to the log."""
        self.state = rw.apply(self.state, event)
        self.log.append(event)
        self.events.append(event)
        self.redo_stack.clear()
        return self.state

    def undo(self) -> rw.Event:
        """Take back the last event (not the start of the game); raises `IllegalMove` when there is none."""
        kept, state = rw.undo(self.events)
        self.log.truncate_last()
        undone = self.events[-1]
        self.events, self.state = kept, state
        self.redo_stack.append(undone)
        return undone

    def redo(self) -> rw.Event:
        """Re-apply the last undone event; raises `IllegalMove` when there is nothing to redo."""
        if not self.redo_stack:
            raise rw.IllegalMove("nothing to redo")
        event = self.redo_stack[-1]
        self.state = rw.apply(self.state, event)
        self.log.append(event)
        self.events.append(event)
        self.redo_stack.pop()
        return event

    def close(self) -> None:
        self.log.close()


@dataclass(frozen=True)
class SavedGame:
    """A game log as the start screen lists it."""

    path: Path
    players: tuple[str, ...]
    imaginary: tuple[str, ...]
    variant: str
    round: int
    rounds: int
    over: bool
    modified: datetime
    problem: str = ""
    """Why the log cannot be continued ('' when it can)."""
    game: str = ALHAMBRA_RW


SAVED_KIND = "saved-games"
"""The log index's name for the start screen's read-backs."""


def saved_games(folder: Path) -> list[SavedGame]:
    """Every game log in `folder`, the most recently played first; unreadable logs are listed with why. Each
    log is read once, then taken from the index beside the logs while it stays as it was."""
    if not folder.is_dir():
        return []
    paths = list(folder.glob(f"*{LOG_SUFFIX}"))
    games = []
    for path, back in zip(paths, read_through(folder, SAVED_KIND, paths, _saved_read_back), strict=True):
        fields = {**back, "players": tuple(back["players"]), "imaginary": tuple(back["imaginary"])}
        games.append(SavedGame(path, modified=datetime.fromtimestamp(path.stat().st_mtime), **fields))
    return sorted(games, key=lambda g: (g.modified, g.path.name), reverse=True)


def _saved_read_back(path: Path) -> dict[str, object]:
    """One log as the start screen lists it, as JSON for the index (the path and time are the file's own)."""
    fields = asdict(_read_saved_games([path])[0])
    del fields["path"], fields["modified"]
    return fields


def _read_saved_games(paths: Iterable[Path]) -> list[SavedGame]:
    games = []
    for path in paths:
        modified = datetime.fromtimestamp(path.stat().st_mtime)
        game = _first_game(path)
        if game == ad.GAME_ID:
            games.append(_alhambra_dice_game(path, modified))
            continue
        if game == cd.GAME_ID:
            games.append(_carcassonne_dice_game(path, modified))
            continue
        try:
            state = rw.replay_log(rw.load_log(path)).state
        except rw.LogError as exc:
            games.append(SavedGame(path, (), (), "", 0, 0, False, modified, str(exc)))
            continue
        setup = state.start
        games.append(
            SavedGame(
                path,
                setup.players,
                setup.imaginary,
                setup.variant,
                state.round,
                state.rounds,
                state.is_over,
                modified,
            )
        )
    return sorted(games, key=lambda g: (g.modified, g.path.name), reverse=True)


def _first_game(path: Path) -> object:
    """The `"game"` its first line names (each game's log starts with its game_started event)."""
    try:
        with open(path, "rb") as file:
            first = json.loads(file.readline(MAX_FIRST_LINE))
    except (OSError, ValueError):
        return None
    return first.get("game") if isinstance(first, dict) else None


def _alhambra_dice_game(path: Path, modified: datetime) -> SavedGame:
    from .alhambra_dice_session import RULES  # they build on this module
    from .event_session import ResumeError, resumed_state

    try:
        state = resumed_state(RULES, path)
    except ResumeError as exc:
        return SavedGame(path, (), (), "", 0, 0, False, modified, str(exc), ad.GAME_ID)
    real = tuple(n for i, n in enumerate(state.names) if i != state.dirk)
    dirk = () if state.dirk is None else (state.names[state.dirk],)
    return SavedGame(path, real, dirk, "", state.round, AD_ROUNDS, state.is_over, modified, "", ad.GAME_ID)


def _carcassonne_dice_game(path: Path, modified: datetime) -> SavedGame:
    """A Carcassonne dice game has no rounds: `round` is the turn being played, `rounds` 0."""
    from .carcassonne_dice_session import RULES  # it builds on this module
    from .event_session import ResumeError, resumed_state

    try:
        state = resumed_state(RULES, path)
    except ResumeError as exc:
        return SavedGame(path, (), (), "", 0, 0, False, modified, str(exc), cd.GAME_ID)
    return SavedGame(path, state.names, (), "", state.turn, 0, state.is_over, modified, "", cd.GAME_ID)
