"""The game log on screen: one line per thing that happened, each wrapped to the log's width with its rest
indented, so that at a phone's width a move is read whole (a cut line hid who scored what)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rich.segment import Segment
from textual.binding import Binding
from textual.events import Resize
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.strip import Strip

from .hanging import hanging_rows

HANG = 2
"""How far in a wrapped line goes on."""
LOG_KEYS = [
    Binding("shift+up", "scroll_log(-1)", "page the game log back", show=False),
    Binding("shift+down", "scroll_log(1)", "page the game log on", show=False),
]
"""The game log's keys on every game's screen, whose action pages its log (`WrappedLog.page`): the log never
takes the focus (the keys stay with the game), and no other key reached its earlier lines. Shifted arrows: no
game screen binds them, and the dice games' entry line uses none."""


class WrappedLog(ScrollView):
    """Lines written to the end, wrapped again whenever the width changes. Written to, it shows its newest
    line; resized, it still shows it unless the player had scrolled back to read."""

    DEFAULT_CSS = """
    WrappedLog {
        background: $surface;
        color: $text;
        overflow-x: hidden;
        overflow-y: scroll;
    }
    """

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._lines: list[str] = []
        self._rows: list[tuple[int, str]] = []
        """Each row on screen: the line it belongs to and its text."""
        self._width = 0
        """The width `_rows` were wrapped at."""
        self._following = True
        """Whether the log is scrolled to its end: a resize keeps it there."""

    @property
    def lines(self) -> Sequence[str]:
        """The lines written, unwrapped."""
        return self._lines

    def write_lines(self, lines: Iterable[str]) -> None:
        start = len(self._lines)
        self._lines += [part for line in lines for part in line.splitlines()]
        for n in range(start, len(self._lines)):
            self._rows += self._wrapped(n)
        self._laid_out(True)

    def show_lines(self, lines: Iterable[str]) -> None:
        """Show `lines` alone. Those it begins with that the log already shows keep their rows: an undo takes
        back only the last lines, and wrapping a long game's whole log again froze the screen for seconds
        (3 s an undo at 10,000 turns)."""
        new = [part for line in lines for part in line.splitlines()]
        shared = min(len(self._lines), len(new))
        kept = next((n for n in range(shared) if self._lines[n] != new[n]), shared)
        del self._lines[kept:]
        while self._rows and self._rows[-1][0] >= kept:
            self._rows.pop()
        self.write_lines(new[kept:])

    def line_at(self, row: int) -> int | None:
        """The line shown on `row` of the log's content (0: its first row, scrolled or not), if any."""
        at = row + round(self.scroll_offset.y)
        return self._rows[at][0] if 0 <= at < len(self._rows) else None

    def page(self, pages: int) -> None:
        """Scroll `pages` views on (back where negative), a view being the rows in sight: none skipped."""
        view = max(1, self.scrollable_content_region.height)
        self.scroll_to(y=self.scroll_y + pages * view, animate=False, immediate=True)

    def on_resize(self, event: Resize) -> None:
        width = self.scrollable_content_region.width
        if width != self._width:
            self._width = width
            self._rows = [row for n in range(len(self._lines)) for row in self._wrapped(n)]
        self._laid_out(self._following)

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        super().watch_scroll_y(old_value, new_value)
        self._following = new_value >= self.max_scroll_y

    def _wrapped(self, n: int) -> list[tuple[int, str]]:
        if self._width < 1:
            return [(n, self._lines[n])]
        return [(n, row) for row in hanging_rows(self.app.console, self._lines[n], self._width, HANG)]

    def _laid_out(self, following: bool) -> None:
        self.virtual_size = Size(self._width, len(self._rows))
        if following:
            self.scroll_end(animate=False, immediate=True, x_axis=False)
        self.refresh()

    def render_line(self, y: int) -> Strip:
        at = y + round(self.scroll_offset.y)
        text = self._rows[at][1] if 0 <= at < len(self._rows) else ""
        style = self.rich_style
        return Strip([Segment(text, style)]).crop_extend(0, self.size.width, style)
