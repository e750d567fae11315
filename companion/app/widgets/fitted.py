"""The sizes the screens lay themselves out by, and a panel drawn for the width it is given.

The smallest terminal is 80×24; a phone's browser running the table's view (`companion serve`) is 40 to 48
columns wide. Screens (`FittedScreen`) set size classes on every resize (`fit_classes`) and their CSS stacks
or trims panels by them; a panel of text in columns (a board, the score sheet) draws itself again for the
width it gets (`Fitted`), as many columns side by side as fit, the rest below.
"""

from __future__ import annotations

from typing import Generic, TypeVar

from rich.cells import cell_len, set_cell_size
from rich.console import RenderableType
from textual.dom import DOMNode
from textual.events import Resize
from textual.geometry import Size
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Footer, Static

NARROW = 60
"""Below this many columns (a phone) everything stacks in one column and the panels lose their padding."""
SIDE_BY_SIDE = 100
"""From this many columns a board 70 wide and a Now panel fit side by side; below, they stack."""
SHORT = 30
"""Below this many lines (80×24) the screens drop borders and whatever the game can do without."""
UNBOUNDED = 200
"""The width a panel is drawn for before it is laid out."""

T = TypeVar("T")


def fitted_name(name: str, cells: int) -> str:
    """`name` in exactly `cells` terminal columns (李 takes two): padded, or cut keeping its last character
    after "…", so that "Christopher A" and "Christopher B" stay two players."""
    if cell_len(name) <= cells:
        return set_cell_size(name, cells)
    return set_cell_size(f"{set_cell_size(name, cells - 2).rstrip()}…{name[-1]}", cells)


R = TypeVar("R")


def fit_classes(node: DOMNode, size: Size) -> None:
    """Set `-narrow`, `-stacked` and `-short` on `node` (a screen) for a terminal of `size`. Below a roomy
    width its footer drops the spaces around each key (2 a key): a game's keys then fit 80 columns."""
    node.set_class(size.width < NARROW, "-narrow")
    node.set_class(size.width < SIDE_BY_SIDE, "-stacked")
    node.set_class(size.height < SHORT, "-short")
    for footer in node.query(Footer):
        footer.compact = size.width < SIDE_BY_SIDE


class FittedScreen(Screen[R]):
    """A screen laid out by the terminal's size: its CSS reads the classes `fit_classes` sets at each resize
    (a subclass's own `on_resize` runs as well: Textual calls each class's handler)."""

    def on_resize(self, event: Resize) -> None:
        fit_classes(self, event.size)


class Fitted(Static, Generic[T]):
    """A panel that shows a state (`show`) drawn by `draw` for the width it has, drawn again as that changes
    (then it posts `Redrawn`: its height may have changed). Its width must not depend on what it shows (a
    fixed or fr width, never auto)."""

    class Redrawn(Message):
        """The panel was drawn again, perhaps to another height."""

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        # A panel's text holds players' names, which are no markup: `[b]Ann` was drawn bold, `Ann[/]` crashed.
        super().__init__(id=id, classes=classes, markup=False)
        self.shown: T | None = None

    def draw(self, state: T, width: int) -> RenderableType:
        raise NotImplementedError

    def show(self, state: T) -> None:
        self.shown = state
        self._redraw()

    def on_resize(self) -> None:
        # After the layout under way: a layout asked for during it is lost, and the new height with it.
        self.call_after_refresh(self._redraw)

    def _redraw(self) -> None:
        if self.shown is not None:
            self.update(self.draw(self.shown, self.content_size.width or UNBOUNDED))
            self.post_message(self.Redrawn())
