"""What the camera thread posts reaches the app in a carrier that keeps the feed's replacing: a preview or a
status line still waiting is dropped for the next one of its kind, a settled reading or a withdrawal never."""

from __future__ import annotations

import numpy as np

from companion.app.app import FromFeed
from companion.live.messages import (
    FeedMessage,
    FeedStatus,
    PreviewFrame,
    ReadingSettled,
    ReadingWithdrawn,
    StatusChanged,
)
from vision.reading import DiceReading

TABLE = np.full((24, 32, 3), 90, np.uint8)
NONE = DiceReading((), 0.0)


def dropped(older: FeedMessage, newer: FeedMessage) -> bool:
    """Whether Textual drops `older`, still queued, for `newer` queued behind it."""
    return FromFeed(older).can_replace(FromFeed(newer))


def test_a_stale_preview_or_status_gives_way_to_the_next_of_its_kind_only() -> None:
    preview, status = PreviewFrame(TABLE, NONE, 15.0), StatusChanged(FeedStatus("rolling"))
    assert dropped(preview, PreviewFrame(TABLE, NONE, 14.0))
    assert dropped(status, StatusChanged(FeedStatus("settled")))
    assert not dropped(preview, status)
    assert not dropped(status, preview)


def test_settled_readings_and_withdrawals_are_never_dropped() -> None:
    settled = ReadingSettled(NONE, TABLE)
    assert not dropped(settled, ReadingSettled(NONE, TABLE))
    assert not dropped(ReadingWithdrawn(), ReadingWithdrawn())
    assert not dropped(settled, PreviewFrame(TABLE, NONE, 15.0))
    assert not dropped(PreviewFrame(TABLE, NONE, 15.0), settled)
