"""One Carcassonne dice game being played: an `EventSession` on the Carcassonne dice engine."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from companion.games import carcassonne_dice as cd
from companion.games.carcassonne_dice.events import event_to_json
from companion.games.carcassonne_dice.scorefile import LIMITS, ScoreFileError, read_log

from .event_session import EventSession, Rules

RULES: Rules[cd.Event, cd.GameState] = Rules(
    cd.apply, cd.replay, cd.undo, event_to_json, read_log, ScoreFileError, LIMITS
)


class CarcassonneDiceSession(EventSession[cd.Event, cd.GameState]):
    """A Carcassonne dice game in progress, kept on disk as it is played."""

    @classmethod
    def create(cls, folder: Path, setup: cd.GameStarted, now: datetime) -> CarcassonneDiceSession:
        return cls.started(RULES, folder, setup, setup.players, now)

    @classmethod
    def resume(cls, path: Path) -> CarcassonneDiceSession:
        return cls.loaded(RULES, path)

    def expectation(self) -> cd.Expectation:
        return cd.expectation(self.state)
