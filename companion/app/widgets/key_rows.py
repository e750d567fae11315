"""Rows of a key (or a term) and what it does, for a panel of any width: side by side where the words get
room, else each key on a line of its own with its words under it (at a phone's width the words beside the
keys had 15 columns, a word or two a line)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from rich.console import Console, ConsoleOptions, RenderableType
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from .hanging import hanging_rows

WORDS_ROOM = 30
"""The narrowest column of words kept beside the keys."""

KEY_STYLE = "bold cyan"


class KeyRows:
    """`rows` of (key, words); a key is console markup (a heading row has no words)."""

    def __init__(self, rows: Sequence[tuple[str, str]]) -> None:
        self.rows = [(Text.from_markup(key, style=KEY_STYLE), words) for key, words in rows]
        self.key_width = max((key.cell_len for key, _ in self.rows), default=0)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> Iterator[RenderableType]:
        width = options.max_width
        if width - self.key_width - 2 >= WORDS_ROOM:
            table = Table(box=None, padding=(0, 2), show_header=False)
            table.add_column(no_wrap=True)
            table.add_column()
            for key, words in self.rows:
                table.add_row(key, Text(words))
            yield table
            return
        for key, words in self.rows:
            yield key
            for row in hanging_rows(console, "  " + words, width, 2) if words else ():
                yield Text(row, no_wrap=True)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        longest = max((len(words) for _, words in self.rows), default=0)
        return Measurement(min(WORDS_ROOM, self.key_width), self.key_width + 2 + longest)
