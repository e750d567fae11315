"""One Alhambra dice game being played: an `EventSession` on the Alhambra dice engine."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from companion.games import alhambra_dice as ad
from companion.games.alhambra_dice.events import event_to_json
from companion.games.alhambra_dice.scorefile import LIMITS, ScoreFileError, read_log

from .event_session import EventSession, ResumeError, Rules

RULES: Rules[ad.Event, ad.GameState] = Rules(
    ad.apply, ad.replay, ad.undo, event_to_json, read_log, ScoreFileError, LIMITS
)

__all__ = ["RULES", "AlhambraDiceSession", "ResumeError"]


class AlhambraDiceSession(EventSession[ad.Event, ad.GameState]):
    """An Alhambra dice game in progress, kept on disk as it is played."""

    @classmethod
    def create(cls, folder: Path, setup: ad.GameStarted, now: datetime) -> AlhambraDiceSession:
        return cls.started(RULES, folder, setup, setup.players, now)

    @classmethod
    def resume(cls, path: Path) -> AlhambraDiceSession:
        return cls.loaded(RULES, path)

    def expectation(self) -> ad.Expectation:
        return ad.expectation(self.state)
