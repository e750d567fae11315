"""The dialog that asks before a saved game is deleted from the start screen's list: it names the game and
every file that goes with it (all in its folder)."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from jsonfile import printable

from ..keys import HELP_OVER_MODAL


class DeleteGameScreen(ModalScreen[bool]):
    """Dismissed with True to delete the game, False to keep it."""

    CSS_PATH = "delete_game.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", "delete"),
        Binding("n,escape", "answer(False)", "keep"),
        HELP_OVER_MODAL,
    ]

    def __init__(self, game: str, files: list[Path]) -> None:
        super().__init__()
        self.game = game
        self.files = files

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(f"Delete this game for good?\n{self.game}", id="question")
            listed = (f"  {_named(f)}" for f in self.files)
            yield Static("\n".join(["Its files, beside each other:", *listed]), id="files")
            with Horizontal(id="buttons"):
                yield Button("Delete (y)", id="delete", variant="error")
                yield Button("Keep (n)", id="keep", variant="primary")

    def on_mount(self) -> None:
        # Keeping is the safe answer: Enter right away keeps the game.
        self.query_one("#keep", Button).focus()

    @on(Button.Pressed)
    def pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "delete")

    def action_answer(self, delete: bool) -> None:
        self.dismiss(delete)


def _named(file: Path) -> str:
    """A file's name; a folder's (the camera's frames) with how many frames it holds."""
    if not file.is_dir():
        return printable(file.name)
    return f"{printable(file.name)}/ ({sum(1 for _ in file.glob('*.jpg'))} camera frames)"
