"""What the camera thread reports to whoever runs it (the app posts each on to its screens).

Plain data, so the live layer stays below the app: the feed is given a callable that passes these on. Preview
frames and status lines arrive far faster than a terminal redraws, so a newer one may replace an older one of
its kind still waiting to be shown (`supersedes`); settled readings never replace each other: each may be a
recorded roll.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from vision.reading import DiceReading, Image

ReaderState = Literal["starting", "rolling", "settled", "camera lost", "stalled", "stream ended", "stopped"]


# eq=False: an image compares element by element, and nobody asks whether two frames are equal.
@dataclass(frozen=True, eq=False)
class PreviewFrame:
    """The newest frame with the dice seen in it (not settled: for display only)."""

    image: Image
    reading: DiceReading
    fps: float


@dataclass(frozen=True)
class FeedStatus:
    state: ReaderState
    detail: str = ""
    retry_in: float | None = None
    """Seconds until the source is opened again (0: being opened now), None while it is not to be."""
    skipped: tuple[str, ...] = ()
    """What the camera's source skipped (a photo that could not be read, a damaged stretch of a video), each
    as `PATH: why`, as written in the log."""


@dataclass(frozen=True)
class StatusChanged:
    status: FeedStatus


@dataclass(frozen=True, eq=False)
class ReadingSettled:
    """The dice stopped moving and frames agree: this is a roll the game may take; `image` is the frame they
    settled in (kept as the camera's evidence of the roll made of them)."""

    reading: DiceReading
    image: Image
    lying: str = ""
    """Why nobody saw these dice thrown ('' when the camera did): it came back (unplugged, stalled) to
    them, or something passed over the last throw's dice (`match.SETTLED_AGAIN`). Offered, never
    entered unasked."""


@dataclass(frozen=True)
class ReadingWithdrawn:
    """The dice moved again after a settled reading: it no longer shows the table."""


FeedMessage = PreviewFrame | StatusChanged | ReadingSettled | ReadingWithdrawn


def supersedes(newer: FeedMessage, older: FeedMessage) -> bool:
    """Whether `older`, still waiting to be shown, may be dropped for `newer`: a preview or a status line is
    stale once the next one of its kind is there."""
    return type(newer) is type(older) and isinstance(newer, PreviewFrame | StatusChanged)
