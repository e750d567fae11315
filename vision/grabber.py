"""Frames pulled from a source on a thread of their own and taken with a time limit: a camera or stream that
stops sending frames (a stream server frozen, a driver stuck) blocks its read for ever, and whoever reads
through a grabber is told instead of waiting with it."""

from __future__ import annotations

import threading
import time
from collections.abc import Generator

from .reading import Frame
from .sources import FrameSource, SourceError

POLL = 0.05
STALL_SECONDS = 10.0
"""Seconds without a frame after which a command that reads a camera once (teaching) gives up on it: a
webcam's first frame after opening can take a few seconds, a stalled one never comes."""


class End:
    """The source ran out of frames."""


class Failed:
    def __init__(self, error: BaseException) -> None:
        self.error = error


Slot = Frame | End | Failed


class Grabber:
    """Pulls frames from one opened source on its own thread into a slot of one."""

    def __init__(self, source: FrameSource, drop_stale: bool, cancel: threading.Event) -> None:
        self._source = source
        self._drop_stale = drop_stale
        self._cancel = cancel
        self._closed = threading.Event()
        self._slot: Slot | None = None
        self._changed = threading.Condition()
        self._thread = threading.Thread(target=self._run, name="frame-grabber", daemon=True)
        self._thread.start()

    def _stopping(self) -> bool:
        return self._cancel.is_set() or self._closed.is_set()

    def _put(self, item: Slot) -> None:
        with self._changed:
            while not self._drop_stale and self._slot is not None and not self._stopping():
                self._changed.wait(POLL)
            self._slot = item
            self._changed.notify_all()

    def _run(self) -> None:
        try:
            for frame in self._source:
                if self._stopping():
                    return
                self._put(frame)
            self._put(End())
        except Exception as error:  # any failure of a camera driver ends this opening, never the program
            self._put(Failed(error))

    def take(self, timeout: float) -> Slot | None:
        """The newest frame (or end/failure); None if nothing came within `timeout` seconds of this process
        running, or on cancel."""
        waited = 0.0
        with self._changed:
            # Short waits, because cancelling sets an event that does not wake this condition.
            while self._slot is None:
                if waited >= timeout or self._cancel.is_set():
                    return None
                before = time.monotonic()
                self._changed.wait(min(timeout - waited, POLL))
                # A wait the process spent stopped is no time the source had to send a frame in: continued,
                # the grabber gets its turn before the source counts as stalled (a slow stream did not).
                waited += min(time.monotonic() - before, POLL)
            item, self._slot = self._slot, None
            self._changed.notify_all()
            return item

    def close(self) -> None:
        self._closed.set()
        with self._changed:
            self._changed.notify_all()
        self._source.close()
        # A driver stuck inside a read cannot be interrupted; the thread is a daemon, so it cannot keep the
        # process alive, and giving up on it after a moment keeps quitting quick.
        self._thread.join(timeout=1.0)


def timed_frames(
    source: FrameSource, stall_after: float | None = None, live: bool = False
) -> Generator[Frame, None, None]:
    """`source`'s frames in order, none dropped (`live`: the newest, as a live camera's are wanted after a
    prompt waited: the frame the grabber held since then shows the table before it); `SourceError` once none
    came for `stall_after` seconds (`STALL_SECONDS`), and the source's own failure as it was raised. Its end,
    or the generator closed, closes the source."""
    stall_after = STALL_SECONDS if stall_after is None else stall_after
    grabber = Grabber(source, drop_stale=live, cancel=threading.Event())
    try:
        while True:
            item = grabber.take(stall_after)
            if item is None:
                raise SourceError(f"the camera sent no picture for {stall_after:g} s: unplugged, or stalled?")
            if isinstance(item, End):
                return
            if isinstance(item, Failed):
                raise item.error
            yield item
    finally:
        grabber.close()
