"""Photos of a folder given as the camera that cannot be read are said: in the log, and counted in the panel.

Before, the panel settled on the good photo and nothing anywhere said the others were skipped (companion.log
held only its start line): `ImageSource.errors` was read by nobody.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path

import cv2
import numpy as np
import pytest
from live_driver import EmptyReader, NeverSettles, synchronous
from textual.app import App, ComposeResult

from companion.app.widgets.camera_panel import CameraPanel
from companion.live.backoff import Backoff
from companion.live.feed import CameraFeed
from companion.live.messages import FeedMessage, FeedStatus, StatusChanged
from vision.reading import DiceReading
from vision.sources import ImageSource


def test_the_feed_says_each_photo_it_skipped_in_the_log_and_counts_them(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    cv2.imwrite(str(tmp_path / "a_good.png"), np.full((40, 50, 3), 90, np.uint8))
    (tmp_path / "b_cut.jpg").write_bytes(b"\xff\xd8\xff garbage")
    (tmp_path / "c_iphone.HEIC").write_bytes(b"\0\0\0\x18ftypheic\0\0\0\0mif1heic")
    statuses: list[FeedStatus] = []
    lock = threading.Lock()

    def post(message: FeedMessage) -> None:
        if isinstance(message, StatusChanged):
            with lock:
                statuses.append(message.status)

    feed = CameraFeed(
        lambda: ImageSource([tmp_path], hold=0.05, fps=50),
        EmptyReader(),
        NeverSettles,
        post,
        backoff=Backoff(first=0.01, ceiling=0.05),
    )
    feed.start()
    try:
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and not any(len(s.skipped) == 2 for s in statuses):
            time.sleep(0.01)
    finally:
        feed.stop()
    with lock:
        last = statuses[-2]  # the last before "stopped"
    assert [s.split(": ")[0] for s in last.skipped] == [
        str(tmp_path / "b_cut.jpg"),
        str(tmp_path / "c_iphone.HEIC"),
    ]
    assert statuses[-1].skipped == last.skipped, "said with every status from then on"
    log = capfd.readouterr().err
    assert f"{tmp_path / 'b_cut.jpg'}: not an image, or a truncated one\n" in log
    assert f"{tmp_path / 'c_iphone.HEIC'}: a HEIC photo, which is not read" in log


class PanelApp(App[None]):
    def compose(self) -> ComposeResult:
        yield CameraPanel(id="camera")


@synchronous
async def test_the_camera_panel_counts_what_was_not_read() -> None:
    app = PanelApp()
    async with app.run_test(size=(40, 20)) as pilot:
        panel = app.query_one(CameraPanel)
        panel.show_frame(np.full((40, 50, 3), 90, np.uint8), DiceReading((), 0.0), 15.0)
        panel.show_status(
            FeedStatus("rolling", skipped=("/p/b.jpg: not an image", "/p/c.HEIC: a HEIC photo"))
        )
        await pilot.pause()
        shown = "\n".join(line.text for line in panel.render_lines(panel.region.reset_offset))
        assert "2 not read: see companion.log" in shown
        assert "rolling" in shown
