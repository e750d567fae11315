"""The `companion` Textual app: start screen -> game screen -> end screen, with help and a sheet editor."""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import ClassVar

from textual.app import App
from textual.binding import Binding, BindingType

from . import paths
from .dice_input import DiceEntered, DiceSource, PipDie
from .screens.end import EndScreen
from .screens.game import GameScreen
from .screens.help import HelpScreen
from .screens.start import StartScreen


class CompanionApp(App[None]):
    """The table companion for Alhambra Roll & Write.

    `rng` makes the virtual rolls (seed it for a reproducible game); `now` dates new games; the folders
    default to the XDG config and data directories.
    """

    CSS_PATH = "app.tcss"
    TITLE = "Table companion: Alhambra Roll & Write"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f1", "help", "help"),
        Binding("ctrl+q", "quit", "quit", priority=True),
    ]

    def __init__(
        self,
        rng: random.Random | None = None,
        now: Callable[[], datetime] = datetime.now,
        games_dir: Path | None = None,
        sheets_dir: Path | None = None,
        auto_imaginary: bool = True,
    ) -> None:
        super().__init__()
        self.rng = rng or random.Random()
        self.now = now
        self.games_dir = games_dir or paths.games_dir()
        self.sheets_dir = sheets_dir or paths.sheets_dir()
        self.auto_imaginary = auto_imaginary

    def on_mount(self) -> None:
        self.push_screen(self._start_screen())

    def _start_screen(self) -> StartScreen:
        return StartScreen(self.games_dir, self.sheets_dir, self.now)

    def on_start_screen_game_opened(self, message: StartScreen.GameOpened) -> None:
        self.switch_screen(GameScreen(message.session, self.rng, self.auto_imaginary))

    def on_game_screen_finished(self, message: GameScreen.Finished) -> None:
        if not isinstance(self.screen, EndScreen):
            self.push_screen(EndScreen(message.session.state, message.session.path))

    def on_end_screen_new_game(self, message: EndScreen.NewGame) -> None:
        self.pop_screen()
        self.switch_screen(self._start_screen())

    def action_help(self) -> None:
        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen())

    def game_screen(self) -> GameScreen | None:
        """The game being played, if any (also while the help or end screen is on top of it)."""
        for screen in reversed(self.screen_stack):
            if isinstance(screen, GameScreen):
                return screen
        return None

    def submit_dice(self, dice: tuple[PipDie, ...], source: DiceSource, note: str = "") -> bool:
        """Hand a dice reading to the game being played, as a `DiceEntered` message.

        Call it on the app's thread; a reader thread calls `app.call_from_thread(app.submit_dice, ...)`.
        Returns False when no game is open. The game screen applies the dice to what it expects now
        (`GameScreen.session.expectation()`) and shows the engine's reason when they do not fit.
        """
        screen = self.game_screen()
        if screen is None:
            return False
        return screen.post_message(DiceEntered(dice, source, note))
