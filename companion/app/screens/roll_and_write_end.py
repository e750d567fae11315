"""The end screen: final scoring with the reason for every number, the winners, and export."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Container, VerticalScroll
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Footer, Static

from companion.games import alhambra_rw as rw

from ..export import TERMS, export_scoreboard
from ..widgets.grid_text import grid_text

SHORT = {
    "pavilion": "pav",
    "seraglio": "ser",
    "arcades": "arc",
    "chambers": "cha",
    "garden": "gar",
    "tower": "tow",
}


def totals_table(board: rw.Scoreboard) -> Table:
    table = Table(box=None, padding=(0, 1), header_style="bold")
    table.add_column("player")
    for building in rw.BUILDING_TYPES:
        table.add_column(SHORT[building], justify="right")
    for column in ("rows/cols", "coins", "extra", "total"):
        table.add_column(column, justify="right")
    for p in board.players:
        name = f"{p.name} ◇" if p.imaginary else p.name
        style = "bold green" if p.name in board.winners else ""
        numbers = [*(b.vp for b in p.buildings), p.rows_columns, p.coins, p.extra]
        table.add_row(name, *map(str, numbers), Text(str(p.total), style="bold"), style=style)
    return table


def reasons_table(board: rw.Scoreboard) -> Table:
    """Every number of the breakdown with its reason; long reasons wrap inside their column."""
    table = Table(box=None, padding=(0, 1), show_header=False, expand=True)
    table.add_column(no_wrap=True)
    table.add_column(justify="right", no_wrap=True)
    table.add_column(ratio=1)
    for p in board.players:
        table.add_row(Text(f"{p.name}{' (imaginary)' if p.imaginary else ''}: {p.total} VP", style="bold"))
        for b in p.buildings:
            table.add_row(f"  {b.building}", str(b.vp), b.why)
        table.add_row("  rows/cols", str(p.rows_columns), p.rows_columns_why)
        table.add_row("  coins", str(p.coins), p.coins_why)
        if p.extra_why:
            table.add_row("  extra", str(p.extra), p.extra_why)
    return table


GRID_COLUMNS = 31
"""A grid's width with its border (`grid-columns` in end.tcss)."""


class RollAndWriteEndScreen(Screen[None]):
    """Shows `score_game` of a finished game; `b` goes back to the game (to undo), `n` to the start."""

    CSS_PATH = "roll_and_write_end.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        # Short labels: at 80 columns the footer must keep the app's quit and help (F1 explains each key).
        Binding("m", "export('md')", "Markdown"),
        Binding("j", "export('json')", "JSON"),
        Binding("g", "grids", "every grid"),
        Binding("b", "back", "back"),
        Binding("n", "new_game", "new game"),
        Binding("question_mark", "app.help", "help", show=False),
        Binding("q", "app.quit", "quit", show=False),
    ]

    class NewGame(Message):
        """Leave the finished game for the start screen."""

    def __init__(self, state: rw.GameState, log_path: Path) -> None:
        super().__init__()
        self.state = state
        self.board = rw.score_game(state)
        self.log_path = log_path

    def compose(self) -> ComposeResult:
        winners = ", ".join(self.board.winners)
        label = "Winners" if len(self.board.winners) > 1 else "Winner"
        yield Static(f"Final scoring · {label}: {winners}", id="winners")
        with VerticalScroll(id="breakdown"):
            yield Static(totals_table(self.board), id="totals")
            yield Static(Text(TERMS), id="terms")
            yield Static(reasons_table(self.board), id="reasons")
            with Container(id="grids"):
                for player in self.state.players:
                    if not player.imaginary:
                        grid = Static(
                            grid_text(self.state.sheet.grid, player.crossed_cells()), classes="grid"
                        )
                        grid.border_title = f"{player.name}'s grid"
                        yield grid
        yield Static(id="message")
        yield Footer()

    def action_export(self, kind: str) -> None:
        try:
            path = export_scoreboard(self.board, self.log_path, kind, self.state)
        except OSError as exc:
            self.query_one("#message", Static).update(f"cannot write the breakdown: {exc}")
            return
        self.query_one("#message", Static).update(f"written: {path}")

    def on_resize(self, event: events.Resize) -> None:
        # Three grids side by side need 93 columns: a narrower terminal stacks them so each stays whole.
        columns = max(1, min(3, (event.size.width - 2) // GRID_COLUMNS))
        self.query_one("#grids").styles.grid_size_columns = columns

    def action_grids(self) -> None:
        self.query_one("#grids").scroll_visible(top=True, animate=False)

    def action_back(self) -> None:
        self.dismiss()

    def action_new_game(self) -> None:
        self.post_message(self.NewGame())
