"""How wide a text is on a terminal, in cells: a table of players' names lines up only when each name is
padded to its width on screen, which `len` and `str.ljust` miss (李 takes two cells, the accent of
"e" + U+0301 none)."""

from __future__ import annotations

import unicodedata

_NO_CELL = frozenset({"Mn", "Me", "Cf"})
"""Categories drawn on the character before them (a combining accent) or not drawn (a joiner)."""


def cells(text: str) -> int:
    """The cells `text` takes on a terminal: two for a wide character (CJK, most emoji), none for a mark."""
    return sum(_cells(char) for char in text)


def _cells(char: str) -> int:
    if unicodedata.category(char) in _NO_CELL:
        return 0
    return 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1


def padded(text: str, width: int) -> str:
    """`text` with spaces after it up to `width` cells, as `str.ljust` pads to `width` characters."""
    return text + " " * (width - cells(text))
