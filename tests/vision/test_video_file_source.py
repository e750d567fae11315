"""A video file as the camera: a damaged stretch is skipped, the last picture lies there like a photo, and a
file that can never play is refused before the app starts."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cli import camera_setup
from companion.live.feed import CameraFeed
from companion.live.messages import FeedStatus, ReadingSettled, StatusChanged
from vision.reading import Box, DiceReading, Die, Image
from vision.settle import Settler, SettleSettings
from vision.sources import VideoFileSource

FPS = 15.0


def write_mp4(path: Path, frames: int, fps: float = FPS) -> Path:
    """`frames` frames of noise (no two alike, as a camera's), each with its number in its top rows."""
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"mp4v"), fps, (160, 120))
    rng = np.random.default_rng(0)
    for i in range(frames):
        image = rng.integers(0, 256, (120, 160, 3), dtype=np.uint8)
        image[:20] = i * 4
        writer.write(image)
    writer.release()
    return path


def damaged(video: Path, start: float, end: float) -> Path:
    """The video with the bytes from `start` to `end` (fractions of its size) overwritten by noise."""
    data = bytearray(video.read_bytes())
    a, b = int(len(data) * start), int(len(data) * end)
    data[a:b] = np.random.default_rng(1).integers(0, 256, b - a, dtype=np.uint8).tobytes()
    out = video.with_name(f"damaged-{video.name}")
    out.write_bytes(bytes(data))
    return out


def test_a_damaged_stretch_is_skipped_and_said_and_the_video_goes_on(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    """OpenCV fails a few frames, then decodes every later one: the first failure ended the video there."""
    video = damaged(write_mp4(tmp_path / "throws.mp4", 60), 0.4, 0.5)
    source = VideoFileSource(video)
    frames = list(source)
    source.close()
    assert 45 <= len(frames) < 60, "the frames after the damage are given"
    assert [f.index for f in frames] == list(range(len(frames)))
    assert abs(frames[-1].time - 59 / FPS) < 1e-6, "timed by the stream: the lost frames' time is skipped"
    (said,) = source.errors
    assert said.startswith(f"{video}: ") and "frames could not be decoded" in said
    # On descriptor 2, beside FFmpeg's own complaints: in the app that is companion.log.
    assert said in capfd.readouterr().err


class OneSureDie:
    def read(self, image: Image) -> DiceReading:
        return DiceReading((Die(Box(10, 10, 40, 40), "pip", "yellow", 0.99, value=3),), 0.0)


def statuses(messages: list[object]) -> list[FeedStatus]:
    return [m.status for m in messages if isinstance(m, StatusChanged)]


@pytest.mark.parametrize(("frames", "fps"), [(1, FPS), (3, 1.0)])
def test_still_dice_at_the_end_of_a_short_or_slow_video_are_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, frames: int, fps: float
) -> None:
    """A 1-frame video, or 3 s of still dice at 1 fps, ended unread: the settler needs
    `SettleSettings.agree_frames` still frames. The last picture now lies there as a photo does (`--hold`)."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    video = tmp_path / "throw.mp4"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter.fourcc(*"mp4v"), fps, (160, 120))
    for _ in range(frames):
        writer.write(np.full((120, 160, 3), 90, np.uint8))
    writer.release()
    setup = camera_setup(str(video), hold=0.5)
    messages: list[object] = []
    feed = CameraFeed(setup.open_source, OneSureDie(), Settler, messages.append, setup.settings)
    feed.start()
    try:
        deadline = time.monotonic() + frames / fps + 10
        while feed.running and time.monotonic() < deadline:  # a video file ends by itself
            time.sleep(0.05)
    finally:
        feed.stop()
    assert [s.state for s in statuses(messages)][-1] == "stream ended"
    assert [m.reading.values() for m in messages if isinstance(m, ReadingSettled)] == [[3]]


def test_the_last_picture_is_held_for_hold_seconds_at_the_photo_rate(tmp_path: Path) -> None:
    source = VideoFileSource(write_mp4(tmp_path / "one.mp4", 1), hold=0.5)
    frames = list(source)
    assert len(frames) > SettleSettings().agree_frames + 2
    assert all(np.array_equal(f.image, frames[0].image) for f in frames)
    assert [f.index for f in frames] == list(range(len(frames)))
    assert 0.45 <= frames[-1].time <= 0.5 + 1e-9


def companion(*args: str, home: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, **{f"XDG_{kind}_HOME": str(home / kind) for kind in ("CONFIG", "DATA", "STATE")}}
    return subprocess.run(
        [sys.executable, "-m", "companion", *args],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env=env,
        stdin=subprocess.DEVNULL,
    )


@pytest.mark.parametrize(
    ("name", "content", "why"),
    [
        ("zero.mp4", b"", "not a video OpenCV can read"),
        ("holiday.avi", b"not a video", "not a video OpenCV can read"),
        ("notes.txt", b"hello", "neither an image, a video"),
        ("photos", None, "no usable image"),
        ("missing.mp4", None, "no such file or folder"),
    ],
)
def test_a_file_that_can_never_play_is_refused_at_the_start(
    tmp_path: Path, name: str, content: bytes | None, why: str
) -> None:
    """It was shown as `camera lost: ...: not a video OpenCV can read (retry in 8 s)`, retried forever."""
    spec = tmp_path / name
    if content is not None:
        spec.write_bytes(content)
    elif name == "photos":
        spec.mkdir()
        (spec / "a.jpg").write_bytes(b"\xff\xd8\xff garbage")
    done = companion("--camera", str(spec), home=tmp_path / "home")
    assert done.returncode == 2, done.stderr
    (line,) = done.stderr.strip().splitlines()
    assert line.startswith("companion: ") and str(spec) in line and why in line, line
