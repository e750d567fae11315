"""Score a file: a game log (one event per line) or an end-state JSON object."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from jsonfile import JsonFileError, loads, read_bytes

from ..entry import ScoreFileError as ScoreFileError
from ..eventlog import LOG_LIMITS as LIMITS
from .endstate import EndStateError, end_state_from_json
from .log import LogError, load_log, replay_log
from .scoring import Scoreboard, ScoreError, score, score_game


@dataclass(frozen=True, slots=True)
class ScoredFile:
    board: Scoreboard
    kind: str
    """"log" or "end state"."""
    warning: str = ""


def score_file(path: str | Path, data: bytes | None = None) -> ScoredFile:
    """Score a game log or an end state (its bytes `data` when already read); every problem becomes a
    `ScoreFileError`."""
    path = Path(path)
    try:
        data = read_bytes(path, LIMITS) if data is None else data
    except JsonFileError as exc:
        raise ScoreFileError(str(exc)) from exc
    try:
        whole = loads(data, LIMITS)
    except JsonFileError as exc:
        # Not one JSON value: a log of several lines, or a damaged end state whose own error says where.
        if not _first_line_is_json(data):
            raise ScoreFileError(f"{path}: {exc}") from exc
        is_log = True
    else:
        is_log = isinstance(whole, dict) and "event" in whole
    try:
        if not is_log:
            return ScoredFile(score(end_state_from_json(whole)), "end state")
        loaded = load_log(path)
        if not loaded.events:
            raise ScoreFileError(f"{path}: no complete event in the log")
        game = replay_log(loaded)
        return ScoredFile(score_game(game.state), "log", loaded.warning)
    except (EndStateError, ScoreError) as exc:
        raise ScoreFileError(f"{path}: {exc}") from exc
    except LogError as exc:
        raise ScoreFileError(str(exc)) from exc


def _first_line_is_json(data: bytes) -> bool:
    """Whether the first line of `data` is a JSON value by itself, as a game log's (one event a line) is and
    a damaged end state's first line (its opening brace) is not."""
    try:
        loads(data.lstrip().split(b"\n", 1)[0], LIMITS)
    except JsonFileError:
        return False
    return True
