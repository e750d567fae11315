"""The whole table at one moment of a game: the shared score sheet, what each sheet is worth, every grid.

One piece for every read-only look at a game: the table's live view (`companion view`) and the replay of a
finished game.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.cells import cell_len, set_cell_size
from rich.console import Group, RenderableType
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Container, Vertical
from textual.events import Resize
from textual.widgets import Static

from companion.games import alhambra_rw as rw
from companion.games.words import ahead, standing

from .fitted import UNBOUNDED, Fitted, fitted_name
from .grid_text import grid_text, grid_title
from .score_sheet import IMAGINARY_MARK, ScoreSheet

GRID_WIDTH = 31
"""Columns of one player's grid with its border."""

COLUMNS = f"{'bldgs':>5}{'rows+cols':>10}{'coins':>6}{'total':>6}"
"""The sums after each player's name: 27 characters, so a phone's 36 (40 columns less the border and the
scrollbar) leave 9 for the names."""
NAME = 9
"""The name column at the least: `player` and a space, or a cut name, its last letter and the winner's ★."""
WINNER = " ★"
BORDER = 2


@dataclass(frozen=True)
class Worth:
    """What each sheet is worth, and what follows each player's name: ◇ for an imaginary player (as the
    sheet above marks them: "Marc 0" read as a player who lost), ★ for the winners of a game over; and who
    leads or won, in the words of every game's view."""

    board: rw.Scoreboard
    marks: dict[str, str]
    standing: str = ""

    @property
    def name_column(self) -> int:
        """The name column that holds every name whole, its mark and a space after it."""
        return max(NAME, *(cell_len(name + mark) + 1 for name, mark in self.marks.items()))


def worth(state: rw.GameState) -> Worth:
    board = rw.score_so_far(state)
    imaginary = {p.name for p in state.players if p.imaginary}
    # Who can win: the real players, and playing against them the imaginary ones too (as the scoring has it).
    able = ((p.name, p.total) for p in board.players if state.versus_imaginary or not p.imaginary)
    return Worth(
        board,
        {
            p.name: (f" {IMAGINARY_MARK}" if p.name in imaginary else "")
            + (WINNER if state.is_over and p.name in board.winners else "")
            for p in board.players
        },
        standing(board.winners if state.is_over else ahead(able), state.is_over),
    )


def scores_text(shown: Worth, width: int = UNBOUNDED) -> Text:
    """A line per player: the sums and the total (★ the winners), the names as long as `width` lets them be
    (cut keeping their last letter: "Christopher A" and "Christopher B" stay two)."""
    name_width = max(NAME, min(shown.name_column, width - len(COLUMNS)))
    text = Text(no_wrap=True)
    text.append(f"{'player':<{name_width}}{COLUMNS}", style="bold")
    for p in shown.board.players:
        mark = shown.marks[p.name]
        room = name_width - 1 - cell_len(mark)
        name = set_cell_size(fitted_name(p.name, min(cell_len(p.name), room)) + mark, name_width - 1)
        text.append(f"\n{name} {p.buildings_vp:>5}{p.rows_columns:>10}{p.coins:>6}{p.total:>6}")
    extra = {p.extra for p in shown.board.players if p.extra}
    if extra:
        # Playing against them, the imaginary players' extra points are in their totals: said under the
        # table, as a phone's 36 characters hold no sixth column (a total was more than its row's sum).
        text.append(f"\nimaginary players +{max(extra)} extra each")
    return text


class Scores(Fitted[Worth]):
    """What each sheet is worth, drawn again for the width it gets: as wide as the longest name asks, or as
    the screen lets it be (the names cut then). The game is scored once a state, not at every draw."""

    def show(self, state: Worth) -> None:
        # Its width follows the names alone, never the text drawn for it: a narrow draw cannot keep it narrow.
        self.styles.width = state.name_column + len(COLUMNS) + BORDER
        super().show(state)

    def draw(self, state: Worth, width: int) -> RenderableType:
        scores = scores_text(state, width)
        # Under the columns, wrapped at the width: a long name's "Winners: ..." is not cut.
        return Group(scores, Text(state.standing)) if state.standing else scores


class TablePanel(Vertical):
    """Shows a game state: `show(state)`."""

    DEFAULT_CSS = """
    TablePanel { height: auto; }
    TablePanel #sheet, TablePanel #scores, TablePanel .grid { border: round $primary; height: auto; }
    TablePanel #scores { max-width: 100%; }
    TablePanel #grids { layout: grid; grid-size: 3; grid-columns: 31; height: auto; }
    """

    def compose(self) -> ComposeResult:
        yield ScoreSheet(id="sheet")
        yield Scores(id="scores")
        yield Container(id="grids")

    def on_mount(self) -> None:
        self.query_one("#sheet").border_title = "Score sheet"

    def on_resize(self, event: Resize) -> None:
        """As many grids side by side as the width holds (three at 100 columns, one on a phone)."""
        grids = self.query_one("#grids", Container)
        grids.styles.grid_size_columns = max(1, min(3, event.size.width // GRID_WIDTH))

    def show(self, state: rw.GameState) -> None:
        self.query_one("#sheet", ScoreSheet).show(state)
        scores = self.query_one(Scores)
        scores.show(worth(state))
        scores.border_title = "Final scoring" if state.is_over else "Worth so far"
        # Once the game is over its final scoring comes first: a phone's first screen showed the sheet alone.
        sheet = self.query_one("#sheet", ScoreSheet)
        if state.is_over:
            self.move_child(scores, before=sheet)
        else:
            self.move_child(scores, after=sheet)
        grids = self.query_one("#grids", Container)
        real = [p for p in state.players if not p.imaginary]
        shown = list(grids.query(Static))
        if len(shown) != len(real):
            grids.remove_children()
            shown = [Static(classes="grid") for _ in real]
            grids.mount_all(shown)
        for widget, player in zip(shown, real, strict=True):
            widget.update(grid_text(state.sheet.grid, player.crossed_cells()))
            widget.border_title = grid_title(player.name)
