"""Frame sources: a webcam (index or URL), a video file, image files or a folder, behind one interface.

A source is an iterable of `Frame`s with a `close()`; each frame carries the time it was taken, in seconds
from the source's start (the camera's clock for a webcam, the stream position for a file). Opening fails
with `SourceError` saying what to do; a camera that stops sending frames mid-stream raises it too, so the
caller can reopen it. The rendered table (`vision.simulated_table.rolling.RollingTable`) is a source as well.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterator, Sequence
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


class CameraSource:
    """A webcam by index (0, 1, …) or a stream URL, read through `cv2.VideoCapture`."""

    failed_reads_to_lose = 15
    """Consecutive failed reads before the camera counts as gone (a single dropped frame is normal)."""

    def __init__(self, device: int | str, width: int | None = None, height: int | None = None) -> None:
        self.name = f"camera {device}"
        self._capture = cv2.VideoCapture(device)
        if not self._capture.isOpened():
            self._capture.release()
            why = (
                "is the address right, and the stream running?"
                if isinstance(device, str)
                else "is it plugged in, and not in use by another program?"
            )
            raise SourceError(f"{self.name} did not open: {why}")
        if width and height:
            self._capture.set(cv2.CAP_PROP_FRAME_WIDTH, width)
            self._capture.set(cv2.CAP_PROP_FRAME_HEIGHT, height)
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
        self._capture.release()


class VideoFileSource:
    """A video file, frame by frame, timed by the stream (not the wall clock) unless `realtime`."""

    def __init__(self, path: Path, realtime: bool = False) -> None:
        self.name = str(path)
        if not path.is_file():
            raise SourceError(f"{path}: no such video file")
        self._capture = cv2.VideoCapture(str(path))
        if not self._capture.isOpened():
            self._capture.release()
            raise SourceError(f"{path}: not a video OpenCV can read")
        fps = self._capture.get(cv2.CAP_PROP_FPS)
        self.fps = fps if 0 < fps < 1000 else 30.0
        self._realtime = realtime
        self._closed = False

    def __iter__(self) -> Iterator[Frame]:
        start = time.monotonic()
        index = 0
        while not self._closed:
            ok, image = self._capture.read()
            if not ok or image is None:
                return
            at = index / self.fps
            if self._realtime:
                time.sleep(max(0.0, start + at - time.monotonic()))
            yield Frame(image=np.asarray(image, np.uint8), time=at, index=index)
            index += 1

    def close(self) -> None:
        self._closed = True
        self._capture.release()


class ImageSource:
    """Image files (and the images in folders) as frames.

    Without `hold`, each image is one frame, `interval` seconds apart by the frame clock (a batch). With
    `hold`, the photos are a still table seen by a camera: each is shown for `hold` seconds of real time at
    `fps`, so a reader settles on it, and the last one stays until the source is closed. A file that is not a
    usable image is skipped and its error kept in `errors`, so one bad photo in a folder does not stop the
    rest.
    """

    def __init__(
        self, paths: Sequence[Path], interval: float = 1 / 30, hold: float | None = None, fps: float = 15.0
    ) -> None:
        self.name = ", ".join(str(p) for p in paths)
        self.paths = expand_paths(list(paths))
        if not self.paths:
            raise SourceError(no_image_files(self.name))
        if hold is not None and not hold > 0:
            raise SourceError(f"a photo must be held for more than 0 seconds, not {hold}")
        self.errors: list[str] = []
        self._interval = interval
        self._hold = hold
        self._fps = fps
        self._closed = False

    def _images(self) -> Iterator[Image]:
        shown = False
        for path in self.paths:
            if self._closed:
                return
            try:
                yield load_image(path)
                shown = True
            except ImageError as error:
                self.errors.append(str(error))
        if not shown and self.errors:
            # Not one usable photo: "stream ended" named none of them.
            more = f" (and {len(self.errors) - 1} more like it)" if len(self.errors) > 1 else ""
            raise SourceError(f"no usable image: {self.errors[0]}{more}")

    def __iter__(self) -> Iterator[Frame]:
        if self._hold is None:
            for index, image in enumerate(self._images()):
                yield Frame(image=image, time=index * self._interval, index=index)
            return
        start = time.monotonic()
        index = 0
        images = self._images()
        shown = next(images, None)
        while shown is not None and not self._closed:
            following = next(images, None)
            until = time.monotonic() + self._hold if following is not None else math.inf
            while not self._closed and time.monotonic() < until:
                yield Frame(image=shown, time=time.monotonic() - start, index=index)
                index += 1
                time.sleep(1 / self._fps)
            shown = following

    def close(self) -> None:
        self._closed = True


HOLD_SECONDS = 4.0
"""How long a photo given as the camera lies on the table before the next one: time to settle and decide."""


def open_source(spec: str, realtime: bool = True, hold: float | None = None) -> FrameSource:
    """The source a command line names: a camera index (`0`), a stream URL, a video, an image or a folder.

    In real time, photos are a still table, each held for `hold` seconds (default `HOLD_SECONDS`; see
    `ImageSource`)."""
    if not spec.strip():
        # Path("") is the current folder: an empty --camera (an unset variable) read the photos lying there.
        raise SourceError("no camera given: a number (0), a stream's address, a video, a photo or a folder")
    if spec.isdecimal():
        return CameraSource(int(spec))
    if "://" in spec:
        return CameraSource(spec)
    path = Path(spec)
    if not path.exists():
        raise SourceError(f"{spec}: no such file or folder (a camera is given by its number, e.g. 0)")
    if path.is_dir() or path.suffix.lower() in IMAGE_SUFFIXES:
        return ImageSource([path], hold=(hold or HOLD_SECONDS) if realtime else None)
    if path.suffix.lower() in VIDEO_SUFFIXES:
        return VideoFileSource(path, realtime=realtime)
    raise SourceError(f"{spec}: neither an image, a video ({', '.join(VIDEO_SUFFIXES)}) nor a folder")
