"""A kept camera frame on screen: the dice area in half blocks with the reader's boxes and values drawn over
it, and below it what the reader made of each die; a missing or torn frame says so in its place."""

from __future__ import annotations

from typing import ClassVar

from rich.console import Group, RenderableType
from rich.text import Text
from textual.widgets import Static

from companion.live.frames import ShownFrame
from companion.live.preview import SegmentLines, fit, labelled_lines

from .message_line import ERROR, error_style


def reader_said(shown: ShownFrame) -> str:
    """The reader's dice in words, each with how sure it was: `the reader saw y3 97%, b5 62%`."""
    dice = (f"{d.color[0]}{d.value} " if d.kind == "pip" else f"{d.face} " for d in shown.dice)
    said = ", ".join(f"{name}{d.confidence:.0%}" for name, d in zip(dice, shown.dice, strict=True))
    return f"the reader saw {said or 'no die'}"


class FrameView(Static):
    """Shows one kept frame (`show`), drawn to the size the widget has."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {ERROR}

    def __init__(self, id: str | None = None) -> None:
        super().__init__(id=id)
        self.shown: ShownFrame | None = None
        self.caption = ""

    def show(self, shown: ShownFrame | None, caption: str = "") -> None:
        """Draw `shown` with `caption` above it (None: the move has no frame; the caption says why)."""
        self.shown, self.caption = shown, caption
        self._redraw()

    def on_resize(self) -> None:
        self._redraw()

    def _redraw(self) -> None:
        shown = self.shown
        above = [Text(self.caption, style="bold")] if self.caption else []
        below = [] if shown is None else [self._under_picture(shown)]
        picture: list[RenderableType] = []
        if shown is not None and shown.image is not None:
            width = max(8, self.content_region.width or 40)
            # The words wrap at a phone's width: the picture gets the lines they leave.
            words = sum(len(text.wrap(self.app.console, width)) for text in above + below)
            rows = max(2, (self.content_region.height or 14) - words)
            cols, rows = fit(shown.image.shape, width, rows)
            picture.append(SegmentLines(labelled_lines(shown.image, shown.dice, cols, rows)))
        self.update(Group(*above, *picture, *below))

    def _under_picture(self, shown: ShownFrame) -> Text:
        """What went wrong, if anything, then what the reader saw where that is still known (a torn picture
        keeps the reader's own file: it settles a dispute without the picture)."""
        said = Text(reader_said(shown), style="dim")
        if not shown.problem:
            return said
        problem = Text(shown.problem, style=error_style(self))
        return Text("\n").join([problem, said]) if shown.dice else problem
