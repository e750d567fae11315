"""Frames read with a time limit (`vision.grabber.timed_frames`): a camera that stops sending frames is named
as such within the limit, where a plain read waited for its next frame for ever. The teaching commands read
through it: `companion calibrate colours --camera` stood at "Put only the game's yellow dice in view" for
good once the stream stalled."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import numpy as np
import pytest

from companion.cli import main as companion_main
from vision import grabber
from vision.grabber import timed_frames
from vision.reading import Frame
from vision.sources import SourceError


class Stalls:
    """Sends `frames` frames, then nothing (a driver's read that never returns), or ends or fails as told."""

    def __init__(self, frames: int, then: str = "stall") -> None:
        self.frames, self.then = frames, then
        self.closed = threading.Event()

    def __iter__(self) -> Iterator[Frame]:
        for index in range(self.frames):
            yield Frame(np.full((48, 64, 3), 90, np.uint8), index / 30, index)
        if self.then == "fail":
            raise SourceError("camera 0: the driver gave up")
        if self.then == "stall":
            self.closed.wait(30)

    def close(self) -> None:
        self.closed.set()


def test_a_stalled_source_is_named_within_the_limit_and_closed() -> None:
    source = Stalls(2)
    frames = timed_frames(source, stall_after=0.3)
    assert [next(frames).index, next(frames).index] == [0, 1]
    began = time.monotonic()
    with pytest.raises(SourceError, match=r"sent no picture for 0\.3 s"):
        next(frames)
    assert time.monotonic() - began < 5
    assert source.closed.is_set()


@pytest.mark.parametrize("then", ["end", "fail"])
def test_a_source_that_ends_or_fails_does_so_through_the_limit(then: str) -> None:
    frames = timed_frames(Stalls(3, then), stall_after=5)
    if then == "end":
        assert [frame.index for frame in frames] == [0, 1, 2]
        return
    with pytest.raises(SourceError, match="the driver gave up"):
        list(frames)


def test_calibrating_colours_from_a_camera_that_stalls_ends_saying_so(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: object
) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    monkeypatch.setattr("vision.sources.open_source", lambda spec: Stalls(1))
    monkeypatch.setattr("builtins.input", lambda prompt: "")
    monkeypatch.setattr(grabber, "STALL_SECONDS", 0.3)
    began = time.monotonic()
    assert companion_main(["calibrate", "colours", "--camera", "rtsp://table.local/stream"]) == 2
    assert time.monotonic() - began < 10
    err = capsys.readouterr().err
    assert "the camera sent no picture for 0.3 s: unplugged, or stalled?" in err, err
