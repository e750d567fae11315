"""A 6×6 grid to type each cell's building letter into: arrows move, a letter sets the cell and moves on."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.binding import Binding, BindingType
from textual.events import Click, Key
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from companion.games import alhambra_rw as rw

from .grid_text import Cell, grid_text

EMPTY = "·"
ROW_LABEL = 4
"""Characters before the first cell on a row (`y1 ` plus the cell's leading space)."""
CELL_WIDTH = 4


class GridEditor(Widget, can_focus=True):
    """Edits `rows` (6 strings of 6 letters, `·` for a cell not entered); posts `GridEditor.Changed`."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "move(-1, 0)", "up", show=False),
        Binding("down", "move(1, 0)", "down", show=False),
        Binding("left", "move(0, -1)", "left", show=False),
        Binding("right", "move(0, 1)", "right", show=False),
        Binding("backspace,delete", "clear_cell", "clear the cell", show=False),
    ]

    cursor: reactive[Cell] = reactive((1, 1))

    class Changed(Message):
        def __init__(self, rows: tuple[str, ...]) -> None:
            super().__init__()
            self.rows = rows

    def __init__(self, rows: tuple[str, ...], id: str | None = None) -> None:
        super().__init__(id=id)
        self.cells = [list(row) for row in rows]

    @property
    def rows(self) -> tuple[str, ...]:
        return tuple("".join(row) for row in self.cells)

    def render(self) -> Text:
        return grid_text(self.rows, cursor=self.cursor if self.has_focus else None)

    def action_move(self, dy: int, db: int) -> None:
        y, b = self.cursor
        self.cursor = ((y - 1 + dy) % 6 + 1, (b - 1 + db) % 6 + 1)

    def _set(self, letter: str) -> None:
        y, b = self.cursor
        self.cells[y - 1][b - 1] = letter
        self.post_message(self.Changed(self.rows))
        self.refresh()

    def action_clear_cell(self) -> None:
        self._set(EMPTY)

    def on_key(self, event: Key) -> None:
        letter = (event.character or "").upper()
        if letter in rw.LETTERS:
            event.stop()
            self._set(letter)
            y, b = self.cursor
            # Move on in reading order, so a row is typed as six letters; the last cell keeps the cursor.
            cell = min((y - 1) * 6 + b, 35)
            self.cursor = (cell // 6 + 1, cell % 6 + 1)

    def on_click(self, event: Click) -> None:
        # Within the border: counted from the widget's edge, a click chose the cell a row below and, just
        # right of a letter, the next one (a click on y1 b1 and `s` set y2 b1).
        at = event.get_content_offset(self)
        if at is None:
            return
        y, b = at.y, (at.x - ROW_LABEL + 1) // CELL_WIDTH + 1
        if 1 <= y <= 6 and 1 <= b <= 6:
            self.cursor = (y, b)

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()
