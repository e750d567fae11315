"""Camera faults never crash or freeze the feed: it says what happened and keeps retrying."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator

import numpy as np
import pytest
from live_driver import EmptyReader, NeverSettles
from textual.message import Message

from companion.live.backoff import Backoff
from companion.live.feed import CameraFeed, FeedSettings
from companion.live.messages import FeedStatus, PreviewFrame, StatusChanged
from vision.reading import DiceReading, Frame, Image


class ListSource:
    """Yields the given images, then ends or fails as told."""

    def __init__(self, images: list[Image | None], then: Callable[[], None] | None = None) -> None:
        self.images = images
        self.then = then
        self.closed = False

    def __iter__(self) -> Iterator[Frame]:
        for index, image in enumerate(self.images):
            yield Frame(image=image, time=index / 30, index=index)  # type: ignore[arg-type]
        if self.then is not None:
            self.then()

    def close(self) -> None:
        self.closed = True


def grey() -> Image:
    return np.full((48, 64, 3), 90, np.uint8)


class Recorder:
    def __init__(self) -> None:
        self.messages: list[Message] = []
        self.lock = threading.Lock()

    def __call__(self, message: Message) -> None:
        with self.lock:
            self.messages.append(message)

    def statuses(self, state: str | None = None) -> list[FeedStatus]:
        with self.lock:
            found = [m.status for m in self.messages if isinstance(m, StatusChanged)]
        return [s for s in found if state is None or s.state == state]

    def states(self) -> list[str]:
        return [s.state for s in self.statuses()]

    def wait_for(self, predicate: Callable[[Recorder], bool], timeout: float = 5.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if predicate(self):
                return
            time.sleep(0.01)
        raise AssertionError(f"timed out; states so far: {self.states()}")


def run_feed(open_source: Callable[[], ListSource], recorder: Recorder, **settings: float) -> CameraFeed:
    feed = CameraFeed(
        open_source,
        EmptyReader(),
        NeverSettles,
        recorder,
        FeedSettings(**settings),  # type: ignore[arg-type]
        backoff=Backoff(first=0.01, ceiling=0.05),
    )
    feed.start()
    return feed


def test_a_camera_that_does_not_open_is_retried_until_it_does() -> None:
    attempts = []

    def open_source() -> ListSource:
        attempts.append(1)
        if len(attempts) < 3:
            raise OSError("camera 0 is not plugged in")
        return ListSource([grey()] * 5, then=lambda: threading.Event().wait(10))

    recorder = Recorder()
    feed = run_feed(open_source, recorder)
    recorder.wait_for(lambda r: any(isinstance(m, PreviewFrame) for m in r.messages))
    feed.stop()
    lost = recorder.statuses("camera lost")
    assert len(lost) == 2 and "not plugged in" in lost[0].detail and lost[0].retry_in is not None
    assert not feed.running


def test_a_stream_that_ends_is_reported_and_reopened() -> None:
    opened: list[ListSource] = []

    def open_source() -> ListSource:
        opened.append(ListSource([grey()] * 3))
        return opened[-1]

    recorder = Recorder()
    feed = run_feed(open_source, recorder, drop_stale_frames=False)
    recorder.wait_for(lambda r: r.states().count("stream ended") >= 2)
    feed.stop()
    assert len(opened) >= 2 and all(source.closed for source in opened[:-1])


def test_a_stalled_stream_is_noticed_and_does_not_block_stopping() -> None:
    stuck = threading.Event()

    def open_source() -> ListSource:
        return ListSource([grey()], then=lambda: stuck.wait(30))

    recorder = Recorder()
    feed = run_feed(open_source, recorder, stall_after=0.1)
    recorder.wait_for(lambda r: "stalled" in r.states())
    started = time.monotonic()
    feed.stop()
    assert not feed.running and time.monotonic() - started < 5
    stuck.set()


def test_a_stream_that_never_answers_its_opening_is_waited_for_once_however_often_stopped() -> None:
    """The app and its command both stop the feed as they end: each waited the whole time for a thread held
    by a driver's opening, so quitting took twice as long."""
    held = threading.Event()

    def open_source() -> ListSource:
        held.wait(30)
        return ListSource([grey()])

    feed = run_feed(open_source, Recorder())
    started = time.monotonic()
    feed.stop(timeout=0.5)
    feed.stop(timeout=0.5)
    waited = time.monotonic() - started
    held.set()
    assert 0.4 < waited < 0.9, waited


def test_frames_that_fail_to_decode_count_as_a_lost_camera() -> None:
    recorder = Recorder()
    feed = run_feed(lambda: ListSource([None] * 20), recorder, bad_frames_to_lose=5, drop_stale_frames=False)
    recorder.wait_for(lambda r: "camera lost" in r.states())
    feed.stop()
    assert "failed to decode" in recorder.statuses("camera lost")[0].detail


@pytest.mark.parametrize("error", [RuntimeError("USB device disconnected"), ValueError("bad header")])
def test_a_driver_error_mid_stream_is_a_lost_camera(error: Exception) -> None:
    def explode() -> None:
        raise error

    recorder = Recorder()
    feed = run_feed(lambda: ListSource([grey()] * 2, then=explode), recorder, drop_stale_frames=False)
    recorder.wait_for(lambda r: "camera lost" in r.states())
    feed.stop()
    assert "stopped" in recorder.states()


def test_a_photo_shown_frame_after_frame_is_read_once() -> None:
    """A photo given as the camera (or a video's last picture held) is the same picture 15 times a second:
    each was read again, most of a core spent while nothing changed."""
    photo, read = grey(), []

    class Counting:
        def read(self, image: Image) -> DiceReading:
            read.append(image)
            return DiceReading((), 0.0)

    recorder = Recorder()
    source = ListSource([photo] * 10 + [grey()])
    settings = FeedSettings(drop_stale_frames=False, reopen_when_ended=False)
    feed = CameraFeed(lambda: source, Counting(), NeverSettles, recorder, settings)
    feed.start()
    recorder.wait_for(lambda r: "stream ended" in r.states())
    feed.stop()
    previews = [m for m in recorder.messages if isinstance(m, PreviewFrame)]
    assert len(previews) == 11 and len(read) == 2


def test_a_photo_shown_for_long_is_read_again_as_the_reader_learns(monkeypatch: pytest.MonkeyPatch) -> None:
    """The reader's colours are taught in place (F3): a photo read once kept its first reading for ever."""
    monkeypatch.setattr("companion.live.feed.SAME_PICTURE_READ_AGAIN", 0.1)
    photo, taught = grey(), threading.Event()

    class Learning:
        def read(self, image: Image) -> DiceReading:
            return DiceReading((), 1.0 if taught.is_set() else 0.0)

    class Slow(ListSource):
        def __iter__(self) -> Iterator[Frame]:
            for index in range(12):
                time.sleep(0.05)
                if index == 4:
                    taught.set()
                yield Frame(image=photo, time=index / 20, index=index)

    recorder = Recorder()
    settings = FeedSettings(drop_stale_frames=False, reopen_when_ended=False)
    feed = CameraFeed(lambda: Slow([]), Learning(), NeverSettles, recorder, settings)
    feed.start()
    recorder.wait_for(lambda r: "stream ended" in r.states())
    feed.stop()
    previews = [m for m in recorder.messages if isinstance(m, PreviewFrame)]
    assert previews[0].reading.time == 0.0 and previews[-1].reading.time == 1.0


def test_a_live_camera_is_read_no_more_often_than_its_cap() -> None:
    """A webcam gives 30 frames a second however still the table: each was read and previewed, most of a
    core for hours on a laptop's battery. Capped, the newest frame is read at that rate."""

    class Endless:
        def __iter__(self) -> Iterator[Frame]:
            for index in range(100_000):
                time.sleep(0.002)
                yield Frame(image=grey(), time=index / 500, index=index)

        def close(self) -> None:
            pass

    recorder = Recorder()
    feed = CameraFeed(lambda: Endless(), EmptyReader(), NeverSettles, recorder, FeedSettings(max_fps=20))
    feed.start()
    recorder.wait_for(lambda r: "rolling" in r.states())
    time.sleep(0.5)
    feed.stop()
    previews = [m for m in recorder.messages if isinstance(m, PreviewFrame)]
    assert 2 <= len(previews) <= 0.5 * 20 + 3, len(previews)
    assert previews[-1].image is not previews[0].image


def test_a_video_file_that_ends_is_done_and_not_opened_again() -> None:
    record = Recorder()
    opened = []

    def open_source() -> ListSource:
        opened.append(1)
        return ListSource([grey()] * 3)

    feed = CameraFeed(
        open_source, EmptyReader(), NeverSettles, record, FeedSettings(reopen_when_ended=False), Backoff(0.01)
    )
    feed.start()
    deadline = time.monotonic() + 5
    while feed.running and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not feed.running and len(opened) == 1
    assert [s.state for s in record.statuses()][-1] == "stream ended"


def test_the_newest_frame_is_kept_for_the_players_and_forgotten_when_the_camera_is_lost() -> None:
    frame, unplug = grey(), threading.Event()
    opened: list[int] = []

    def pulled_out() -> None:
        unplug.wait(10)
        raise RuntimeError("USB device disconnected")

    def open_source() -> ListSource:
        opened.append(1)
        if len(opened) > 1:
            raise OSError("camera 0 is not plugged in")
        return ListSource([frame], then=pulled_out)

    recorder = Recorder()
    feed = run_feed(open_source, recorder, drop_stale_frames=False)
    recorder.wait_for(lambda r: any(isinstance(m, PreviewFrame) for m in r.messages))
    kept = feed.latest_frame()
    unplug.set()
    recorder.wait_for(lambda r: "camera lost" in r.states())
    forgotten = feed.latest_frame()
    feed.stop()
    assert kept is frame and forgotten is None
