"""The saved games the start screen lists: every game log in the games folder, of any game, with how far it
has come, or why it cannot be continued."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from companion.games.entry import GameEntry, Summary
from companion.games.session import LOG_SUFFIX, ResumeError, resumed_state
from companion.games.table import FIRST_GAME, PLAYED

MAX_FIRST_LINE = 100_000
"""A game_started line is at most a few KB (Roll & Write's holds its sheet): more is no log's first line."""


@dataclass(frozen=True)
class SavedGame:
    """A game log as the start screen lists it."""

    path: Path
    modified: datetime
    game: GameEntry
    summary: Summary | None
    """How far the game has come (None: it cannot be continued, and `problem` says why)."""
    problem: str = ""

    @property
    def players(self) -> tuple[str, ...]:
        return () if self.summary is None else self.summary.players


def saved_games(folder: Path) -> list[SavedGame]:
    """Every game log in `folder`, the most recently played first; unreadable logs are listed with why."""
    if not folder.is_dir():
        return []
    games = []
    for path in folder.glob(f"*{LOG_SUFFIX}"):
        modified = datetime.fromtimestamp(path.stat().st_mtime)
        game = game_of_log(path)
        assert game.rules is not None and game.summary is not None  # a played game's row gives both
        try:
            summary = game.summary(resumed_state(game.rules, path))
        except ResumeError as exc:
            games.append(SavedGame(path, modified, game, None, str(exc)))
            continue
        games.append(SavedGame(path, modified, game, summary))
    return sorted(games, key=lambda g: (g.modified, g.path.name), reverse=True)


def game_of_log(path: Path) -> GameEntry:
    """The game a log's first line names (its game_started event); a log naming none, or a game that is
    not played move by move, is read as the first game's, whose reader then says what is wrong."""
    try:
        with open(path, "rb") as file:
            first = json.loads(file.readline(MAX_FIRST_LINE))
    except (OSError, ValueError):
        return FIRST_GAME
    game = first.get("game") if isinstance(first, dict) else None
    return PLAYED.get(game, FIRST_GAME) if isinstance(game, str) else FIRST_GAME
