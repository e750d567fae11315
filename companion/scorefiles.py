"""`companion score FILE`: the file's `"game"` field picks the game that scores it.

A JSON object names its game at the top; a game log names it in its first line (its `game_started` event).
Files without one are Alhambra Roll & Write's, whose end states and older logs came before there were other
games (`table.game_named`).
A log's spoiled last line (cut off by a crash) is left out of the scoring with a warning, in every game.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import partial
from pathlib import Path

from companion.games.entry import Scored, ScoreFileError
from companion.games.eventlog import LOG_LIMITS, LogError, read_log
from companion.games.table import GAMES, game_named
from jsonfile import JsonFileError, loads, read_bytes, short

LIMITS = LOG_LIMITS
"""The largest file any game scores (a log, an end state)."""

__all__ = ["LIMITS", "ScoreFileError", "Scored", "game_of", "score_path", "scored_whole"]


def _parsed(data: bytes) -> tuple[object, bool]:
    """A game log's first line's JSON value and True (a log: several lines, the first a JSON value by itself,
    as an event is and a damaged end state's opening brace is not), else the file's JSON value and whether it
    is one event; `JsonFileError` for a file that is neither. A log's lines are read by its game's log reader,
    which names a bad one."""
    first, _, rest = data.lstrip().partition(b"\n")
    if rest.strip():
        try:
            return loads(first, LIMITS), True
        except JsonFileError:
            pass
    whole = loads(data, LIMITS)
    return whole, isinstance(whole, dict) and "event" in whole


def scored_whole(path: Path) -> bool:
    """Whether the file at `path` is one JSON value that is no event (an end state, a turn file): scored
    whole, never a game log."""
    try:
        _, is_log = _parsed(read_bytes(path, LIMITS))
    except JsonFileError:
        return False
    return not is_log


def game_of(path: Path, first: bytes) -> object:
    """The `"game"` a log's first line names (None where it names none or is not JSON: its game's reader says
    why); `ScoreFileError` for a first line that is a later event (`_begun`)."""
    try:
        head, _ = _parsed(first)
    except JsonFileError:
        return None
    _begun(path, head)
    return head.get("game") if isinstance(head, dict) else None


def _begun(path: Path, head: object) -> None:
    """A log that lost its first line names no game, and was read as the first game's, whose reader called
    the next event of another game an unknown kind (`'rolled'`): said as the line it lacks."""
    event = head.get("event") if isinstance(head, dict) else None
    if isinstance(event, str) and event != "game_started":
        raise ScoreFileError(
            f"{path}: line 1: a game's log begins with its game_started event, not {short(event)} "
            "(its first line lost?)"
        )


def score_path(path: str | Path, sheets_dir: Path | None = None) -> Scored:
    """Score any game's file (which may name a sheet of the players' own, in `sheets_dir`); every problem is
    a `ScoreFileError`."""
    path = Path(path)
    try:
        data = read_bytes(path, LIMITS)
    except JsonFileError as exc:
        raise ScoreFileError(str(exc)) from exc
    try:
        head, is_log = _parsed(data)
        if is_log:
            _begun(path, head)
        game = head.get("game") if isinstance(head, dict) else None
        entry = game_named(game, path)
        if is_log and (entry.rules is None or entry.score_events is None):
            head = loads(data, LIMITS)  # a game kept without a log: one JSON value, or its error
    except JsonFileError as exc:
        raise ScoreFileError(f"{path}: {exc}") from exc
    rules, score_events = entry.rules, entry.score_events
    if not is_log and isinstance(head, dict) and head.keys() >= EXPORTED:
        raise ScoreFileError(f"{path}: {_exported(path)}")
    if not is_log or rules is None or score_events is None:
        # Another game's file that lost its "game" is read as the first game's: the refusal says so.
        guessed = f'; the file names no "game", so it was read as {entry.title}\'s' if game is None else ""
        return _named(path, partial(entry.score, head, sheets_dir), hint=guessed)
    try:
        loaded = read_log(path, data, rules.log)
    except LogError as exc:
        raise ScoreFileError(str(exc)) from exc
    return _named(path, partial(score_events, list(loaded.events)), loaded.warning)


EXPORTED = {"title", "finished", "totals", "winners", "scoring"}
"""The keys of the end screen's export (`GAME.score.json`), which is no game's file: read as the game's end
state, it was refused for an unknown field 'title', as if the user had mistyped a file the app wrote."""


def _exported(path: Path) -> str:
    """Why an exported scoring is not scored, and the game's own file beside it that is."""
    stem = path.name.removesuffix(".score.json")
    beside = (path.with_name(stem + entry.files.rsplit("*", 1)[1]) for entry in GAMES.values())
    found = next((p.name for p in beside if p.is_file()), "")
    scores = f"its game's file beside it, {found}" if found else "its game's log or pad, not its export"
    return f"the end screen's export of a scoring, not a game's file: `companion score` scores {scores}"


def _named(path: Path, score: Callable[[], Scored], warning: str = "", hint: str = "") -> Scored:
    """What `score` gives, with `warning`; its `ScoreFileError` naming the file, `hint` after it, and the
    warning too: a line cut off may be why the game is not over."""
    try:
        return replace(score(), warning=warning)
    except ScoreFileError as exc:
        cut = f"; {warning.removeprefix(f'{path}: ')}" if warning else ""
        raise ScoreFileError(f"{path}: {exc}{hint}{cut}") from exc
