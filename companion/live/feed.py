"""The camera thread: frames in, previews and settled readings out, faults survived.

Two threads per feed. A grabber pulls frames from the source into a one-frame slot, so a slow reader never
falls behind a live camera (the newest frame wins) and a source that blocks forever cannot freeze anything.
The worker takes frames from the slot, reads and settles them, and posts what it saw (`messages`) through the
callable it was given (the app's); it keeps the frame it took last for a reading the players ask for
(`latest_frame`: a built city). A source that cannot be opened, ends, stalls or fails to decode frames is
closed and opened again after a growing delay; the game goes on by keyboard meanwhile. `stop()` cancels both
and joins the worker.

The game played may have the taught symbol dice left out (`read_symbols`): a pip game's dice read with another
game's profile were named by its faces.

Each opening settles afresh, but the feed remembers the dice it last said had settled: a camera that was away
never saw them move, so the same dice still lying there when it comes back are no new throw, and are not
posted again (the game would enter them as the next player's roll).
"""

from __future__ import annotations

import os
import sys
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from calibration.table_area import AreaReader
from companion.live.backoff import Backoff
from companion.live.match import CAMERA_WAS_AWAY, SETTLED_AGAIN
from companion.live.messages import (
    FeedMessage,
    FeedStatus,
    PreviewFrame,
    ReadingSettled,
    ReadingWithdrawn,
    StatusChanged,
)
from vision.grabber import End, Failed, Grabber
from vision.reader import DiceReader
from vision.reading import DiceReading, Frame, Image
from vision.settle import Change, Settled, Withdrawn, agree, signature
from vision.sources import FrameSource


class Reader(Protocol):
    def read(self, image: Image) -> DiceReading: ...


def pips_only(reader: Reader) -> Reader:
    """`reader` with the taught symbol dice (`--symbols`) left out, reading the pip dice as without them, by
    the same pip reader (the colours taught with F3 apply to both); `reader` itself where it reads none."""
    inner = reader.reader if isinstance(reader, AreaReader) else reader
    if not isinstance(inner, DiceReader) or inner.profile is None:
        return reader
    pips = DiceReader(inner.pips)
    return AreaReader(pips, reader.area) if isinstance(reader, AreaReader) else pips


class Settler(Protocol):
    """Feeds on every frame's reading; says when a reading settles and when a settled one is withdrawn, and
    whether the last frame showed a still table with no die (`still_empty`)."""

    still_empty: bool

    def update(self, frame: Frame, reading: DiceReading) -> Change | None: ...


@dataclass(frozen=True)
class FeedSettings:
    stall_after: float = 3.0
    """Seconds without a frame before the source counts as stalled."""
    bad_frames_to_lose: int = 10
    """Consecutive frames that fail to decode before the camera counts as lost."""
    drop_stale_frames: bool = True
    """A live camera drops frames the reader has no time for; a file is read frame by frame."""
    reopen_when_ended: bool = True
    """A camera or stream that ends is opened again; a video file that ends is done."""
    max_fps: float | None = None
    """Frames read a second at most (None: each frame, as fast as the reader can). A webcam gives 30 a second
    whatever lies on the table, each read and previewed: most of a core, for hours, on a laptop's battery."""


SAME_PICTURE_READ_AGAIN = 1.0
"""Seconds a reading of a picture given again unchanged (a photo as the camera) stands for it."""
LIVE_FPS = 15.0
"""A live camera's `max_fps`: settling needs 4 agreeing still frames, a quarter of a second at this rate."""


FPS_SECONDS = 2.0
"""The camera's rate is counted over the frames of the last seconds: since it opened, it said 2 frames a
second for minutes after the app was stopped for five, and nothing of a machine loaded later."""


_AWAKE_CLOCK = getattr(time, "CLOCK_MONOTONIC" if sys.platform == "darwin" else "CLOCK_BOOTTIME", None)
"""A clock that goes on while the machine sleeps (a laptop's lid closed): `time.monotonic` stands still then
on Linux and macOS, Linux's boot time and macOS's monotonic clock do not."""


EMPTY_SEEN = 2.0
"""Seconds of a still table with no die after which what settles was seen thrown, whatever came before (a
camera just opened shows its first frames dark, no die read in them, while dice thrown unseen lie there)."""


def _awake_clock() -> float:
    return time.monotonic() if _AWAKE_CLOCK is None else time.clock_gettime(_AWAKE_CLOCK)


def _same_dice(a: DiceReading, b: DiceReading) -> bool:
    """The same dice showing the same faces in the same places; a symbol die by its face alone, as the symbol
    dice games settle (its colour and rotation may be read otherwise in another opening's light)."""
    return agree(signature(a, faces_only=True), signature(b, faces_only=True))


BELOW_THE_SCREEN = 10
"""How much nicer than the app's the reading thread runs: on a slow core (a quarter of one) it took the
keyboard's time, each key shown about 0.5 s late while the camera read, 0.2 s so."""


def below_the_screen() -> None:
    """The calling thread runs below the others of the app where the system lets a thread be nicer than its
    process (Linux: a thread's own nice value); elsewhere, or refused, as it is."""
    try:
        thread = threading.get_native_id()
        os.setpriority(
            os.PRIO_PROCESS, thread, min(19, os.getpriority(os.PRIO_PROCESS, thread) + BELOW_THE_SCREEN)
        )
    except (AttributeError, OSError):  # no such call here (Windows), or not allowed
        pass


class CameraFeed:
    def __init__(
        self,
        open_source: Callable[[], FrameSource],
        reader: Reader,
        make_settler: Callable[[], Settler],
        post: Callable[[FeedMessage], object],
        settings: FeedSettings | None = None,
        backoff: Backoff | None = None,
    ) -> None:
        self._open_source = open_source
        self._reader = reader
        self._pip_reader = pips_only(reader)
        self._symbols = True
        """Whether the taught symbol dice are read (`read_symbols`)."""
        self._make_settler = make_settler
        self._post = post
        self._settings = settings or FeedSettings()
        self._backoff = backoff or Backoff()
        self._cancel = threading.Event()
        self._stop_by = 0.0
        """When waiting for the thread ends (`stop`)."""
        self._thread = threading.Thread(target=self._run, name="camera-feed", daemon=True)
        self._latest: Image | None = None
        self._latest_lock = threading.Lock()
        self._on_table: DiceReading | None = None
        """The dice last posted as settled, until posted as withdrawn (a lost camera withdraws nothing)."""
        self._back = False
        """Whether the camera was lost since it opened first: what it settles on first was thrown unseen."""
        self._said = FeedStatus("starting")
        self._skipped: dict[str, None] = {}
        """The photos given as the camera that could not be read (`FeedStatus.skipped`), each once, in order
        (looked up at every frame)."""

    def start(self) -> None:
        self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        """Cancel the feed and wait for its thread, `timeout` seconds at most over every call: a thread held
        by a driver (a stream that never answers its opening) is a daemon, and the app and its command both
        stop the feed as they end (quitting waited twice, 10 seconds)."""
        if not self._cancel.is_set():
            self._cancel.set()
            self._stop_by = time.monotonic() + timeout
        if self._thread.is_alive():
            self._thread.join(max(0.0, self._stop_by - time.monotonic()))

    def read_symbols(self, read: bool) -> None:
        """Whether the frames' taught symbol dice are read (a pip game's are not), from the next frame on: the
        dice settled are withdrawn and settled anew as read now, as not seen thrown (never entered unasked).
        The app's thread sets it while the worker reads; the worker looks at it once a frame (a flag set
        needs no lock)."""
        self._symbols = read

    def _reader_now(self) -> Reader:
        return self._reader if self._symbols else self._pip_reader

    @property
    def running(self) -> bool:
        return self._thread.is_alive()

    def latest_frame(self) -> Image | None:
        """The newest good frame of the camera (any thread may ask); None before the first one and while the
        camera is lost, stalled or ended: its last frame no longer shows the table."""
        with self._latest_lock:
            return self._latest

    def _keep(self, image: Image | None) -> None:
        with self._latest_lock:
            self._latest = image

    def _status(self, state: str, detail: str = "", retry_in: float | None = None) -> None:
        self._said = FeedStatus(state, detail, retry_in, tuple(self._skipped))  # type: ignore[arg-type]
        self._post(StatusChanged(self._said))

    def _note_skipped(self, source: FrameSource) -> None:
        """What the source skipped (a folder's photo it could not read, a video's frames that did not decode:
        its `errors`, kept by the grabber's thread as it goes, each said in the log as it did), counted with
        the status from now on; an opening again skips the same ones again, counted once."""
        new = [e for e in getattr(source, "errors", ()) if e not in self._skipped]
        if new:
            self._skipped.update(dict.fromkeys(new))
            self._status(self._said.state, self._said.detail, self._said.retry_in)

    def _run(self) -> None:
        below_the_screen()
        self._status("starting")
        while not self._cancel.is_set():
            try:
                source = self._open_source()
            except Exception as error:  # an unplugged camera raises from its driver in many ways
                self._wait_to_retry("camera lost", str(error))
                continue
            grabber = Grabber(source, self._settings.drop_stale_frames, self._cancel)
            try:
                state, detail = self._read_until_fault(grabber, source)
            finally:
                grabber.close()
                self._keep(None)
            if self._cancel.is_set():
                break
            self._back = True
            if state == "stream ended" and not self._settings.reopen_when_ended:
                self._status(state, "the end of the video")
                return
            self._wait_to_retry(state, detail)
        self._status("stopped")

    def _wait_to_retry(self, state: str, detail: str) -> None:
        delay = self._backoff.next_delay()
        self._status(state, detail, retry_in=delay)
        if not self._cancel.wait(delay):
            # Opening a stream that does not answer waits up to 30 s in FFmpeg: "retry in 0.5 s" stood there.
            self._status(state, detail, retry_in=0.0)

    def _read_until_fault(self, grabber: Grabber, source: FrameSource) -> tuple[str, str]:
        settler, reader = self._make_settler(), self._reader_now()
        unseen = self._back  # back after a fault: the first dice it settles on may have been thrown meanwhile
        bad_frames = 0
        frames = 0
        times: deque[float] = deque()
        empty_since: float | None = None
        last_frame = _awake_clock()
        # A photo given as the camera is the same picture frame after frame: read once a second, not 15 times
        # (and no less often: the reader's colours taught with F3 change the reading of the same picture).
        shown: tuple[Image, Reader, DiceReading, float] | None = None
        next_read = 0.0
        while not self._cancel.is_set():
            if self._settings.max_fps:
                # The grabber keeps the newest frame meanwhile: the one read is never a stale one.
                self._cancel.wait(max(0.0, next_read - time.monotonic()))
                next_read = time.monotonic() + 1 / self._settings.max_fps
            item = grabber.take(self._settings.stall_after)
            self._note_skipped(source)
            if item is None:
                return "stalled", f"no frame for {self._settings.stall_after:.0f} s"
            if isinstance(item, End):
                return "stream ended", ""
            if isinstance(item, Failed):
                return "camera lost", str(item.error)
            if item.image is None or item.image.size == 0:
                bad_frames += 1
                if bad_frames >= self._settings.bad_frames_to_lose:
                    return "camera lost", f"{bad_frames} frames in a row failed to decode"
                continue
            bad_frames = 0
            previous, last_frame = last_frame, _awake_clock()
            if last_frame - previous > self._settings.stall_after:
                # The feed stood still (the app stopped, the laptop asleep) while the camera went on: a throw
                # between two frames was never seen moving, and would have been entered as one seen thrown.
                settler, unseen = self._make_settler(), True
            self._keep(item.image)
            if frames == 0:
                self._backoff.reset()
                self._status("rolling")
            frames += 1
            if self._reader_now() is not reader:
                # Read otherwise, dice lying there settle anew, as a throw nobody saw: never entered unasked.
                settler, reader = self._make_settler(), self._reader_now()
                unseen = unseen or self._on_table is not None
                if self._on_table is not None:
                    self._withdrawn()
            now = time.monotonic()
            if shown is not None and shown[0] is item.image and shown[1] is reader and now < shown[3]:
                reading = shown[2]
            else:
                reading = reader.read(item.image)
                shown = (item.image, reader, reading, now + SAME_PICTURE_READ_AGAIN)
            times.append(now)
            while now - times[0] > FPS_SECONDS:
                times.popleft()
            fps = (len(times) - 1) / (now - times[0]) if len(times) > 1 else 0.0
            self._post(PreviewFrame(item.image, reading, fps))
            change = settler.update(item, reading)
            empty_since = (empty_since or now) if settler.still_empty else None
            if empty_since is not None and now - empty_since >= EMPTY_SEEN:
                # Nothing lies there that was thrown while the camera was away: what settles next was seen.
                unseen = False
            # Settled as the reader given up meanwhile read them, the dice are read anew at the next frame.
            if isinstance(change, Settled) and reader is self._reader_now():
                self._status("settled")
                # Never withdrawn, the dice posted last are lying there still: the camera came back to them.
                if self._on_table is None or not _same_dice(change.reading, self._on_table):
                    self._on_table = change.reading
                    lying = CAMERA_WAS_AWAY if unseen else SETTLED_AGAIN if change.again else ""
                    self._post(ReadingSettled(change.reading, item.image, lying))
                unseen = False
            elif isinstance(change, Withdrawn):
                unseen = False  # seen to move: what settles next was thrown in view
                self._withdrawn()
        return "stopped", ""

    def _withdrawn(self) -> None:
        self._on_table = None
        self._status("rolling")
        self._post(ReadingWithdrawn())
