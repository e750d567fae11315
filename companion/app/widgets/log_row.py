"""A game screen's bottom row: the game log, and beside it what the camera shows where one is set up."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widget import Widget
from textual.widgets import Log


def log_row(beside: Widget | None, title: str = "") -> ComposeResult:
    """The row (`#bottom`) with the game log (`#log`, not focusable: the keys stay with the game) and
    `beside` it, titled `title`, if given."""
    with Horizontal(id="bottom"):
        log = Log(id="log", auto_scroll=True)
        log.can_focus = False
        log.border_title = "Game log"
        yield log
        if beside is not None:
            beside.border_title = title
            yield beside
