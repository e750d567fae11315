"""The immutable values that flow out of the reader: a frame, and the dice seen in it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

import numpy as np
import numpy.typing as npt

SURE_READ = 0.8
"""A die read at least this surely is taken as read: a game enters it without asking, settled throws agree
on it, and the measurements count a wrong one as sure-but-wrong. Less sure dice are asked."""
ASKED = SURE_READ - 0.01
"""The confidence of a read that names a value or face but is to be asked."""

Image = npt.NDArray[np.uint8]
"""An image as OpenCV holds it: H×W×3, BGR, uint8."""

Kind = Literal["pip", "symbol"]
Rotation = Literal[0, 90, 180, 270]
UNKNOWN = "unknown"
"""The face of a symbol die that no taught face matches; so no taught face may be named it."""

PALETTE: tuple[str, ...] = ("yellow", "blue", "red", "green", "white", "black", "purple", "orange", "other")


@dataclass(frozen=True)
class Frame:
    """One picture from a frame source, with the time it was taken (seconds, monotonic per source)."""

    image: Image = field(repr=False)
    time: float
    index: int


@dataclass(frozen=True)
class Box:
    """An axis-aligned box in pixels of the original image."""

    x0: float
    y0: float
    x1: float
    y1: float

    @property
    def center(self) -> tuple[float, float]:
        return ((self.x0 + self.x1) / 2, (self.y0 + self.y1) / 2)

    @property
    def width(self) -> float:
        return self.x1 - self.x0

    @property
    def height(self) -> float:
        return self.y1 - self.y0

    def holds_centre_of(self, other: Box) -> bool:
        """Whether the other box's centre lies within this one."""
        x, y = other.center
        return self.x0 <= x <= self.x1 and self.y0 <= y <= self.y1

    def as_list(self) -> list[float]:
        return [round(self.x0, 1), round(self.y0, 1), round(self.x1, 1), round(self.y1, 1)]


@dataclass(frozen=True)
class Die:
    """One die as read: a pip die has `value` 1-6; a symbol die has `face` (or "unknown") and `rotation`;
    `found`, how surely the detector found it (None where no detector looked: a die of a saved frame's
    sidecar)."""

    box: Box
    kind: Kind
    color: str
    confidence: float
    value: int | None = None
    face: str | None = None
    rotation: Rotation | None = None
    found: float | None = None

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"box": self.box.as_list(), "kind": self.kind}
        if self.kind == "pip":
            out["value"] = self.value
        else:
            out["face"] = self.face
            out["rotation"] = self.rotation
        out["color"] = self.color
        out["confidence"] = round(self.confidence, 4)
        return out


@dataclass(frozen=True)
class DiceReading:
    """All dice seen on the table at one moment (a settled reading in video, or one still image)."""

    dice: tuple[Die, ...]
    time: float

    def values(self, color: str | None = None) -> list[int]:
        """Pip values, optionally of one colour only, in reading order."""
        return [d.value for d in self.dice if d.value is not None and (color is None or d.color == color)]
