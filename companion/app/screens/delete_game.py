"""The dialog that asks before a saved game is deleted from the start screen's list: it names the game and
every file that goes with it (all in its folder)."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from textual.binding import BindingType

from jsonfile import printable

from .question import QuestionScreen, answers


class DeleteGameScreen(QuestionScreen):
    """Dismissed with True to delete the game, False to keep it."""

    BINDINGS: ClassVar[list[BindingType]] = answers("delete", "keep")

    def __init__(self, game: str, files: list[Path]) -> None:
        listed = (f"  {_named(f)}" for f in files)
        details = "\n".join(["Its files, beside each other:", *listed])
        super().__init__(f"Delete this game for good?\n{game}", details, "Delete", "Keep")
        self.files = files


def _named(file: Path) -> str:
    """A file's name; a folder's (the camera's frames) with how many frames it holds."""
    if not file.is_dir():
        return printable(file.name)
    return f"{printable(file.name)}/ ({sum(1 for _ in file.glob('*.jpg'))} camera frames)"
