"""Frame sources: camera (and one that does not open or stops), video file, images and folders."""

from __future__ import annotations

import itertools
import os
import shutil
import threading
import time
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.simulated_table.rolling import RollingTable, write_video
from vision.sources import (
    CameraSource,
    Capture,
    ImageSource,
    SourceError,
    VideoFileSource,
    names_a_camera,
    open_source,
)


@pytest.fixture(scope="module")
def video(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("video") / "roll.avi"
    table = RollingTable(seed=1, roll_frames=6, idle_frames=8)
    table.throw([("yellow", 2), ("blue", 6)])
    write_video(path, table)
    return path


def test_a_camera_that_does_not_open_says_so() -> None:
    with pytest.raises(SourceError, match="camera 97 did not open: is it plugged in"):
        CameraSource(97)
    with pytest.raises(SourceError, match="camera 97 did not open"):
        open_source("97")


def test_a_camera_that_stops_sending_frames_raises_so_the_feed_can_reopen_it(video: Path) -> None:
    # cv2.VideoCapture takes a file as readily as a device: at its end, reads fail like an unplugged camera's.
    camera = CameraSource(str(video))
    frames = []
    with pytest.raises(SourceError, match="stopped sending frames"):
        for frame in camera:
            frames.append(frame)
    camera.close()
    assert len(frames) == 15
    assert all(b.time > a.time for a, b in itertools.pairwise(frames))


def test_a_video_file_gives_every_frame_timed_by_the_stream(video: Path) -> None:
    source = VideoFileSource(video)
    frames = list(source)
    source.close()
    assert [f.index for f in frames] == list(range(15))
    assert [f.time for f in frames] == [i / 30 for i in range(15)]
    assert frames[0].image.shape == (480, 640, 3)


def test_a_file_that_is_not_a_video_is_refused(tmp_path: Path) -> None:
    fake = tmp_path / "holiday.avi"
    fake.write_text("not a video")
    with pytest.raises(SourceError, match=r"holiday\.avi: not a video OpenCV can read"):
        VideoFileSource(fake)
    with pytest.raises(SourceError, match="no such video file"):
        VideoFileSource(tmp_path / "missing.mp4")


def test_a_folder_of_images_skips_a_bad_one_and_says_which(tmp_path: Path) -> None:
    for i in range(3):
        cv2.imwrite(str(tmp_path / f"{i}.png"), np.full((40, 50, 3), i * 50, np.uint8))
    (tmp_path / "1b.jpg").write_bytes(b"\xff\xd8\xff garbage")
    (tmp_path / "notes.txt").write_text("not a frame")
    source = ImageSource([tmp_path])
    frames = list(source)
    assert [int(f.image[0, 0, 0]) for f in frames] == [0, 50, 100]
    assert len(source.errors) == 1 and "1b.jpg: not an image" in source.errors[0]


@pytest.mark.parametrize("hold", [None, 0.3])
def test_a_folder_without_one_usable_image_names_one(tmp_path: Path, hold: float | None) -> None:
    """It ended as a stream ends: the camera panel said "stream ended" and named no file."""
    (tmp_path / "a.jpg").write_bytes(b"\xff\xd8\xff garbage")
    (tmp_path / "b.png").write_bytes(b"random bytes")
    said = r"no usable image: .*a\.jpg: not an image.* \(and 1 more like it\)"
    with pytest.raises(SourceError, match=said):
        list(ImageSource([tmp_path], hold=hold))


def test_an_empty_camera_and_an_address_that_does_not_answer_are_said_so() -> None:
    """An empty --camera (an unset variable) read the photos of the current folder; a stream's address that
    does not answer asked whether it was plugged in."""
    with pytest.raises(SourceError, match="no camera given"):
        open_source("")
    with pytest.raises(SourceError, match=r"did not open: is the address right, and the stream running\?"):
        CameraSource("http://127.0.0.1:9/video")


def test_held_photos_are_a_still_table_each_for_its_time_and_the_last_until_closed(tmp_path: Path) -> None:
    for i in range(2):
        cv2.imwrite(str(tmp_path / f"{i}.png"), np.full((20, 20, 3), i * 100, np.uint8))
    source = ImageSource([tmp_path], hold=0.3, fps=50)
    frames = []
    for frame in source:
        frames.append(frame)
        if frame.time > 1.0:
            source.close()
    shown = [int(f.image[0, 0, 0]) for f in frames]
    first_run = shown.index(100)
    assert shown == [0] * first_run + [100] * (len(shown) - first_run)
    assert 0.25 <= frames[first_run].time <= 0.6, "the first photo is held for its 0.3 s"
    assert first_run >= 4, "enough frames of the still photo for a reader to settle"
    assert [f.index for f in frames] == list(range(len(frames)))
    with pytest.raises(SourceError, match="more than 0 seconds"):
        ImageSource([tmp_path], hold=0)


def shown_in_turn(folder: Path, synced: Callable[[], None], last: int, seconds: float) -> list[int]:
    """The photos of `folder` a source shows, in turn (by their grey level), `synced` run once the first
    lies there; until the one of grey level `last` is shown, or `seconds` have gone."""
    cv2.imwrite(str(folder / "1.png"), np.full((20, 20, 3), 0, np.uint8))
    source = ImageSource([folder], hold=0.05, fps=50)
    shown: list[int] = []
    for frame in source:
        value = int(frame.image[0, 0, 0])
        if not shown or shown[-1] != value:
            shown.append(value)
        if frame.index == 20:
            synced()
        if shown[-1] == last or frame.time > seconds:
            source.close()
    return shown


def test_photos_added_to_the_folder_while_the_last_lies_there_are_shown_next(tmp_path: Path) -> None:
    """A phone's photos synced into the folder as the game goes: the folder was listed once, and every photo
    added later was never read (the last one lay there for good)."""

    def two_at_once() -> None:
        for name, value in (("2.png", 100), ("3.png", 200)):
            cv2.imwrite(str(tmp_path / name), np.full((20, 20, 3), value, np.uint8))

    assert shown_in_turn(tmp_path, two_at_once, last=200, seconds=10) == [0, 100, 200]


def test_a_photo_dated_ahead_of_this_clock_is_shown_once_left_alone(tmp_path: Path) -> None:
    """A phone whose clock is ahead, its photo copied with its time kept (rsync -t, Syncthing): it waited
    until this machine's clock caught up (two minutes ahead: two minutes)."""

    def dated_ahead() -> None:
        ahead = tmp_path / "2.png"
        cv2.imwrite(str(ahead), np.full((20, 20, 3), 100, np.uint8))
        os.utime(ahead, (time.time() + 120, time.time() + 120))

    assert shown_in_turn(tmp_path, dated_ahead, last=100, seconds=6) == [0, 100]


def test_a_camera_is_named_by_its_number_its_device_or_its_address() -> None:
    cameras = ["0", "12", "/dev/video2", "/dev/v4l/by-id/usb-Logitech_C920-video-index0", "rtsp://host/1"]
    assert all(names_a_camera(spec) for spec in cameras)
    assert not any(names_a_camera(spec) for spec in ["throw.mp4", "photos/", "./0", "dev/video0"])


def test_open_source_picks_the_kind_from_what_it_is_given(tmp_path: Path, video: Path) -> None:
    assert isinstance(open_source(str(video), realtime=False), VideoFileSource)
    shutil.copy(video, tmp_path / "copy.avi")
    cv2.imwrite(str(tmp_path / "a.png"), np.zeros((20, 20, 3), np.uint8))
    assert isinstance(open_source(str(tmp_path)), ImageSource)
    with pytest.raises(SourceError, match="no such file or folder"):
        open_source(str(tmp_path / "nothing"))
    (tmp_path / "x.csv").write_text("1,2")
    with pytest.raises(SourceError, match="neither an image, a video"):
        open_source(str(tmp_path / "x.csv"))
    with pytest.raises(SourceError, match="no image files"):
        ImageSource([tmp_path / "empty"] if (tmp_path / "empty").mkdir() is None else [])


class WaitingDriver:
    """A capture whose read waits for the stream (a network camera that stalled); a read that ends after its
    release used freed memory: the process crashed once the stream came back."""

    def __init__(self) -> None:
        self.reading = threading.Event()
        self.data = threading.Event()
        self.released = False
        self.read_after_release = False

    def read(self) -> tuple[bool, np.ndarray]:
        self.reading.set()
        self.data.wait(5)
        self.read_after_release = self.released
        return True, np.zeros((4, 4, 3), np.uint8)

    def get(self, prop: int) -> float:
        return 0.0

    def release(self) -> None:
        self.released = True


def test_a_capture_closed_while_a_read_waits_is_released_when_the_read_returns() -> None:
    driver = WaitingDriver()
    capture = Capture(driver)  # type: ignore[arg-type]
    read = threading.Thread(target=capture.read)
    read.start()
    assert driver.reading.wait(5)
    capture.close()  # from another thread, as the feed closes a stalled source
    assert not driver.released, "released under a read still waiting for the driver"
    driver.data.set()
    read.join(5)
    assert driver.released and not driver.read_after_release
    assert capture.read() == (False, None), "closed: no read reaches the released driver"
    idle = WaitingDriver()
    Capture(idle).close()  # type: ignore[arg-type]
    assert idle.released, "nothing read: released at once"
