"""A question laid over a screen before something is lost for good (a saved game deleted, a typed sheet
left unsaved): `y` answers yes, and the safe answer, no, has the focus, so Enter or Esc right away keeps."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from ..keys import HELP_OVER_MODAL, QUIT_OVER_MODAL
from ..widgets.footer import KeysFooter


def answers(yes: str, no: str) -> list[BindingType]:
    """A question's keys, named in its footer by what each answer does ("delete", "keep")."""
    return [
        Binding("y", "answer(True)", yes),
        Binding("n,escape", "answer(False)", no),
        QUIT_OVER_MODAL,
        HELP_OVER_MODAL,
    ]


class QuestionScreen(ModalScreen[bool]):
    """Dismissed with True for yes, False for no. Each question's subclass binds its answers' keys by what
    they do (`answers`): keys bound here too were those F1 listed ("y yes"), not the footer's ("y delete")."""

    CSS_PATH = "question.tcss"

    def __init__(self, question: str, details: str, yes: str, no: str) -> None:
        super().__init__()
        self.question, self.details, self.yes, self.no = question, details, yes, no

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            # A question names players' games and files, which are no markup.
            yield Static(self.question, id="question", markup=False)
            yield Static(self.details, id="details", markup=False)
            with Horizontal(id="buttons"):
                yield Button(f"{self.yes} (y)", id="yes", variant="error")
                yield Button(f"{self.no} (n)", id="no", variant="primary")
        yield KeysFooter()

    def on_mount(self) -> None:
        self.query_one("#no", Button).focus()

    @on(Button.Pressed)
    def pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)
