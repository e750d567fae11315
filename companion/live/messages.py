"""Messages the camera thread posts to the app.

Preview frames and status lines arrive far faster than a terminal redraws, so a newer one replaces an older
one still waiting in the queue; settled readings never replace each other: each may be a recorded roll.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from textual.message import Message

from vision.reading import DiceReading, Image

ReaderState = Literal["starting", "rolling", "settled", "camera lost", "stalled", "stream ended", "stopped"]


class PreviewFrame(Message):
    """The newest frame with the dice seen in it (not settled: for display only)."""

    def __init__(self, image: Image, reading: DiceReading, fps: float) -> None:
        super().__init__()
        self.image = image
        self.reading = reading
        self.fps = fps

    def can_replace(self, message: Message) -> bool:
        return isinstance(message, PreviewFrame)


@dataclass(frozen=True)
class FeedStatus:
    state: ReaderState
    detail: str = ""
    retry_in: float | None = None
    """Seconds until the source is opened again (0: being opened now), None while it is not to be."""
    skipped: tuple[str, ...] = ()
    """What the camera's source skipped (a photo that could not be read, a damaged stretch of a video), each
    as `PATH: why`, as written in the log."""


class StatusChanged(Message):
    def __init__(self, status: FeedStatus) -> None:
        super().__init__()
        self.status = status

    def can_replace(self, message: Message) -> bool:
        return isinstance(message, StatusChanged)


class ReadingSettled(Message):
    """The dice stopped moving and frames agree: this is a roll the game may take; `image` is the frame they
    settled in (kept as the camera's evidence of the roll made of them)."""

    def __init__(self, reading: DiceReading, image: Image, lying: str = "") -> None:
        super().__init__()
        self.reading = reading
        self.image = image
        self.lying = lying
        """Why nobody saw these dice thrown ('' when the camera did): it came back (unplugged, stalled) to
        them, or something passed over the last throw's dice (`match.SETTLED_AGAIN`). Offered, never
        entered unasked."""


class ReadingWithdrawn(Message):
    """The dice moved again after a settled reading: it no longer shows the table."""
