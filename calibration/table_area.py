"""The table area: the part of the camera's view where dice are thrown (a tray), as fractions of the frame.

Everything outside it (the players' sheets with dice on their fields, hands, cups) is not read. Saved as
JSON, validated on load with errors that name the field.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Protocol

from jsonfile import JsonFileError, complain, read_json, refuse_unknown, short
from jsonfile.whole import write_whole
from vision.reading import Box, DiceReading, Image

FORMAT = "table-area/1"


class TableAreaError(ValueError):
    """An area file or value that cannot be used; the message names the field."""


@dataclass(frozen=True)
class TableArea:
    """Left, top, right, bottom edges as fractions (0–1) of the frame's width and height."""

    x0: float = 0.0
    y0: float = 0.0
    x1: float = 1.0
    y1: float = 1.0

    def __post_init__(self) -> None:
        for name in ("x0", "y0", "x1", "y1"):
            value = getattr(self, name) + 0.0  # -0 is 0, and shown so
            object.__setattr__(self, name, value)
            if not 0.0 <= value <= 1.0:
                raise TableAreaError(f"{name}: must be a fraction of the frame from 0 to 1, got {value}")
        for far, near, far_edge, near_edge in (("x1", "x0", "right", "left"), ("y1", "y0", "bottom", "top")):
            if getattr(self, far) <= getattr(self, near):
                raise TableAreaError(
                    f"{far}: the {far_edge} edge ({getattr(self, far)}) must lie past the {near_edge} edge"
                    f" ({getattr(self, near)}): give left top right bottom"
                )
        if self.x1 - self.x0 < 0.05 or self.y1 - self.y0 < 0.05:
            raise TableAreaError("x1, y1: the area must be at least 5% of the frame wide and high")

    def pixels(self, width: int, height: int) -> tuple[int, int, int, int]:
        return (
            round(self.x0 * width),
            round(self.y0 * height),
            round(self.x1 * width),
            round(self.y1 * height),
        )

    def to_json(self) -> dict[str, object]:
        return {"format": FORMAT, "x0": self.x0, "y0": self.y0, "x1": self.x1, "y1": self.y1}


def parse_area(data: object, where: str = "table area") -> TableArea:
    if not isinstance(data, dict):
        raise TableAreaError(f"{where}: expected a JSON object with x0, y0, x1, y1")
    refuse_unknown(data, ("format", "x0", "y0", "x1", "y1"), where, TableAreaError)
    if data.get("format") != FORMAT:
        raise TableAreaError(f"{where}: format: expected {FORMAT!r}, got {short(data.get('format'))}")
    values = []
    for name in ("x0", "y0", "x1", "y1"):
        value = data.get(name)
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise TableAreaError(f"{where}: {name}: expected a number from 0 to 1, got {short(value)}")
        values.append(float(value))
    try:
        return TableArea(*values)
    except TableAreaError as err:
        raise TableAreaError(f"{where}: {err}") from None


def load_area(path: Path) -> TableArea:
    try:
        data = read_json(path)
    except JsonFileError as err:
        raise TableAreaError(str(err)) from None
    return parse_area(data, str(path))


def save_area(area: TableArea, path: Path) -> None:
    write_whole(path, json.dumps(area.to_json(), indent=2) + "\n")


class _Reader(Protocol):
    def read(self, image: Image, time: float = 0.0) -> DiceReading: ...


class AreaReader:
    """Reads only the table area of each frame; boxes come back in the whole frame's pixels."""

    def __init__(self, reader: _Reader, area: TableArea) -> None:
        self.reader = reader
        self.area = area

    def read(self, image: Image, time: float = 0.0) -> DiceReading:
        x0, y0, x1, y1 = self.area.pixels(image.shape[1], image.shape[0])
        inner = self.reader.read(image[y0:y1, x0:x1], time)
        dice = tuple(
            replace(d, box=Box(d.box.x0 + x0, d.box.y0 + y0, d.box.x1 + x0, d.box.y1 + y0))
            for d in inner.dice
        )
        return DiceReading(dice, inner.time)


if __name__ == "__main__":
    # No command lives here: run as one (`--help` too), it said nothing and ended with 0, as if it had worked.
    complain(
        "python -m calibration.table_area",
        "not a command: the dice zone is set with `companion calibrate area LEFT TOP RIGHT BOTTOM`"
        " and shown with `companion calibrate show`",
    )
    raise SystemExit(2)
