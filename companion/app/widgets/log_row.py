"""A game screen's bottom row: the game log, and beside it what the camera shows where one is set up."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widget import Widget

from .camera_panel import CameraPanel
from .wrapped_log import WrappedLog


def log_row(camera: bool, beside: Widget | None = None, title: str = "") -> ComposeResult:
    """The row (`#bottom`) with the game log (`#log`, not focusable: the keys stay with the game), the
    camera's panel (`#camera`: preview, dice seen, its state) where a `camera` is set up, and `beside` them,
    titled `title`, if given."""
    with Horizontal(id="bottom"):
        log = WrappedLog(id="log")
        log.can_focus = False
        log.border_title = "Game log"
        yield log
        if camera:
            panel = CameraPanel(id="camera")
            panel.border_title = "Camera"
            yield panel
        if beside is not None:
            beside.border_title = title
            yield beside
