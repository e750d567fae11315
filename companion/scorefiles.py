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

__all__ = ["LIMITS", "ScoreFileError", "Scored", "game_of", "score_path"]


def _head(data: bytes) -> tuple[object, bool]:
    """The file's JSON value when it is one, else its first line's (None: neither parses), and whether the
    file is a game log: several lines, the first an event."""
    try:
        return loads(data, LIMITS), False
    except JsonFileError:
        try:
            first = loads(data.lstrip().split(b"\n", 1)[0], LIMITS)
        except JsonFileError:
            return None, False
    return first, isinstance(first, dict) and "event" in first


def game_of(data: bytes) -> object:
    """The `"game"` the file names (None where it names none or is not JSON: its game's reader says why)."""
    head, _ = _head(data)
    return head.get("game") if isinstance(head, dict) else None


def _entry(path: Path, game: object) -> GameEntry:
    """The game a file names; `ScoreFileError` for a game the table does not know."""
    if game is None:
        return FIRST_GAME
    if not isinstance(game, str) or game not in GAMES:
        raise ScoreFileError(f"{path}: game: unknown game {short(game)} (known: {', '.join(GAMES)})")
    return GAMES[game]


def score_path(path: str | Path) -> Scored:
    """Score any game's file; every problem is a `ScoreFileError`."""
    path = Path(path)
    try:
        data = read_bytes(path, LIMITS)
    except JsonFileError as exc:
        raise ScoreFileError(str(exc)) from exc
    head, is_log = _head(data)
    entry = _entry(path, head.get("game") if isinstance(head, dict) else None)
    warning = ""
    if entry.rules is not None and is_log:
        try:
            loaded = read_log(path, data, entry.rules.log)
        except LogError as exc:
            raise ScoreFileError(str(exc)) from exc
        if loaded.cut_line is not None:
            data, warning = data[: loaded.cut_at], loaded.warning
    scored = entry.score(path, data)
    return replace(scored, warning=scored.warning or warning)
