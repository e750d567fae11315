"""Every game's end screen: the final scoring with the reason for every number, the winners, and the export
(Markdown and JSON with the same keys in every game); and the panel that shows a scoring held during a game.

A game gives its scoring as `EndScoring` (its totals, winners, text and JSON); Roll & Write's end screen draws
its breakdown as tables with every grid (`RollAndWriteEndScreen`), the others show the scorer's text.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path, PurePath
from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.message import Message
from textual.screen import ModalScreen, Screen
from textual.widget import Widget
from textual.widgets import Static

from companion.games.words import listed
from companion.saved_games import game_stem

from ..export import EndScoring, ExportError, export_scored
from ..keys import ADVICE, BACK, EXPORT, HELP_OVER_MODAL, QUIT_OVER_MODAL
from ..widgets.footer import KeysFooter
from ..widgets.reasons import Reasons
from .help import HelpPage


def totals_table(scored: EndScoring) -> Table:
    table = Table(box=None, padding=(0, 1), header_style="bold")
    table.add_column("player")
    for heading, _ in scored.columns:
        table.add_column(heading, justify="right")
    table.add_column("total", justify="right")
    for name, parts, total in scored.rows():
        # A name as a text: a table's string is read as markup (`[b]Ann` bold, `Ann[/]` a crash).
        shown = Text(scored.shown(name))
        table.add_row(shown, *parts, str(total), style="bold green" if name in scored.winners else "")
    return table


class EndScreen(Screen[None]):
    """Shows a finished game's scoring; back goes to the game (to undo), `n` to the start screen."""

    CSS_PATH: ClassVar[list[str | PurePath]] = ["end.tcss"]
    HELP_PAGE = HelpPage("End screen: the final scoring")
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(EXPORT, "export", "export"),
        # Short labels: at 80 columns the footer must keep the app's quit and help (F1 explains each key).
        Binding("m", "export('md')", "Markdown only", show=False),
        Binding("j", "export('json')", "JSON only", show=False),
        Binding(f"b,{BACK}", "back", "back"),
        Binding("n", "new_game", "new game"),
        Binding("question_mark", "app.help", "help", show=False),
        Binding("q", "app.quit", "quit", show=False),
        # The game screens' advice key, pressed from habit: said, not ignored.
        Binding(ADVICE, "no_advice", "advice: none, the game is over", show=False),
    ]

    class NewGame(Message):
        """Leave the finished game for the start screen."""

    def __init__(self, scored: EndScoring, log_path: Path) -> None:
        super().__init__()
        self.scored = scored
        self.log_path = log_path

    def compose(self) -> ComposeResult:
        # The winners' names (and, below, the paths written) are no markup.
        yield Static(f"Final scoring · {self.scored.winners_line()}", id="winners", markup=False)
        with VerticalScroll(id="breakdown"):
            yield from self.breakdown()
        yield Static(id="message", markup=False)
        yield KeysFooter()

    def breakdown(self) -> Iterable[Widget]:
        """The totals, then the scorer's breakdown: every number with its reason."""
        yield Static(totals_table(self.scored), id="totals")
        yield Static(Reasons(self.scored.why()), id="reasons")

    def markdown(self) -> str:
        return self.scored.markdown(game_stem(self.log_path))

    def action_export(self, kinds: str = "md json") -> None:
        """Write the breakdown as `kinds`: Markdown and JSON, or one of them (`m`, `j`)."""
        try:
            paths = export_scored(self.scored, self.markdown(), self.log_path, kinds.split())
        except ExportError as exc:  # what was written, and why the rest was not
            self.query_one("#message", Static).update(str(exc))
            return
        self.query_one("#message", Static).update(f"written: {listed(paths)}")

    def action_back(self) -> None:
        self.dismiss()

    def action_no_advice(self) -> None:
        self.query_one("#message", Static).update(
            "The game is over: no choice is left to advise on (b goes back to the game, to undo its last"
            " move)"
        )

    def action_new_game(self) -> None:
        self.post_message(self.NewGame())


class ScoringPanel(ModalScreen[None]):
    """A scoring held during the game, every number with its reason, over the game until dismissed."""

    CSS_PATH = "end.tcss"
    HELP_PAGE = HelpPage("A scoring during the game")
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(f"{BACK},enter,space", "dismiss", "back to the game"),
        QUIT_OVER_MODAL,
        HELP_OVER_MODAL,
    ]

    def __init__(self, title: str, text: str) -> None:
        super().__init__()
        self.title_text = title
        self.text = text

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="scoring"):
            # A title names the player whose turn was scored: no markup.
            title = f"{self.title_text} (esc or Enter: back to the game)"
            yield Static(title, id="scoring-title", markup=False)
            yield Static(Reasons(self.text), id="scoring-text")
        yield KeysFooter()
