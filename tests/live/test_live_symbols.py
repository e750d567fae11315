"""Symbol dice through the live feed: a camera (photos of a table, held) read by the one reader settles into a
reading of faces, the way a pip throw settles into values."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest
from test_live_feed_faults import Recorder

from companion.cli import camera_setup
from companion.live.feed import CameraFeed
from companion.live.messages import ReadingSettled
from lab.symbol_evaluate import taught_profile
from vision.settle import Settler
from vision.simulated_table.symbol_art import ALHAMBRA, SymbolPainter, symbol_table


def test_a_table_of_symbol_dice_settles_into_their_faces(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    scene = symbol_table(
        SymbolPainter(ALHAMBRA), np.random.default_rng(4800), n_dice=8, colors=("white",), plain=True
    )
    cv2.imwrite(str(tmp_path / "table.png"), scene.image)
    setup = camera_setup(str(tmp_path / "table.png"), symbols=taught_profile("alhambra"))
    recorder = Recorder()
    feed = CameraFeed(setup.open_source, setup.reader, Settler, recorder, setup.settings)
    feed.start()
    try:
        recorder.wait_for(lambda r: any(isinstance(m, ReadingSettled) for m in r.messages), timeout=20)
    finally:
        feed.stop()
    (settled,) = [m.reading for m in recorder.messages if isinstance(m, ReadingSettled)]
    assert {d.kind for d in settled.dice} == {"symbol"}
    assert sorted(d.face or "" for d in settled.dice) == sorted(d.label for d in scene.dice)
