"""A scorer's text (every number with its reason, indented by what it belongs to) for a panel of any width."""

from __future__ import annotations

import re
from collections.abc import Iterator

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions
from rich.measure import Measurement
from rich.text import Text

from .hanging import hanging_rows

REASON_COLUMN = re.compile(r"^\s*\S.*?\d  (?=\S)")
"""A scorer's row: what is scored, its number right-aligned, two spaces, then the number's reason."""

REASON_ROOM = 24
"""The narrowest reason column kept under its heading: narrower, a wrapped reason reads a word a line."""


def hang(line: str, width: int) -> int:
    """Where `line`'s wrapped rest starts at `width`: a row's reason under its reason (at a phone's width two
    past the row's start, under none of the labels), any other line under itself."""
    start = len(line) - len(line.lstrip())
    row = REASON_COLUMN.match(line)
    if row is None:
        return start
    return row.end() if width - row.end() >= REASON_ROOM else start + 2


class Reasons:
    """`text` a line at a time, each line too long for the width wrapped under where it belongs: wrapped as
    one text, a reason's rest ran back to the first column, under the names it was not of; wrapped under
    its own start, under the labels beside it."""

    def __init__(self, text: str) -> None:
        self.lines = text.splitlines()

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> Iterator[Text]:
        width = options.max_width
        for line in self.lines:
            for row in hanging_rows(console, line, width, hang(line, width)):
                yield Text(row, no_wrap=True)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        longest = max((cell_len(line.rstrip()) for line in self.lines), default=0)
        return Measurement(min(REASON_ROOM, longest), longest)
