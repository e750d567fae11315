"""A scorer's text (every number with its reason, indented by what it belongs to) for a panel of any width."""

from __future__ import annotations

from rich.console import Group
from rich.padding import Padding
from rich.text import Text


def reasons(text: str) -> Group:
    """`text` a line at a time, a line too long for the width wrapped under its own start: wrapped as one
    text, its second half ran back to the first column at a phone's width, under the names it was not of."""
    lines = text.splitlines()
    return Group(*(Padding(Text(line.lstrip()), (0, 0, 0, len(line) - len(line.lstrip()))) for line in lines))
