"""The advice panel (ctrl+a on every game's screen, `h` where no entry line takes letters): each choice of the
decision in front of the player with what the engine's playouts say it is worth, best first.

The playouts run on a worker thread for about a second; closing the panel or the game moving on (a camera
reading entered meanwhile) stops them. The panel only shows: the players make the move themselves.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static
from textual.worker import get_current_worker

from companion.games.advice import SECONDS, Advice, Advising, advise

from ..keys import ADVICE, HELP_OVER_MODAL, QUIT_OVER_MODAL
from ..widgets.fitted import Fitted
from ..widgets.footer import KeysFooter

NONE_TO_ADVISE = "no decisions to advise: this game is a score pad"


TABLE_WIDTH = 60
"""Narrower than this (a phone), each choice is two lines, its words and then its figures: a table's columns
would cut the words to a few letters."""


class AdviceTable(Fitted[Advice]):
    """The choices best first, as a table where it fits."""

    def draw(self, state: Advice, width: int) -> RenderableType:
        return advice_table(state) if width >= TABLE_WIDTH else advice_lines(state)


def advice_lines(advice: Advice) -> Table:
    """The choices best first, two lines each: the words, then score ± spread, chance to win, playouts; a
    grid, so that a row they wrap to goes on under them (wrapped as one text, at 40 columns it went back
    under the choice's number)."""
    table = Table.grid(padding=(0, 0, 0, 2))
    table.add_column(justify="right", style="bold cyan")
    table.add_column()
    for n, e in enumerate(advice.estimates, start=1):
        figures = f"score {e.score:.1f} ±{e.spread:.1f} · win {win_text(e.win)} · {e.playouts} playouts"
        table.add_row(str(n), Text(e.words))
        table.add_row("", Text(figures, "dim"))
    return table


def advice_table(advice: Advice) -> Table:
    """The choices best first: expected final score ± its spread, chance to win, playouts."""
    table = Table(box=None, padding=(0, 1), show_edge=False)
    table.add_column("", justify="right", style="bold cyan")
    table.add_column("choice")
    table.add_column("score", justify="right")
    table.add_column("±", justify="right", style="dim")
    table.add_column("win", justify="right")
    table.add_column("playouts", justify="right", style="dim")
    for n, e in enumerate(advice.estimates, start=1):
        # A text: a choice may name a player ("pass y3 b5 to Ann"), and a table's string is read as markup.
        words = Text(e.words)
        table.add_row(str(n), words, f"{e.score:.1f}", f"{e.spread:.1f}", win_text(e.win), str(e.playouts))
    return table


def win_text(win: float) -> str:
    """The chance to win in whole percent; a choice that lost or won only now and then shows so (399 wins of
    400 rounded to 100% read as a sure win beside choices that won every game)."""
    percent = round(win * 100)
    if 0 < win < 1 and percent in (0, 100):
        return "<1%" if percent == 0 else ">99%"
    return f"{percent}%"


class AdviceScreen(ModalScreen[None]):
    """What each choice now is worth to the player to move, computed when the panel opens."""

    CSS_PATH = "advice.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(f"escape,h,{ADVICE}", "dismiss", "close advice"),
        QUIT_OVER_MODAL,
        HELP_OVER_MODAL,
    ]

    def __init__(
        self,
        advising: Advising[Any, Any] | None,
        state: object,
        now: Callable[[], object],
        waiting: str = "",
    ) -> None:
        """`state`: the game to advise on; `now`: the game's state as it stands (advice stops once it is
        another); `waiting`: what the players do before there is a decision to advise on that the game
        cannot know of (confirm the camera's dice), '' if nothing."""
        super().__init__()
        self.advising = advising
        self.state = state
        self.now = now
        self.waiting = waiting
        self.advice: Advice | None = None

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="advice"):
            yield Static("Advice (esc closes; it never makes a move)", id="advice-title")
            yield Static(f"thinking: playing the game out (about {SECONDS:.0f} s) …", id="advice-body")
        yield KeysFooter()

    def on_mount(self) -> None:
        if self.advising is None:
            self.query_one("#advice-body", Static).update(NONE_TO_ADVISE)
            return
        if self.waiting:
            self.query_one("#advice-body", Static).update(Text(f"nothing to advise now: {self.waiting}"))
            return
        self.run_worker(self._advise, thread=True, exclusive=True, group="advice")

    def on_unmount(self) -> None:
        self.workers.cancel_group(self, "advice")

    def _advise(self) -> None:
        assert self.advising is not None
        worker = get_current_worker()
        decision = self.advising.decision(self.state)
        advice = advise(decision, stop=lambda: worker.is_cancelled or self.now() is not self.state)
        if not worker.is_cancelled:
            self.app.call_from_thread(self._show, advice)

    def _show(self, advice: Advice) -> None:
        self.advice = advice
        body = self.query_one("#advice-body", Static)
        if self.now() is not self.state:
            body.update("the game moved on while the advice was computed: ask again")
        elif advice.note:
            body.update(Text(f"nothing to advise now: {advice.note}"))
        else:
            best = "the likeliest win first" if advice.by_win else "the best expected score first"
            title = Text(f"{advice.player}: each choice, {best}, from {advice.playouts} playouts\n", "bold")
            title.append(
                # One paragraph, wrapped to the panel's width (a phone's is half an 80-column one).
                f"score: {advice.player}'s expected final score (± its spread); win: the chance to win; "
                "each game played out with random dice, every later choice made by the engine's random "
                "player",
                "italic",
            )
            body.update(title)
            table = AdviceTable(id="advice-table")
            panel = self.query_one("#advice", VerticalScroll)
            panel.mount(table)
            table.show(advice)
            if advice.unadvised:
                panel.mount(Static(Text(f"not advised: {advice.unadvised}", "italic"), id="advice-unadvised"))
