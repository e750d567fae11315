"""The camera panel: a live preview in half-block characters, the dice seen, fps and the reader's state."""

from __future__ import annotations

from typing import ClassVar

from rich.console import Group
from rich.style import Style
from rich.text import Text
from textual.widgets import Static

from companion.live.match import describe_reading
from companion.live.messages import FeedStatus
from companion.live.preview import SegmentLines, annotate, fit, half_block_lines
from vision.reading import DiceReading, Image

from .message_line import ERROR, error_style

_STATE_STYLE = {"rolling": "bold yellow", "settled": "bold green", "starting": "dim"}
"""The states that are no trouble; any other is an error."""


class CameraPanel(Static):
    """Shows what the camera sees; the app feeds it `PreviewFrame` and `StatusChanged` contents."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {ERROR}

    # Beside a game's log; a screen's own rules (a short terminal, a phone, calibration) go over these.
    DEFAULT_CSS = """
    CameraPanel {
        width: 34;
        height: 1fr;
        padding: 0 1;
        border: round $panel;
    }
    """

    def __init__(self, id: str | None = None) -> None:
        super().__init__(id=id)
        self.status = FeedStatus("starting", "", None)
        self.reading = DiceReading((), 0.0)
        self.fps = 0.0
        self.image: Image | None = None

    def on_mount(self) -> None:
        self.show_status(getattr(self.app, "camera_status", self.status))

    def show_frame(self, image: Image, reading: DiceReading, fps: float) -> None:
        self.image, self.reading, self.fps = image, reading, fps
        self._redraw()

    def show_status(self, status: FeedStatus) -> None:
        self.status = status
        self._redraw()

    def on_resize(self) -> None:
        self._redraw()

    def _redraw(self) -> None:
        width = max(8, self.content_region.width or 24)
        rows_left = max(2, (self.content_region.height or 10) - 2)
        trouble = error_style(self)
        status = Text(self.status.state, style=_STATE_STYLE.get(self.status.state, trouble))
        if self.status.detail:
            status.append(f": {self.status.detail}", style=trouble)
        if self.status.retry_in == 0:
            status.append(" (trying again now)", style="dim")
        elif self.status.retry_in is not None:
            # Up to a second: the first retries (0.5 s) read "retry in 0 s".
            retry = f"{self.status.retry_in:.{1 if self.status.retry_in < 1 else 0}f}"
            status.append(f" (retry in {retry} s)", style="dim")
        lines = [status, *_skipped_line(self.status.skipped, trouble)]
        if self.image is None or self.status.state in ("camera lost", "stalled", "stream ended"):
            self.update(Group(*lines, Text("keys still work: type the dice", style="dim")))
            return
        cols, rows = fit(self.image.shape, width, rows_left - len(lines) + 1)
        preview = SegmentLines(half_block_lines(annotate(self.image, self.reading), cols, rows))
        seen = Text(
            f"{describe_reading(self.reading)} · {self.fps:.0f} fps", overflow="ellipsis", no_wrap=True
        )
        self.update(Group(preview, *lines, seen))


def _skipped_line(skipped: tuple[str, ...], style: Style) -> list[Text]:
    """What the camera's source skipped (photos not read, damaged stretches of a video), counted: the log
    names each and says why."""
    if not skipped:
        return []
    said = f"{len(skipped)} not read: see companion.log"
    return [Text(said, style=style, overflow="ellipsis", no_wrap=True)]
