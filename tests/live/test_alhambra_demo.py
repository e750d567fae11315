"""The Alhambra dice demo's first round on the rendered table, read by the real pipeline: the symbol dice the
players throw are read by the one reader with a profile taught from rendered photos, and the log keeps every
roll with who read it (and what the camera read where the players typed it)."""

from __future__ import annotations

import asyncio
import random
from datetime import datetime
from pathlib import Path

import pytest
from live_driver import synchronous
from test_demo_frames import assert_every_read_roll_keeps_its_frame

from companion.app.app import CameraSetup, CompanionApp
from companion.app.screens.alhambra_dice import AlhambraDiceScreen
from companion.cli import main as companion_main
from companion.games import alhambra_dice as ad
from companion.games.alhambra_dice.entry import RULES
from companion.games.alhambra_dice.events import event_from_json, event_to_json
from companion.games.session import Session
from companion.live.alhambra_demo import DEMO_PLAYERS, demo_table, play_headless, taught_profile, throw_of
from companion.live.frames import FrameKeeper
from companion.live.match import FACE_SETTLING
from vision.pips import PipReader
from vision.reader import DiceReader


def test_the_first_round_is_read_by_the_camera(tmp_path: Path) -> None:
    log = tmp_path / "demo.jsonl"
    result = play_headless(seed=3, rounds=1, kept=FrameKeeper(log))
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
    assert_every_read_roll_keeps_its_frame(log, result.events)


def test_the_solo_variant_is_refused_for_the_alhambra_dice_demo(capsys: pytest.CaptureFixture[str]) -> None:
    assert companion_main(["demo", "--game", "alhambra-dice", "--solo"]) == 2
    assert capsys.readouterr().err.strip().splitlines() == [
        "companion demo: --solo is a Roll & Write variant; this game's demo has 3 players"
    ]


@synchronous
async def test_the_app_enters_the_rolls_the_camera_reads_off_a_table_of_symbol_dice(tmp_path: Path) -> None:
    # A player's first turn: the camera feed thread reads each roll off the rendered table (the set-aside
    # dice thrown back with the others) and the game screen enters it; then the player places a marker.
    table = demo_table(5)
    camera = CameraSetup(lambda: table, DiceReader(PipReader(), taught_profile()), settling=FACE_SETTLING)
    setup = ad.GameStarted(("Ann", "Ben", "Cleo"))
    session = Session.create(RULES, tmp_path, setup, datetime(2026, 11, 25, 20, 0))
    app = CompanionApp(rng=random.Random(0), games_dir=tmp_path, camera=camera, game=session)
    rolls = [(1, 0, 2, 0, 5, 0), (0, 0, 1, 0, 7, 0)]
    async with app.run_test(size=(100, 32)) as pilot:
        screen = app.screen
        assert isinstance(screen, AlhambraDiceScreen)
        assert screen.enter(ad.RoundPrepared(("vp", "cancel", "start_player", "vp", "exchange", "vp")))
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 120
        for dice in rolls:
            before = len(session.events)
            table.throw(throw_of(ad.Rolled("Ann", dice), None, random.Random(1)))
            while len(session.events) == before and screen.pending is None:
                assert loop.time() < deadline, screen.message
                await pilot.pause(0.05)
            if screen.pending is not None:  # the camera asked: the players accept its counts
                await pilot.press("ctrl+k")
        assert screen.enter(ad.MarkerPlaced("Ann", "garden"))
    table.close()
    entered = [e for e in session.events if isinstance(e, ad.Rolled)]
    assert [e.dice for e in entered] == rolls and {e.source for e in entered} == {"camera"}
    assert ad.replay(session.events).board[4][4] == 0, "Ann's marker: garden, line 7, middle field (2 rolls)"
