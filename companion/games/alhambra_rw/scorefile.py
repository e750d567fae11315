"""Score a file: an end state's JSON, or a finished game's log events."""

from __future__ import annotations

from pathlib import Path

from ..entry import ScoreFileError as ScoreFileError
from .endstate import EndStateError, end_state_from_json
from .engine import IllegalMove, fold
from .events import Event
from .scoring import Scoreboard, ScoreError, score, score_game


def score_end_state(data: object, sheets_dir: Path | None = None) -> Scoreboard:
    """Score an end state typed in from the paper sheets (a sheet named may be one of the players' own, in
    `sheets_dir`); `ScoreFileError` names the field."""
    try:
        return score(end_state_from_json(data, sheets_dir))
    except (EndStateError, ScoreError) as exc:
        raise ScoreFileError(str(exc)) from exc


def score_finished(events: list[Event]) -> Scoreboard:
    """Score a finished game's events; `ScoreFileError` for a game not over or a move the rules refuse."""
    try:
        return score_game(fold(events).state)
    except (IllegalMove, ScoreError) as exc:
        raise ScoreFileError(str(exc)) from exc
