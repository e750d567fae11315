"""Wrapping with a hanging indent: a line's rest goes on further in than the line starts, so a wrapped line
never reads as a line of its own."""

from __future__ import annotations

from rich.console import Console
from rich.text import Text


def hanging_rows(console: Console, line: str, width: int, hang: int) -> list[str]:
    """`line` wrapped at `width` cells, word by word where it can: its first row where it starts, every
    further row `hang` cells in."""
    start = len(line) - len(line.lstrip())
    words = line.lstrip()
    first = Text(words).wrap(console, max(width - start, 1))[0].plain.rstrip()
    rows = [" " * start + first]
    rest = words[len(first) :].lstrip()
    if rest:
        rows += [" " * hang + part.plain.rstrip() for part in Text(rest).wrap(console, max(width - hang, 1))]
    return rows
