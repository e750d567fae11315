"""A pip die as a game takes it: the camera's reading matched to a game, and the keys, both give these."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Colour = Literal["yellow", "blue"]


@dataclass(frozen=True)
class PipDie:
    """One pip die as entered: its colour and the value on top."""

    colour: Colour
    value: int

    def __post_init__(self) -> None:
        if not 1 <= self.value <= 6:
            raise ValueError(f"a die shows 1 to 6, not {self.value}")

    @property
    def label(self) -> str:
        """Short form as typed, e.g. `y3`."""
        return f"{self.colour[0]}{self.value}"
