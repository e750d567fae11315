"""What the companion leaves on disk over months: a game deleted takes its half-written files with it, the
demos folder keeps only the newest demos, a headless demo ended by a signal leaves nothing, and the log of
what native libraries print is started afresh once it has grown."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from textual.pilot import Pilot

from companion.app.paths import demos_dir
from companion.cli import main as companion_main
from companion.demos import KEPT_DEMOS, demo_log
from companion.games.held import open_held
from companion.live.frames import FrameKeeper, Sighting, frames_dir
from companion.saved_games import delete_game, game_files
from vision.native_output import LOG_LIMIT, native_output_to
from vision.reading import DiceReading

SEEN = Sighting(np.full((48, 64, 3), 90, np.uint8), DiceReading((), 0.0))


# ------------------------------------------------------------------------------ a game's half-written files
@pytest.mark.parametrize(
    ("name", "stem"),
    [("20261123-201500-anna-ben.jsonl", "20261123-201500-anna-ben"), ("alhambra-x.pad.json", "alhambra-x")],
)
def test_deleting_a_game_deletes_the_files_a_kill_left_half_written(
    tmp_path: Path, name: str, stem: str
) -> None:
    game = tmp_path / name
    game.write_text("")
    ends = (".score.md", ".score.json", ".frames.zip")
    halves = [tmp_path / f"{name}.part", *(tmp_path / f"{stem}{end}.part" for end in ends)]
    for half in halves:
        half.write_bytes(b"half")
    others = [tmp_path / f"{stem}-2{name.removeprefix(stem)}.part", tmp_path / f"x{stem}.score.md.part"]
    for other in others:
        other.write_bytes(b"another game's")
    assert set(halves) <= set(game_files(game)), "the delete dialog lists them"
    delete_game(game)
    assert sorted(tmp_path.iterdir()) == sorted(others)


# ------------------------------------------------------------------------------------------- demos pile up
def fake_demo(n: int, age_s: float) -> Path:
    """A demo's log in the demos folder, last written `age_s` seconds ago, with a frame, an export and a
    half-written file beside it (the even ones left empty, as a demo killed at its start leaves it)."""
    log = demos_dir() / f"20260101-1200{n:02d}-ann-ben.jsonl"
    log.parent.mkdir(parents=True, exist_ok=True)
    log.write_text("" if n % 2 == 0 else '{"event": "game_started"}\n')
    FrameKeeper(log).keep(SEEN)
    log.with_name(log.stem + ".score.md").write_text("scores")
    log.with_name(log.name + ".part").write_text("half")
    when = time.time() - age_s
    os.utime(log, (when, when))
    return log


def test_a_new_demo_keeps_only_the_newest_demos_and_says_how_many_it_deleted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    demos = [fake_demo(n, age_s=100 + 10 * n) for n in range(KEPT_DEMOS + 3)]  # the first the newest
    played_elsewhere = demos[-1]  # the oldest, held by a demo in another window
    with open_held(played_elsewhere), demo_log(("Cleo", "Dan")) as log:
        kept = sorted(demos_dir().glob("*.jsonl"))
        said = capsys.readouterr().err
    assert kept == sorted([log, *demos[: KEPT_DEMOS - 1], played_elsewhere])
    for gone in demos[KEPT_DEMOS - 1 : -1]:
        assert not any(p.name.startswith(gone.stem) for p in demos_dir().iterdir()), gone
    assert frames_dir(demos[0]).is_dir() and frames_dir(played_elsewhere).is_dir()
    assert said == (
        f"companion demo: deleted the files of 3 older demos: only the last {KEPT_DEMOS} demos are kept\n"
    )


def test_a_demo_being_played_is_not_deleted_by_one_started_in_another_window(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    with demo_log(("Ann", "Ben")) as playing:
        FrameKeeper(playing).keep(SEEN)
        os.utime(playing, (time.time() - 3600, time.time() - 3600))  # a long game: the oldest demo
        newer = [fake_demo(n, age_s=100 + n) for n in range(KEPT_DEMOS)]
        with demo_log(("Cleo", "Dan")) as log:
            kept = sorted(demos_dir().glob("*.jsonl"))
        assert kept == sorted([playing, log, *newer[: KEPT_DEMOS - 1]])
        assert frames_dir(playing).is_dir()


async def quit_at_once(pilot: Pilot[Any]) -> None:
    await pilot.press("ctrl+q")


def test_a_demo_in_the_app_keeps_only_the_newest_demos_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    demos = [fake_demo(n, age_s=100 + n) for n in range(KEPT_DEMOS + 1)]
    assert companion_main(["demo", "--game", "carcassonne-dice"], pilot=quit_at_once) == 0
    logs = sorted(demos_dir().glob("*.jsonl"))
    assert len(logs) == KEPT_DEMOS and set(demos[: KEPT_DEMOS - 1]) < set(logs)
    assert "deleted the files of 2 older demos" in capsys.readouterr().err


def test_a_demo_among_few_deletes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    demos = [fake_demo(n, age_s=100 + n) for n in range(KEPT_DEMOS - 1)]
    with demo_log(("Cleo", "Dan")) as log:
        assert sorted(demos_dir().glob("*.jsonl")) == sorted([log, *demos])
    assert capsys.readouterr().err == ""


# ------------------------------------------------------------------------------- a demo ended by a signal
@pytest.mark.parametrize("ending", [signal.SIGTERM, signal.SIGHUP])
def test_a_headless_demo_ended_by_a_signal_leaves_neither_log_nor_frames(tmp_path: Path, ending: int) -> None:
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data"), "XDG_STATE_HOME": str(tmp_path / "state")}
    command = [sys.executable, "-m", "companion", "demo", "--headless", "--game", "carcassonne-dice"]
    demos = tmp_path / "data" / "table-companion" / "demos"
    demo = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 120
        while not list(demos.glob("*.frames/*.jpg")) and demo.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert list(demos.glob("*.jsonl")) and list(demos.glob("*.frames")), "a roll's frame kept by its log"
        demo.send_signal(ending)
        _, err = demo.communicate(timeout=120)
    finally:
        demo.kill()
    assert demo.returncode == 128 + ending, err.decode()
    assert list(demos.iterdir()) == []
    assert b"Traceback" not in err, err.decode()


def test_the_signals_are_handled_as_before_once_a_demo_is_over(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    before = signal.getsignal(signal.SIGTERM), signal.getsignal(signal.SIGHUP)
    with demo_log(("Cleo", "Dan")):
        assert signal.getsignal(signal.SIGTERM) not in before
    assert (signal.getsignal(signal.SIGTERM), signal.getsignal(signal.SIGHUP)) == before


# -------------------------------------------------------------------------------------------- companion.log
def test_the_log_of_native_output_is_started_afresh_once_over_its_limit(tmp_path: Path) -> None:
    log = tmp_path / "companion.log"
    log.write_bytes(b"x" * (LOG_LIMIT + 1))
    log.with_name("companion.log.1").write_text("the one before")
    with native_output_to(log, "companion"):
        os.write(2, b"[ WARN:0@1.0] global cap_v4l.cpp\n")
    assert log.with_name("companion.log.1").stat().st_size == LOG_LIMIT + 1
    assert log.read_bytes().startswith(b"--- ") and log.stat().st_size < 1000
    assert b"WARN" in log.read_bytes()
    with native_output_to(log, "companion"):
        pass
    assert log.read_bytes().count(b"--- ") == 2, "a small log is written on at its end"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["companion.log", "companion.log.1"]
