"""Frame sources: a webcam (index or URL), a video file, image files or a folder, behind one interface.

A source is an iterable of `Frame`s with a `close()`; each frame carries the time it was taken, in seconds
from the source's start (the camera's clock for a webcam, the stream position for a file). Opening fails
with `SourceError` saying what to do; a camera that stops sending frames mid-stream raises it too, so the
caller can reopen it. The rendered table (`vision.simulated_table.rolling.RollingTable`) is a source as well.
"""

from __future__ import annotations

import math
import os
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import suppress
from pathlib import Path
from typing import Protocol

import cv2
import numpy as np

from vision.images import IMAGE_SUFFIXES, ImageError, expand_paths, load_image, no_image_files
from vision.reading import Frame, Image

VIDEO_SUFFIXES = (".mp4", ".avi", ".mkv", ".mov", ".webm", ".m4v", ".mpg", ".mpeg", ".wmv")


class SourceError(RuntimeError):
    """A source that cannot be opened, or a camera that stopped sending frames."""


class FrameSource(Protocol):
    def __iter__(self) -> Iterator[Frame]: ...

    def close(self) -> None: ...


class Capture:
    """An opened `cv2.VideoCapture` released by the thread that reads it. A source is closed from another
    thread (a stalled stream, the app quitting) while a read may still be waiting for the driver: FFmpeg's
    state freed under that read crashed the process once the stream came back. Closed while nothing is read,
    it is released at once; else when the read under way returns."""

    def __init__(self, opened: cv2.VideoCapture) -> None:
        self._capture = opened
        self._lock = threading.Lock()
        self._reading = False
        self._closed = False
        self._released = False

    def read(self) -> tuple[bool, cv2.typing.MatLike | None]:
        """A frame, as `cv2.VideoCapture.read` gives it; (False, None) once closed."""
        with self._lock:
            if self._closed:
                return False, None
            self._reading = True
        try:
            ok, image = self._capture.read()
        finally:
            with self._lock:
                self._reading = False
                if self._closed:
                    self._release()
        return ok, image

    def get(self, prop: int) -> float:
        with self._lock:
            return 0.0 if self._released else float(self._capture.get(prop))

    def close(self) -> None:
        with self._lock:
            self._closed = True
            if not self._reading:
                self._release()

    def _release(self) -> None:
        if not self._released:
            self._released = True
            self._capture.release()


class CameraSource:
    """A webcam by index (0, 1, …) or device path, or a stream URL, read through `cv2.VideoCapture`."""

    failed_reads_to_lose = 15
    """Consecutive failed reads before the camera counts as gone (a single dropped frame is normal)."""

    def __init__(self, device: int | str, width: int | None = None, height: int | None = None) -> None:
        self.name = f"camera {device}"
        capture = cv2.VideoCapture(device)
        if not capture.isOpened():
            capture.release()
            why = (
                "is the address right, and the stream running?"
                if isinstance(device, str) and "://" in device
                else "is it plugged in, and not in use by another program?"
            )
            raise SourceError(f"{self.name} did not open: {why}")
        if width and height:
            capture.set(cv2.CAP_PROP_FRAME_WIDTH, width)
            capture.set(cv2.CAP_PROP_FRAME_HEIGHT, height)
        self._capture = Capture(capture)
        self._closed = False

    def __iter__(self) -> Iterator[Frame]:
        start = time.monotonic()
        index = failed = 0
        while not self._closed:
            ok, image = self._capture.read()
            if not ok or image is None or image.size == 0:
                failed += 1
                if failed >= self.failed_reads_to_lose:
                    raise SourceError(f"{self.name} stopped sending frames (unplugged?)")
                time.sleep(0.02)
                continue
            failed = 0
            yield Frame(image=np.asarray(image, np.uint8), time=time.monotonic() - start, index=index)
            index += 1

    def close(self) -> None:
        self._closed = True
        self._capture.close()


class VideoFileSource:
    """A video file, frame by frame, timed by the stream (not the wall clock) unless `realtime`.

    A frame that fails to decode is skipped and the video goes on: a damaged stretch costs its own frames, not
    the rest. Each stretch is kept in `errors` and said on descriptor 2, beside FFmpeg's own complaints about
    it (in the app: its log file). With `hold`, the last picture then lies there `hold` seconds more, as a
    photo does (`ImageSource`), so the still dice a short or slow video ends on are seen long enough to be
    read. A video of which not one frame decodes raises `SourceError` as it is read.
    """

    failed_reads_to_end = 300
    """Failed reads in a row that end a video short of its frame count. A damaged stretch's frames are not
    counted in the decoder's position, so such a video never reaches that count; a read past the end fails at
    once (microseconds), so waiting this long costs nothing."""

    held_fps = 15.0
    """The rate the last picture is given at while held, as `ImageSource` shows a photo."""

    def __init__(self, path: Path, realtime: bool = False, hold: float | None = None) -> None:
        self.name = str(path)
        if not path.is_file():
            raise SourceError(f"{path}: no such video file")
        capture = cv2.VideoCapture(str(path))
        if not capture.isOpened():
            capture.release()
            raise SourceError(f"{path}: not a video OpenCV can read")
        self._capture = Capture(capture)
        fps = self._capture.get(cv2.CAP_PROP_FPS)
        self.fps = fps if 0 < fps < 1000 else 30.0
        self._frame_count = self._capture.get(cv2.CAP_PROP_FRAME_COUNT)
        self._realtime = realtime
        self._hold = hold
        self.errors: list[str] = []
        self._closed = False

    def __iter__(self) -> Iterator[Frame]:
        start = time.monotonic()
        last: Frame | None = None
        for last in self._decoded():
            yield self._on_time(last, start)
        if last is None:
            if not self._closed:
                raise SourceError(f"{self.name}: not one frame of the video could be decoded")
            return
        for held in self._held(last):
            yield self._on_time(held, start)

    def _on_time(self, frame: Frame, start: float) -> Frame:
        if self._realtime:
            time.sleep(max(0.0, start + frame.time - time.monotonic()))
        return frame

    def _decoded(self) -> Iterator[Frame]:
        """The frames that decode, each at its time in the stream (the frames skipped keep theirs)."""
        index = failed = 0
        at = -1 / self.fps
        while not self._closed:
            ok, image = self._capture.read()
            if ok and image is not None and image.size > 0:
                if failed:
                    self._skipped(failed, at)
                failed = 0
                at = self._stream_time(at)
                yield Frame(image=np.asarray(image, np.uint8), time=at, index=index)
                index += 1
                continue
            failed += 1
            if self._at_end(failed):
                return

    def _at_end(self, failed: int) -> bool:
        """Whether reads fail because the video is over: the decoder is at the frame count the file gives,
        or (a file that gives none, or a damaged one that never gets there) `failed_reads_to_end` failed."""
        position = self._capture.get(cv2.CAP_PROP_POS_FRAMES)
        return failed >= self.failed_reads_to_end or 0 < self._frame_count <= position

    def _stream_time(self, previous: float) -> float:
        """The frame just decoded's timestamp; one frame after `previous` where the stream gives none."""
        at = float(self._capture.get(cv2.CAP_PROP_POS_MSEC)) / 1000
        return at if math.isfinite(at) and at >= 0 and at > previous else previous + 1 / self.fps

    def _skipped(self, frames: int, after: float) -> None:
        plural = "s" if frames > 1 else ""
        said = (
            f"{self.name}: {frames} frame{plural} could not be decoded after {max(after, 0.0):.1f} s "
            "(a damaged file?): skipped, the video goes on"
        )
        self.errors.append(said)
        _say_skipped(said)

    def _held(self, last: Frame) -> Iterator[Frame]:
        """The last picture lying there `hold` seconds more, as a still table seen by a camera."""
        count = math.floor((self._hold or 0.0) * self.held_fps + 1e-9)
        for step in range(1, count + 1):
            if self._closed:
                return
            yield Frame(image=last.image, time=last.time + step / self.held_fps, index=last.index + step)

    def close(self) -> None:
        self._closed = True
        self._capture.close()


class ImageSource:
    """Image files (and the images in folders) as frames.

    Without `hold`, each image is one frame, `interval` seconds apart by the frame clock (a batch). With
    `hold`, the photos are a still table seen by a camera: each is shown for `hold` seconds of real time at
    `fps`, so a reader settles on it, and the last one stays until the source is closed, or until a photo
    is added to a folder given (a phone's photos synced into it as the game goes: looked for once a second,
    shown in the order of their names). A file that is not a
    usable image is skipped and its error kept in `errors`, so one bad photo in a folder does not stop the
    rest; it is said on descriptor 2 (in the app: its log file, and the Camera panel counts them).
    """

    def __init__(
        self, paths: Sequence[Path], interval: float = 1 / 30, hold: float | None = None, fps: float = 15.0
    ) -> None:
        self.name = ", ".join(str(p) for p in paths)
        self._given = list(paths)
        self.paths = expand_paths(self._given)
        if not self.paths:
            raise SourceError(no_image_files(self.name))
        if hold is not None and not hold > 0:
            raise SourceError(f"a photo must be held for more than 0 seconds, not {hold}")
        self.errors: list[str] = []
        self._interval = interval
        self._hold = hold
        self._fps = fps
        self._closed = False

    def _images(self, waiting: bool = False) -> Iterator[Image | None]:
        """The usable images of `paths`, in order; `waiting`, once they are read (one of them usable), None
        at each call while no photo was added to the folders given, and those added once there are."""
        shown = False
        at = 0
        looked: dict[Path, tuple[int, float]] = {}
        while not self._closed:
            if at == len(self.paths):
                if not (waiting and shown):
                    break
                self.paths += _added(expand_paths(self._given), set(self.paths), looked)
                if at == len(self.paths):
                    yield None
                    continue
            path = self.paths[at]
            at += 1
            try:
                yield load_image(path)
                shown = True
            except ImageError as error:
                self.errors.append(str(error))
                _say_skipped(str(error))
        if not shown and self.errors:
            # Not one usable photo: "stream ended" named none of them.
            more = f" (and {len(self.errors) - 1} more like it)" if len(self.errors) > 1 else ""
            raise SourceError(f"no usable image: {self.errors[0]}{more}")

    def __iter__(self) -> Iterator[Frame]:
        if self._hold is None:
            batch = (image for image in self._images() if image is not None)
            for index, image in enumerate(batch):
                yield Frame(image=image, time=index * self._interval, index=index)
            return
        start = time.monotonic()
        index = 0
        images = self._images(waiting=True)
        shown = next(images, None)
        while shown is not None and not self._closed:
            following = next(images, None)
            until = time.monotonic() + self._hold
            looked = time.monotonic()
            while not self._closed and (following is None or time.monotonic() < until):
                yield Frame(image=shown, time=time.monotonic() - start, index=index)
                index += 1
                time.sleep(1 / self._fps)
                if following is None and time.monotonic() - looked >= LOOK_FOR_NEW_PHOTOS:
                    looked = time.monotonic()
                    following = next(images, None)
            shown = following

    def close(self) -> None:
        self._closed = True


def _say_skipped(said: str) -> None:
    """What a source skipped (a photo, a damaged stretch of a video), said on descriptor 2, beside FFmpeg's
    own complaints (in the app: its log file, and the Camera panel counts them)."""
    with suppress(OSError):  # nowhere to say it: it was still skipped
        os.write(2, f"{said}\n".encode(errors="replace"))


LOOK_FOR_NEW_PHOTOS = 1.0
"""Seconds between looks into the folders given for photos added while the last one lies there."""


def _added(found: list[Path], listed: set[Path], looked: dict[Path, tuple[int, float]]) -> list[Path]:
    """The photos of `found` not `listed`, each once its file was left alone a look long: one being copied
    in would be read cut short (and skipped for good). Left alone is written a look ago, or the same size
    and time as at the last look (`looked`, kept up to date): a file dated ahead of this clock (a phone's
    clock ahead, a copy that keeps the time) waited until this clock caught up."""
    settled = time.time() - LOOK_FOR_NEW_PHOTOS
    added = []
    for path in found:
        if path in listed:
            continue
        with suppress(OSError):  # gone again: not added
            stat = path.stat()
            now = (stat.st_size, stat.st_mtime)
            if stat.st_mtime <= settled or looked.get(path) == now:
                added.append(path)
            looked[path] = now
    return added


HOLD_SECONDS = 4.0
"""How long a photo given as the camera lies on the table before the next one: time to settle and decide."""


def names_a_camera(spec: str) -> bool:
    """Whether a --camera SPEC is a camera's number, a camera's device (`/dev/video2`, or a name that stays
    when it is plugged into another port: `/dev/v4l/by-id/usb-…-video-index0`) or a stream's address (not a
    file or a folder): one that does not answer now may yet be plugged in or started."""
    return spec.isdecimal() or "://" in spec or spec.startswith("/dev/")


def open_source(spec: str, realtime: bool = True, hold: float | None = None) -> FrameSource:
    """The source a command line names: a camera index (`0`), a stream URL, a video, an image or a folder.

    In real time, photos are a still table, each held for `hold` seconds (default `HOLD_SECONDS`; see
    `ImageSource`), and a video's last picture lies there as long once it has played."""
    if not spec.strip():
        # Path("") is the current folder: an empty --camera (an unset variable) read the photos lying there.
        raise SourceError("no camera given: a number (0), a stream's address, a video, a photo or a folder")
    if names_a_camera(spec):
        return CameraSource(int(spec) if spec.isdecimal() else spec)
    path = Path(spec)
    if not path.exists():
        raise SourceError(f"{spec}: no such file or folder (a camera is given by its number, e.g. 0)")
    held = (hold or HOLD_SECONDS) if realtime else None
    if path.is_dir() or path.suffix.lower() in IMAGE_SUFFIXES:
        return ImageSource([path], hold=held)
    if path.suffix.lower() in VIDEO_SUFFIXES:
        return VideoFileSource(path, realtime=realtime, hold=held)
    raise SourceError(f"{spec}: neither an image, a video ({', '.join(VIDEO_SUFFIXES)}) nor a folder")
