"""The Alhambra dice demo's first round on the rendered table, read by the real pipeline: the symbol dice the
players throw are read by the one reader with a profile taught from rendered photos, and the log keeps every
roll with who read it (and what the camera read where the players typed it)."""

from __future__ import annotations

import pytest

from companion.cli import main as companion_main
from companion.games import alhambra_dice as ad
from companion.games.alhambra_dice.events import event_from_json, event_to_json
from companion.live.alhambra_demo import DEMO_PLAYERS, play_headless


def test_the_first_round_is_read_by_the_camera() -> None:
    result = play_headless(seed=3, rounds=1)
    rolls = [e for e in result.events if isinstance(e, ad.Rolled)]
    assert len(rolls) == result.readings >= 3 * len(DEMO_PLAYERS)
    assert result.matched >= 0.97 * result.readings, (result.matched, result.readings)
    assert {e.source for e in rolls} <= {"camera", "keyboard"}
    assert sum(e.source == "camera" for e in rolls) >= result.readings / 2
    assert all(e.note.startswith("camera read ") for e in rolls if e.source == "keyboard")
    assert [event_from_json(event_to_json(e)) for e in result.events] == result.events
    assert ad.fold(result.events).round == 2 and not result.finished
    report = result.to_json()
    assert report["scoring"] is None and report["readings_matched"] == result.matched


def test_the_solo_variant_is_refused_for_the_alhambra_dice_demo(capsys: pytest.CaptureFixture[str]) -> None:
    assert companion_main(["demo", "--game", "alhambra-dice", "--solo"]) == 2
    assert capsys.readouterr().err.strip().splitlines() == [
        "companion demo: --solo is a Roll & Write variant; the Alhambra dice demo has 3 players"
    ]
