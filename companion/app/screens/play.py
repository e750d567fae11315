"""What every game's screen is to the app: the session it plays, what the camera settles on, and the end.

The app opens a game's screen through the table of games and talks to it only through this base: it hands it
each reading the camera settles on (`table_settled`) or withdraws (`camera_withdrawn`), and the screen posts
`PlayScreen.Finished` when the game is over, with the screen that shows its end (None: it stays on view).
"""

from __future__ import annotations

from typing import Any

from textual.message import Message
from textual.screen import Screen

from companion.games.session import Session
from companion.games.table import entry_of_rules
from vision.reading import DiceReading

from .advice import AdviceScreen


class PlayScreen(Screen[None]):
    """A screen that plays one game's session."""

    class Finished(Message):
        """The game is over: `end` is the screen of its final scoring (None: the game's screen shows it),
        `note` what to tell the players."""

        def __init__(self, session: Session[Any, Any, Any], end: Screen[None] | None, note: str) -> None:
            super().__init__()
            self.session = session
            self.end = end
            self.note = note

    class Leave(Message):
        """Back to the start screen: the game is saved after every move and continued from there."""

    def __init__(self, session: Session[Any, Any, Any]) -> None:
        super().__init__()
        self.session = session

    def on_unmount(self) -> None:
        self.session.close()

    def action_advice(self) -> None:
        """What each choice of the decision now is worth (the panel computes it; it never makes the move)."""
        session = self.session
        self.app.push_screen(
            AdviceScreen(entry_of_rules(session.rules).advice, session.state, lambda: session.state)
        )

    def table_settled(self, reading: DiceReading) -> None:
        """The camera settled on the dice lying on the table (a game that reads no dice ignores it)."""

    def camera_withdrawn(self) -> None:
        """The dice the camera settled on moved again."""
