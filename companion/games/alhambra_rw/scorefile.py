"""Score a file: a game log (one event per line) or an end-state JSON object."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from .endstate import EndStateError, end_state_from_json
from .log import LogError, load_log, replay_log
from .scoring import Scoreboard, ScoreError, score, score_game


class ScoreFileError(ValueError):
    """The file cannot be scored; the message is one line naming the file and the problem."""


@dataclass(frozen=True, slots=True)
class ScoredFile:
    board: Scoreboard
    kind: str
    """"log" or "end state"."""
    warning: str = ""


def score_file(path: str | Path) -> ScoredFile:
    """Score a game log or an end state; every problem becomes a `ScoreFileError`."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ScoreFileError(f"{path}: cannot read ({exc.strerror})") from exc
    except UnicodeDecodeError as exc:
        raise ScoreFileError(f"{path}: not a text file ({exc.reason})") from exc
    if not text.strip():
        raise ScoreFileError(f"{path}: the file is empty")
    try:
        whole = json.loads(text)
    except json.JSONDecodeError:
        whole = None
    try:
        if isinstance(whole, dict) and "event" not in whole:
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
