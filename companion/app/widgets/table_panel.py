"""The whole table at one moment of a game: the shared score sheet, what each sheet is worth, every grid.

One piece for every read-only look at a game: the table's live view (`companion view`) and the replay of a
finished game.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Container, Vertical
from textual.events import Resize
from textual.widgets import Static

from companion.games import alhambra_rw as rw

from .grid_text import grid_text
from .score_sheet import ScoreSheet

GRID_WIDTH = 31
"""Columns of one player's grid with its border."""


def scores_text(state: rw.GameState) -> Text:
    board = rw.score_game(state) if state.is_over else rw.score_so_far(state)
    text = Text(no_wrap=True)
    # 36 characters: a phone's 40 columns, less the border and the view's padding (38 wrapped each line).
    text.append(f"{'player':<9}{'bldgs':>5}{'rows+cols':>10}{'coins':>6}{'total':>6}", style="bold")
    for p in board.players:
        name = f"{p.name[:6]} ★" if state.is_over and p.name in board.winners else p.name[:8]
        text.append(f"\n{name:<9}{p.buildings_vp:>5}{p.rows_columns:>10}{p.coins:>6}{p.total:>6}")
    extra = {p.extra for p in board.players if p.extra}
    if extra:
        # Playing against them, the imaginary players' extra points are in their totals: said under the
        # table, as a phone's 36 characters hold no sixth column (a total was more than its row's sum).
        text.append(f"\nimaginary players +{max(extra)} extra each")
    return text


class TablePanel(Vertical):
    """Shows a game state: `show(state)`."""

    DEFAULT_CSS = """
    TablePanel { height: auto; }
    TablePanel #sheet, TablePanel #scores, TablePanel .grid { border: round $primary; height: auto; }
    TablePanel #scores { width: 42; max-width: 100%; }
    TablePanel #grids { layout: grid; grid-size: 3; grid-columns: 31; height: auto; }
    """

    def compose(self) -> ComposeResult:
        yield ScoreSheet(id="sheet")
        yield Static(id="scores")
        yield Container(id="grids")

    def on_mount(self) -> None:
        self.query_one("#sheet").border_title = "Score sheet"

    def on_resize(self, event: Resize) -> None:
        """As many grids side by side as the width holds (three at 100 columns, one on a phone)."""
        grids = self.query_one("#grids", Container)
        grids.styles.grid_size_columns = max(1, min(3, event.size.width // GRID_WIDTH))

    def show(self, state: rw.GameState) -> None:
        self.query_one("#sheet", ScoreSheet).show(state)
        scores = self.query_one("#scores", Static)
        scores.update(scores_text(state))
        scores.border_title = "Final scoring" if state.is_over else "Worth so far"
        grids = self.query_one("#grids", Container)
        real = [p for p in state.players if not p.imaginary]
        shown = list(grids.query(Static))
        if len(shown) != len(real):
            grids.remove_children()
            shown = [Static(classes="grid") for _ in real]
            grids.mount_all(shown)
        for widget, player in zip(shown, real, strict=True):
            widget.update(grid_text(state.sheet.grid, player.crossed_cells()))
            widget.border_title = f"{player.name}'s grid"
