"""The demos keep the camera's evidence: a headless demo's every roll the camera read keeps the picture it
was read in beside the log, and the table's view of a demo's log shows the reader at work. Each game's
shortest demo (one round, one turn): the whole games are played by the README's commands. A demo stopped
before its end leaves nothing behind."""

from __future__ import annotations

import io
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from rich.console import Console
from textual.pilot import Pilot

from companion.app.paths import demos_dir
from companion.app.table_view import TableView
from companion.app.widgets.frame_view import FrameView
from companion.cli import main
from companion.demos import demo_log
from companion.games.carcassonne_dice.entry import RULES as CARCASSONNE_DICE
from companion.games.eventlog import log_text
from companion.live import carcassonne_demo, roll_and_write_demo
from companion.live.frames import FrameKeeper, Sighting, frames_dir, load_frame
from vision.pips import PipReader
from vision.reading import DiceReading


def read_by_camera(roll: Any) -> bool:
    """A roll the camera read: entered by it, or typed over what it read (not where it read nothing)."""
    typed_over = roll.note.startswith("camera read") and roll.note != "camera read nothing"
    return bool(roll.source == "camera" or typed_over)


def assert_every_read_roll_keeps_its_frame(log: Path, events: Sequence[Any]) -> None:
    """Every roll the camera read names a whole frame kept beside the log, with the reader's dice; no frame
    lies there that no roll names."""
    rolls = [e for e in events if hasattr(e, "frame")]
    read = [r for r in rolls if read_by_camera(r)]
    assert read, "the demo's camera read no roll"
    assert all(r.frame for r in read), [r for r in read if not r.frame]
    named = sorted(r.frame for r in rolls if r.frame)
    assert named == sorted(p.name for p in frames_dir(log).glob("*.jpg"))
    shown = [load_frame(log, name) for name in named]
    assert all(s.image is not None and s.problem == "" and s.dice for s in shown)


def test_roll_and_write_s_headless_demo_keeps_every_throws_frame(tmp_path: Path) -> None:
    log = tmp_path / "demo.jsonl"
    result = roll_and_write_demo.play_headless(PipReader(), 0, solo=True, kept=FrameKeeper(log), rounds=1)
    assert_every_read_roll_keeps_its_frame(log, result.events)


def test_the_view_of_a_carcassonne_demos_log_shows_the_reader_at_work(tmp_path: Path) -> None:
    log = tmp_path / "demo.jsonl"
    result = carcassonne_demo.play_headless(seed=0, kept=FrameKeeper(log), turns=1)
    assert_every_read_roll_keeps_its_frame(log, result.events)
    log.write_text(log_text(result.events, CARCASSONNE_DICE.log.encode), encoding="utf-8")
    seen: dict[str, Any] = {}

    async def watch(pilot: Pilot[Any]) -> None:
        app = pilot.app
        assert isinstance(app, TableView)
        await pilot.pause(0.2)
        view = app.query_one("#frame", FrameView)
        console = Console(file=io.StringIO(), width=max(20, view.content_region.width), record=True)
        console.print(view.content)
        seen["frame"] = (view.display, console.export_text())
        await pilot.press("q")

    assert main(["view", str(log)], pilot=watch) == 0
    shown, text = seen["frame"]
    assert shown and "the camera's latest roll" in text
    assert "the reader saw" in text and "%" in text, text


def test_a_headless_demo_stopped_before_its_end_leaves_neither_log_nor_frames(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    seen = Sighting(np.full((48, 64, 3), 90, np.uint8), DiceReading((), 0.0))
    with pytest.raises(KeyboardInterrupt), demo_log(("Ann", "Ben")) as log:
        assert log.parent == demos_dir() and log.is_file(), "the name is taken as the demo starts"
        assert FrameKeeper(log).keep(seen) == "0001.jpg"
        raise KeyboardInterrupt
    assert list(demos_dir().iterdir()) == []
