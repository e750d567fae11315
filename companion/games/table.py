"""The table of games: one row per game, and every place that differs from game to game reads it.

A new game is one folder under `companion/games/` with its `entry.ENTRY`, and one row here.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from jsonfile import short

from .alhambra import entry as alhambra
from .alhambra_dice import entry as alhambra_dice_entry
from .alhambra_rw import entry as alhambra_rw_entry
from .carcassonne_dice import entry as carcassonne_dice_entry
from .entry import GameEntry, NewGame, ScoreFileError
from .session import Rules

GAMES: Mapping[str, GameEntry] = {
    entry.id: entry
    for entry in (
        alhambra_rw_entry.ENTRY,
        alhambra_dice_entry.ENTRY,
        carcassonne_dice_entry.ENTRY,
        alhambra.ENTRY,
    )
}
"""Every game, the first (Alhambra Roll & Write) first."""

FIRST_GAME = alhambra_rw_entry.ENTRY
"""The first game, and the game of files that name none (`game_named`)."""

PLAYED = {game_id: entry for game_id, entry in GAMES.items() if entry.rules is not None}
"""The games played move by move, with a log."""

SAVED = {game_id: entry for game_id, entry in GAMES.items() if entry.summary is not None}
"""The games whose saved games the games folder holds: the logs of the played games, and files of their own
(the original Alhambra's pads)."""


def game_named(game: object, path: Path) -> GameEntry:
    """The game a file at `path` names in its `"game"` (`game`). None, a file naming none, is Roll & Write's:
    its end states and its older logs came before there were other games, and name none. `ScoreFileError`
    for a game the table does not know."""
    if game is None:
        return FIRST_GAME
    if not isinstance(game, str) or game not in GAMES:
        raise ScoreFileError(f"{path}: game: unknown game {short(game)} (known: {', '.join(GAMES)})")
    return GAMES[game]


NEW_GAMES = tuple(new for entry in GAMES.values() for new in entry.new_games)
"""The games the start screen's form starts, in its game choice's order."""


def entry_of_new_game(new: NewGame) -> GameEntry:
    """The game of one the start screen's form starts."""
    return next(entry for entry in GAMES.values() if new in entry.new_games)


def entry_of_file(path: Path) -> GameEntry | None:
    """The game kept without a log whose files are named like `path` (None: a game log, whose first line
    names its game)."""
    return next(
        (e for e in SAVED.values() if e.rules is None and fnmatch.fnmatch(path.name, e.files)),
        None,
    )


def entry_of_rules(rules: Rules[Any, Any, Any]) -> GameEntry:
    """The game a session plays, by the rules it was made with."""
    return next(entry for entry in PLAYED.values() if entry.rules is rules)
