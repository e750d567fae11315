"""End to end: a rendered video of dice thrown for several turns, read by the real reader, fills the sheet."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

from live_driver import ThrownWhenAsked, play_by_camera, script, synchronous
from test_demo_frames import assert_every_read_roll_keeps_its_frame
from test_live_app import resumed_session

from companion.app.app import CameraSetup, CompanionApp
from companion.games import alhambra_rw as rw
from companion.live.roll_and_write_demo import teach_colours
from vision.pips import PipReader
from vision.simulated_table.rolling import RollingTable, write_video
from vision.sources import VideoFileSource


@synchronous
async def test_a_rendered_video_of_several_turns_fills_the_sheet_and_the_log(tmp_path: Path) -> None:
    plan = script(throws=5, seed=7)
    table = RollingTable(seed=7, roll_frames=8, rest_frames=40, idle_frames=15)
    reader = PipReader()
    reader.colour_profile = teach_colours(
        table, reader, 7
    )  # the players calibrate this table's colours first
    for throw in plan.throws:
        table.throw(throw)
    video = tmp_path / "turns.avi"
    rests = write_video(video, table)
    at_rest = [sorted((d.color, d.value or 0) for d in r.dice) for r in rests]
    assert at_rest == [sorted(t) for t in plan.throws]
    session = resumed_session(tmp_path, plan.before)
    # The players throw each time the game asks for dice; the video opens with the first throw under way.
    played = ThrownWhenAsked(VideoFileSource(video), [r.frame - table.roll_frames for r in rests])
    camera = CameraSetup(lambda: played, reader)
    app = CompanionApp(rng=random.Random(0), auto_imaginary=False, camera=camera, game=session)
    async with app.run_test(size=(100, 32)) as pilot:
        await play_by_camera(app, pilot, len(plan.events), timeout=60, table=played, throws=plan.throws)
        assert tuple(session.events) == plan.events
    on_disk = rw.load_log(session.path).events
    assert on_disk == plan.events
    turns = [e for e in on_disk[len(plan.before) :] if isinstance(e, rw.Roll)]
    # Each throw went in from the camera, or was typed by the players with what the camera read kept.
    assert all(r.source == "camera" or r.note.startswith("camera read") for r in turns)
    assert sum(r.source == "camera" for r in turns) >= 4
    assert rw.replay(on_disk).players == rw.replay(plan.events).players


def test_the_headless_demo_plays_a_whole_game_through_the_camera_pipeline(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "companion", "demo", "--headless", "--seed", "3"],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env={**os.environ, "XDG_DATA_HOME": str(tmp_path)},
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["finished"] and result["scoring"]["winners"]
    assert result["readings"] >= 50
    # Every throw is read right on the development machine's runs but a few (see the README's figures);
    # the players type those in, and the log keeps what the camera read.
    assert result["readings_matched"] >= 0.9 * result["readings"]
    # The game is kept in the demos folder, as the app keeps one, each throw's frame beside it.
    (log,) = (tmp_path / "table-companion" / "demos").glob("*.jsonl")
    assert f"the demo's log, kept apart from the real games: {log}" in done.stderr
    events = rw.load_log(log).events
    scored = rw.score_game(rw.replay(events)).to_json()
    assert json.loads(json.dumps(scored)) == result["scoring"]
    assert_every_read_roll_keeps_its_frame(log, events)
