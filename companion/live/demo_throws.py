"""What every demo on the rendered table shares: its players, the throw thrown and read until it settles,
and what a headless demo counts of its throws."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Protocol

from companion.live.frames import Sighting
from vision.reading import DiceReading, Frame, Image
from vision.settle import Settler, settle
from vision.simulated_table.rolling import Faces, RollingTable

DEMO_PLAYERS = ("Barbara", "Dirk", "Patricia")
"""The players of Roll & Write's and Carcassonne's demos."""
MAX_FRAMES_PER_THROW = 120
"""A throw that has not settled after this many frames is typed in, as players would when the camera
cannot make out the dice."""


@dataclass(kw_only=True)
class ThrowTally:
    """What a headless demo counts of its throws, the same for every game whose rolls the camera reads."""

    readings: int = 0
    matched: int = 0
    fixed: int = 0
    strays: int = 0
    frames: int = 0
    seconds: float = 0.0

    def tally_json(self) -> dict[str, Any]:
        return {
            "readings": self.readings,
            "readings_matched": self.matched,
            "readings_fixed": self.fixed,
            "readings_with_strays": self.strays,
            "frames": self.frames,
            "seconds": round(self.seconds, 2),
        }


class Counts(Protocol):
    frames: int


def counted(frames: Iterable[Frame], result: Counts) -> Iterator[Frame]:
    """The frames, counted in `result.frames` as they are read."""
    for frame in frames:
        result.frames += 1
        yield frame


def read_throw(
    table: RollingTable,
    throw: Faces,
    frames: Iterator[Frame],
    read: Callable[[Image, float], DiceReading],
    settler: Settler,
) -> Sighting | None:
    """Throw the dice onto the table and read frames until they settle: the frame they settled in and their
    reading (None: they never did, and the players type them)."""
    table.throw(throw)
    settled = settle(frames, read, settler, max_frames=MAX_FRAMES_PER_THROW)
    return Sighting(settled.frame.image, settled.reading) if settled is not None else None
