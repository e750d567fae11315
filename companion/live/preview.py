"""A camera frame as terminal cells: each cell is '▀' with the upper pixel as ink and the lower as paper.

Half blocks double the vertical resolution and need nothing but a true-colour terminal.
"""

from __future__ import annotations

from collections.abc import Iterator

import cv2
from rich.color import Color
from rich.console import Console, ConsoleOptions
from rich.segment import Segment
from rich.style import Style

from vision.reading import DiceReading, Die, Image

_UPPER_HALF = "▀"
_BOX_BGR = {"yellow": (0, 220, 255), "blue": (255, 140, 0)}
_OTHER_BGR = (60, 255, 60)


class SegmentLines:
    """Rich renderable of ready-made segment lines (a picture in half blocks)."""

    def __init__(self, lines: list[list[Segment]]) -> None:
        self.lines = lines

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> Iterator[Segment]:
        for line in self.lines:
            yield from line
            yield Segment.line()


def _box_bgr(die: Die) -> tuple[int, int, int]:
    return _BOX_BGR.get(die.color, _OTHER_BGR)


def annotate(image: Image, reading: DiceReading) -> Image:
    """A copy of the frame with each die's box drawn in its colour, thick enough to survive shrinking."""
    out = image.copy()
    thickness = max(2, image.shape[1] // 160)
    for die in reading.dice:
        box = die.box
        colour = _box_bgr(die)
        cv2.rectangle(out, (int(box.x0), int(box.y0)), (int(box.x1), int(box.y1)), colour, thickness)
    return out


def fit(image_shape: tuple[int, ...], max_cols: int, max_rows: int) -> tuple[int, int]:
    """The largest (cols, rows) within the limits that keeps the frame's aspect (a cell is 2 pixels tall)."""
    height, width = image_shape[:2]
    cols = max_cols
    rows = round(cols * height / width / 2)
    if rows > max_rows:
        rows = max_rows
        cols = round(rows * 2 * width / height)
    return max(1, cols), max(1, rows)


def half_block_lines(image: Image, cols: int, rows: int) -> list[list[Segment]]:
    """The frame shrunk to cols × rows cells, as lines of Rich segments."""
    small = cv2.resize(image, (cols, rows * 2), interpolation=cv2.INTER_AREA)
    # Plain ints, and one Color per distinct pixel value: made anew for each cell from numpy scalars, Rich's
    # colours took 7-9 ms for 30 × 11 cells on a 2-core laptop CPU, a third of the frame's reading.
    rgb: list[list[list[int]]] = small[:, :, ::-1].tolist()
    colours: dict[tuple[int, ...], Color] = {}

    def colour(pixel: list[int]) -> Color:
        key = tuple(pixel)
        found = colours.get(key)
        if found is None:
            found = colours[key] = Color.from_rgb(*key)
        return found

    return [
        [
            Segment(_UPPER_HALF, Style(color=colour(upper), bgcolor=colour(lower)))
            for upper, lower in zip(rgb[2 * row], rgb[2 * row + 1], strict=True)
        ]
        for row in range(rows)
    ]


def die_label(die: Die) -> str:
    """What the reader made of a die, as short as a cell or three: its value, or its face's first letters."""
    if die.kind == "pip":
        return "?" if die.value is None else str(die.value)
    return (die.face or "?")[:3]


def labelled_lines(image: Image, dice: tuple[Die, ...], cols: int, rows: int) -> list[list[Segment]]:
    """The picture in half blocks with each die's box drawn and the reader's value written at its top, in the
    box's colour, so that a player can compare the dice with what the reader said."""
    lines = half_block_lines(annotate(image, DiceReading(dice, 0.0)), cols, rows)
    height, width = image.shape[:2]
    for die in dice:
        label = die_label(die)
        row = min(rows - 1, max(0, int(die.box.y0 / height * rows)))
        col = min(cols - len(label), max(0, int(die.box.center[0] / width * cols) - len(label) // 2))
        blue, green, red = _box_bgr(die)
        style = Style(color="black", bgcolor=Color.from_rgb(red, green, blue), bold=True)
        for offset, char in enumerate(label[: max(0, cols - col)]):
            lines[row][col + offset] = Segment(char, style)
    return lines
