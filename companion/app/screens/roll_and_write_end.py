"""Roll & Write's end screen: every game's end screen (`EndScreen`: the winners, back, new game, export) with
the final scoring drawn as tables, every number with its reason, and every real player's grid; and the same
written as Markdown for the export (`scoreboard_markdown`)."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path, PurePath
from typing import ClassVar

from rich.console import Console, Group
from rich.table import Table
from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.containers import Container
from textual.widget import Widget
from textual.widgets import Static

from companion.games import alhambra_rw as rw
from companion.games.alhambra_rw.entry import ENTRY
from companion.games.alhambra_rw.report import scoreboard_text
from companion.games.words import standing

from ..export import EndScoring, md
from ..widgets.fitted import UNBOUNDED, Fitted
from ..widgets.grid_text import grid_text, grid_title
from .end import EndScreen

TERMS = (
    "VP 1/2/3: what the most, second and third most buildings of a type are worth ([in brackets],"
    " struck out: places taken during the game) · ◇ imaginary player · rows/cols: a row or column with 4,"
    " 5 or 6 crossed cells gives 2, 5 or 10 VP · coins: 1 VP per 2 coins left · [P] a crossed cell"
)
"""What the final scoring's short terms mean, shown beside it and written into the Markdown."""


def grid_markdown(state: rw.GameState, player: rw.PlayerState) -> list[str]:
    """A player's grid as a fenced block: the building letter of each cell, crossed cells in brackets."""
    crossed = set(player.crossed_cells())
    rows = ["     " + "".join(f" b{b} " for b in range(1, 7))]
    for y in range(1, 7):
        cells = (
            f"[{letter}]" if (y, b) in crossed else f" {letter} "
            for b, letter in enumerate(state.sheet.grid[y - 1], start=1)
        )
        rows.append(f"y{y}   " + " ".join(cells))
    return [f"### {md(player.name)}'s grid", "", "```text", *rows, "```", ""]


def markdown_title(stem: str) -> str:
    """The exported Markdown's title: the game's, and which game (its log's name)."""
    return f"{ENTRY.title}: {stem}"


def scoreboard_markdown(board: rw.Scoreboard, title: str, state: rw.GameState | None = None) -> str:
    """A table of the numbers, the winners, the reason for every number, and every real player's grid."""
    headers = ["player", *rw.BUILDING_TYPES, "rows/columns", "coins", "extra", "total"]
    lines = [
        f"# {title}",
        "",
        f"Sheet `{board.sheet}`, variant {board.variant}.",
        "",
        "| " + " | ".join(headers) + " |",
        "|" + "|".join(["---"] + ["---:"] * (len(headers) - 1)) + "|",
    ]
    for p in board.players:
        name = md(f"{p.name} (imaginary)" if p.imaginary else p.name)
        numbers = [*(b.vp for b in p.buildings), p.rows_columns, p.coins, p.extra, p.total]
        lines.append("| " + " | ".join([name, *map(str, numbers)]) + " |")
    lines += [
        "",
        f"**{md(standing(board.winners, over=True) or 'no winner yet')}**",
        "",
        TERMS,
        "",
        "## Why",
    ]
    for p in board.players:
        lines += ["", f"### {md(p.name)}{' (imaginary)' if p.imaginary else ''}: {p.total} VP", ""]
        # The reasons name players ("tied with Ann"): escaped as the names above are.
        lines += [f"- {b.building}: {b.vp} VP: {md(b.why)}" for b in p.buildings]
        lines.append(f"- rows and columns: {p.rows_columns} VP: {md(p.rows_columns_why)}")
        lines.append(f"- coins: {p.coins} VP: {md(p.coins_why)}")
        if p.extra_why:
            lines.append(f"- extra: {p.extra} VP: {md(p.extra_why)}")
    if state is not None:
        lines += ["", "## Grids", ""]
        for player in state.players:
            if not player.imaginary:
                lines += grid_markdown(state, player)
    return "\n".join(lines).rstrip() + "\n"


SHORT = {
    "pavilion": "pav",
    "seraglio": "ser",
    "arcades": "arc",
    "chambers": "cha",
    "garden": "gar",
    "tower": "tow",
}


PARTS = (*(SHORT[building] for building in rw.BUILDING_TYPES), "rows/cols", "coins", "extra")
"""The totals' parts, in the order `parts` gives a player's."""


def parts(p: rw.PlayerScore) -> list[str]:
    return [str(n) for n in (*(b.vp for b in p.buildings), p.rows_columns, p.coins, p.extra)]


def shown_name(p: rw.PlayerScore) -> Text:
    # A text: a table's string is read as markup, and a player named `[b]Ann` was bold, `Ann[/]` crashed.
    return Text(f"{p.name} ◇" if p.imaginary else p.name)


def totals_table(board: rw.Scoreboard) -> Table:
    table = Table(box=None, padding=(0, 1), header_style="bold")
    table.add_column("player")
    for column in (*PARTS, "total"):
        table.add_column(column, justify="right")
    for p in board.players:
        style = "bold green" if p.name in board.winners else ""
        table.add_row(shown_name(p), *parts(p), Text(str(p.total), style="bold"), style=style)
    return table


def totals_by_column(board: rw.Scoreboard) -> Table:
    """The totals turned: a column a player, a line a building type and sum (for a phone's width)."""
    table = Table(box=None, padding=(0, 1), header_style="bold")
    table.add_column("")
    for p in board.players:
        style = "bold green" if p.name in board.winners else ""
        table.add_column(shown_name(p), justify="right", style=style)
    for part, numbers in zip(PARTS, zip(*(parts(p) for p in board.players), strict=True), strict=True):
        table.add_row(part, *numbers)
    table.add_row(Text("total", style="bold"), *(Text(str(p.total), style="bold") for p in board.players))
    return table


class Totals(Fitted[rw.Scoreboard]):
    """The totals a line a player where that fits, else turned a column a player: at a phone's width the
    eleven columns were each cut to "…"."""

    def draw(self, state: rw.Scoreboard, width: int) -> Table:
        wide = totals_table(state)
        return wide if Console(width=UNBOUNDED).measure(wide).maximum <= width else totals_by_column(state)


def reasons_table(board: rw.Scoreboard) -> Group:
    """Every number of the breakdown with its reason; long reasons wrap inside their column. Each player's
    heading stands on a line of its own: in the label column, a long name's took the reasons' width (at a
    phone's 40 columns they wrapped 7 characters a line)."""
    parts: list[Text | Table] = []
    for p in board.players:
        parts.append(Text(f"{p.name}{' (imaginary)' if p.imaginary else ''}: {p.total} VP", style="bold"))
        table = Table(box=None, padding=(0, 1), show_header=False, expand=True)
        table.add_column(no_wrap=True, width=len("  rows/cols"))
        table.add_column(justify="right", no_wrap=True, width=3)
        # Folded, never cut: a column's "…" took a wide name's line ("tied with 李小龍: … = 1…", the VP lost),
        # as rich strips the space a line ends in by its characters, and a wide character is two columns.
        table.add_column(ratio=1, overflow="fold")
        # The reasons name players ("tied with Ann"): texts, never read as markup.
        for b in p.buildings:
            table.add_row(f"  {b.building}", str(b.vp), Text(b.why))
        table.add_row("  rows/cols", str(p.rows_columns), Text(p.rows_columns_why))
        table.add_row("  coins", str(p.coins), Text(p.coins_why))
        if p.extra_why:
            table.add_row("  extra", str(p.extra), Text(p.extra_why))
        parts.append(table)
    return Group(*parts)


GRID_COLUMNS = 31
"""A grid's width with its border (`grid-columns` in end.tcss)."""


def roll_and_write_scored(board: rw.Scoreboard, finished: bool) -> EndScoring:
    return EndScoring(
        ENTRY.id,
        ENTRY.title,
        finished,
        tuple((p.name, p.total) for p in board.players),
        board.winners,
        scoreboard_text(board),
        board.to_json(),
        frozenset(p.name for p in board.players if p.imaginary),
    )


class RollAndWriteEndScreen(EndScreen):
    """Shows `score_game` of a finished game; `g` scrolls to every grid."""

    CSS_PATH: ClassVar[list[str | PurePath]] = ["end.tcss", "roll_and_write_end.tcss"]
    BINDINGS: ClassVar[list[BindingType]] = [Binding("g", "grids", "every grid")]

    def __init__(self, state: rw.GameState, log_path: Path) -> None:
        self.state = state
        self.board = rw.score_game(state)
        super().__init__(roll_and_write_scored(self.board, True), log_path)

    def breakdown(self) -> Iterable[Widget]:
        totals = Totals(id="totals")
        totals.show(self.board)
        yield totals
        yield Static(Text(TERMS), id="terms")
        yield Static(reasons_table(self.board), id="reasons")
        with Container(id="grids"):
            for player in self.state.players:
                if not player.imaginary:
                    grid = Static(grid_text(self.state.sheet.grid, player.crossed_cells()), classes="grid")
                    grid.border_title = grid_title(player.name)
                    yield grid

    def markdown(self) -> str:
        return scoreboard_markdown(self.board, markdown_title(self.log_path.stem), self.state)

    def on_resize(self, event: events.Resize) -> None:
        # Three grids side by side need 93 columns: a narrower terminal stacks them so each stays whole.
        columns = max(1, min(3, (event.size.width - 2) // GRID_COLUMNS))
        self.query_one("#grids").styles.grid_size_columns = columns

    def action_grids(self) -> None:
        self.query_one("#grids").scroll_visible(top=True, animate=False)
