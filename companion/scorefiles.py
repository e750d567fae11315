"""`companion score FILE`: the file's `"game"` field picks the game that scores it.

A JSON object names its game at the top; a game log names it in its first line (its `game_started` event).
Files without one are Alhambra Roll & Write's, whose end states and logs came before there were other games.
A log's spoiled last line (cut off by a crash) is left out of the scoring with a warning, in every game.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from companion.games.entry import GameEntry, Scored, ScoreFileError
from companion.games.eventlog import LOG_LIMITS, LogError, read_log
from companion.games.table import FIRST_GAME, GAMES
from jsonfile import JsonFileError, loads, read_bytes, short

LIMITS = LOG_LIMITS
"""The largest file any game scores (a log, an end state)."""

__all__ = ["LIMITS", "ScoreFileError", "Scored", "entry_of", "game_of", "score_path"]


def game_of(data: bytes) -> object:
    """The `"game"` the file names (None where it names none or is not JSON: its game's reader says why)."""
    try:
        whole = loads(data, LIMITS)
    except JsonFileError:
        try:
            whole = loads(data.lstrip().split(b"\n", 1)[0], LIMITS)
        except JsonFileError:
            return None
    return whole.get("game") if isinstance(whole, dict) else None


def entry_of(path: Path, data: bytes) -> GameEntry:
    """The game a file's bytes belong to; `ScoreFileError` for a game the table does not know."""
    game = game_of(data)
    if game is None:
        return FIRST_GAME
    if not isinstance(game, str) or game not in GAMES:
        raise ScoreFileError(f"{path}: game: unknown game {short(game)} (known: {', '.join(GAMES)})")
    return GAMES[game]


def _is_log(data: bytes) -> bool:
    """Several JSON lines, the first an event: a game log rather than one JSON object."""
    try:
        first = loads(data.lstrip().split(b"\n", 1)[0], LIMITS)
    except JsonFileError:
        return False
    try:
        loads(data, LIMITS)
    except JsonFileError:
        return isinstance(first, dict) and "event" in first
    return False


def score_path(path: str | Path) -> Scored:
    """Score any game's file; every problem is a `ScoreFileError`."""
    path = Path(path)
    try:
        data = read_bytes(path, LIMITS)
    except JsonFileError as exc:
        raise ScoreFileError(str(exc)) from exc
    entry = entry_of(path, data)
    warning = ""
    if entry.rules is not None and _is_log(data):
        try:
            loaded = read_log(path, data, entry.rules.log)
        except LogError as exc:
            raise ScoreFileError(str(exc)) from exc
        if loaded.cut_line is not None:
            data, warning = data[: loaded.cut_at], loaded.warning
    scored = entry.score(path, data)
    return replace(scored, warning=scored.warning or warning)
