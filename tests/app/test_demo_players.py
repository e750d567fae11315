"""The demos' players at the app: they go on by themselves wherever a game waits for the players."""

from __future__ import annotations

import random
from types import SimpleNamespace

import pytest

from companion.app import demo_players
from companion.app.demo_players import READ_SCORING, AlhambraDicePlayers
from companion.app.screens.end import ScoringPanel


def test_the_alhambra_dice_demo_goes_on_after_a_scoring_held_during_the_game(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Scoring A's panel lies over the game until dismissed: the players only moved on the game's own screen,
    and an unattended demo stood at the first scoring for good, the camera reading on."""
    panel = ScoringPanel("Scoring A after round 2", "Ann 5")
    dismissed: list[bool] = []
    monkeypatch.setattr(panel, "dismiss", lambda *result: dismissed.append(True))
    now = [100.0]
    monkeypatch.setattr(demo_players, "time", SimpleNamespace(monotonic=lambda: now[0]))
    players = AlhambraDicePlayers(SimpleNamespace(screen=panel), None, random.Random(0))  # type: ignore[arg-type]
    players.tick()
    now[0] += READ_SCORING - 1
    players.tick()
    assert not dismissed, "the players read it first"
    now[0] += 1
    players.tick()
    assert dismissed == [True]
