"""Camera faults never crash or freeze the feed: it says what happened and keeps retrying."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Iterator

import numpy as np
import pytest
from live_driver import EmptyReader, NeverSettles

from companion.live.backoff import Backoff
from companion.live.feed import BELOW_THE_SCREEN, CameraFeed, FeedSettings
from companion.live.messages import FeedMessage, FeedStatus, PreviewFrame, StatusChanged
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
        self.messages: list[FeedMessage] = []
        self.lock = threading.Lock()

    def __call__(self, message: FeedMessage) -> None:
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
    lost = [s for s in recorder.statuses("camera lost") if s.retry_in]
    assert len(lost) == 2 and "not plugged in" in lost[0].detail
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


class Stopped:
    """The `time` module as the feed sees it, but for `stopped_for` seconds gone by at one moment: the process
    stopped (SIGSTOP), or the laptop asleep, there. Everything else is the real module's."""

    def __init__(self, at_call: int, stopped_for: float) -> None:
        self.calls = 0
        self.at_call = at_call
        self.stopped_for = stopped_for

    def _offset(self) -> float:
        self.calls += 1
        return self.stopped_for if self.calls > self.at_call else 0.0

    def monotonic(self) -> float:
        return time.monotonic() + self._offset()

    def clock_gettime(self, clock: int) -> float:
        return time.clock_gettime(clock) + self._offset()

    def __getattr__(self, name: str) -> object:
        return getattr(time, name)


def test_a_frame_late_only_because_the_app_was_stopped_is_no_stall(monkeypatch: pytest.MonkeyPatch) -> None:
    """Continued after a stop longer than `stall_after`, the feed found its deadline past before the grabber,
    stopped with it, had its turn: a 5-frames-a-second stream was "stalled: no frame for 3 s" and reopened at
    every continue (6 of 6)."""
    from vision import grabber as grabber_module

    cancel = threading.Event()

    class Slow(ListSource):
        def __iter__(self) -> Iterator[Frame]:
            time.sleep(0.2)
            yield Frame(grey(), 0.0, 0)
            cancel.wait(5)

    grabber = grabber_module.Grabber(Slow([]), drop_stale=True, cancel=cancel)
    monkeypatch.setattr(grabber_module, "time", Stopped(at_call=1, stopped_for=10.0))
    try:
        assert isinstance(grabber.take(1.0), Frame)
    finally:
        cancel.set()
        grabber.close()


class Reads:
    """A reader of what the scene says lies on the table, whatever the picture."""

    def __init__(self, dice: DiceReading) -> None:
        self.dice = dice

    def read(self, image: Image) -> DiceReading:
        return self.dice


def test_dice_changed_while_the_app_was_stopped_are_offered_as_thrown_unseen(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A throw made while the app was stopped (or the laptop asleep) and the camera went on came to the feed
    as a picture that changed between two frames; settled, it was entered as a throw seen thrown. The
    camera's rate said then is that of its last frames."""
    from companion.live import feed as feed_module
    from companion.live.match import CAMERA_WAS_AWAY
    from companion.live.messages import ReadingSettled
    from vision.reading import Box, Die
    from vision.settle import Settler

    def dice(value: int) -> DiceReading:
        return DiceReading((Die(Box(10, 10, 30, 30), "pip", "yellow", 0.99, value=value),), 0.0)

    reader = Reads(dice(3))
    table = grey()

    class Camera(ListSource):
        def __iter__(self) -> Iterator[Frame]:
            for index in range(100_000):
                yield Frame(table, index / 30, index)
                time.sleep(1 / 30)

    recorder = Recorder()
    feed = CameraFeed(lambda: Camera([]), reader, Settler, recorder, FeedSettings(stall_after=1.0))
    settled = lambda r: [m for m in r.messages if isinstance(m, ReadingSettled)]  # noqa: E731
    feed.start()
    try:
        recorder.wait_for(lambda r: len(settled(r)) == 1)
        clock = Stopped(at_call=10**9, stopped_for=30.0)
        monkeypatch.setattr(feed_module, "time", clock)
        clock.at_call = clock.calls  # stopped now: the next frame comes 30 s on, another throw lying there
        reader.dice = dice(5)
        recorder.wait_for(lambda r: len(settled(r)) == 2)
        time.sleep(0.5)
    finally:
        feed.stop()
    first, second = settled(recorder)
    assert (first.lying, second.lying) == ("", CAMERA_WAS_AWAY)
    assert [d.value for d in second.reading.dice] == [5]
    # The rate of the last seconds: since the camera opened, it said a frame or two a second long after.
    rate = [m.fps for m in recorder.messages if isinstance(m, PreviewFrame)][-1]
    assert rate > 10, rate


def test_a_throw_seen_whole_after_a_stop_over_an_empty_table_is_entered_as_seen(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """After the app was stopped, every next throw was offered as "thrown while the camera was away", though
    the camera saw the table empty, then the throw: a still empty table for `EMPTY_SEEN` says nothing was
    thrown unseen."""
    from companion.live import feed as feed_module
    from companion.live.messages import ReadingSettled
    from vision.reading import Box, Die
    from vision.settle import Settler

    reader = Reads(DiceReading((), 0.0))
    rng = np.random.default_rng(0)
    rolling = threading.Event()
    table = grey()

    class Camera(ListSource):
        def __iter__(self) -> Iterator[Frame]:
            for index in range(100_000):
                image = rng.integers(0, 255, table.shape, dtype=np.uint8) if rolling.is_set() else table
                yield Frame(image, index / 30, index)
                time.sleep(1 / 30)

    recorder = Recorder()
    feed = CameraFeed(lambda: Camera([]), reader, Settler, recorder, FeedSettings(stall_after=1.0))
    feed.start()
    try:
        time.sleep(0.5)
        clock = Stopped(at_call=10**9, stopped_for=30.0)
        monkeypatch.setattr(feed_module, "time", clock)
        clock.at_call = clock.calls  # stopped now, nothing thrown meanwhile
        time.sleep(feed_module.EMPTY_SEEN + 0.5)  # back: the table seen empty
        rolling.set()  # a throw, in view
        time.sleep(0.3)
        reader.dice = DiceReading((Die(Box(10, 10, 30, 30), "pip", "yellow", 0.99, value=5),), 0.0)
        rolling.clear()
        recorder.wait_for(lambda r: any(isinstance(m, ReadingSettled) for m in r.messages))
    finally:
        feed.stop()
    assert [m.lying for m in recorder.messages if isinstance(m, ReadingSettled)] == [""]


def test_the_camera_reads_below_the_screen() -> None:
    """On a slow core the reading thread took the keyboard's time (a key shown about 0.5 s late at a quarter
    of a core): it runs nicer than the app's own threads."""
    nice: list[int] = []

    def open_source() -> ListSource:
        nice.append(os.getpriority(os.PRIO_PROCESS, threading.get_native_id()))
        return ListSource([grey()] * 5, then=lambda: threading.Event().wait(10))

    recorder = Recorder()
    feed = run_feed(open_source, recorder)
    recorder.wait_for(lambda r: bool(nice))
    feed.stop()
    app = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
    assert nice == [min(19, app + BELOW_THE_SCREEN)] and app < 19
