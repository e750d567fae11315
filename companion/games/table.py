"""The table of games: one row per game, and every place that differs from game to game reads it.

A new game is one folder under `companion/games/` with its `entry.ENTRY`, and one row here.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .alhambra import entry as alhambra
from .alhambra_dice import entry as alhambra_dice_entry
from .alhambra_rw import entry as alhambra_rw_entry
from .carcassonne_dice import entry as carcassonne_dice_entry
from .entry import GameEntry
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
"""The game of files that name none: Roll & Write's files came before there were other games."""

PLAYED = {game_id: entry for game_id, entry in GAMES.items() if entry.rules is not None}
"""The games played move by move, with a log."""

SAVED = {game_id: entry for game_id, entry in GAMES.items() if entry.summary is not None}
"""The games whose saved games the games folder holds: the logs of the played games, and files of their own
(the original Alhambra's pads)."""


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
