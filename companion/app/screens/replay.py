"""A finished game again, move by move: the whole table as it stood after each move, and the camera's frame of
each roll it read, read-only."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Static

from companion.games import alhambra_rw as rw
from companion.live.frames import load_frame

from ..roll_and_write_words import describe
from ..widgets.footer import KeysFooter
from ..widgets.frame_view import FrameView
from ..widgets.table_panel import TablePanel


class ReplayScreen(Screen[None]):
    """Steps through `events` (a game's log): ← and → a move, home and end the first and last."""

    CSS_PATH = "replay.tcss"
    # Before any panel's: at 80×24 a panel that scrolls takes the focus, and took PageDown, Home and End.
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "step(-1)", "move back", priority=True),
        Binding("right", "step(1)", "move on", priority=True),
        Binding("pageup", "step(-10)", "10 back", show=False, priority=True),
        Binding("pagedown", "step(10)", "10 on", show=False, priority=True),
        Binding("home", "step(-100000)", "first", priority=True),
        Binding("end", "step(100000)", "last", priority=True),
        Binding("escape", "app.pop_screen", "back"),
    ]

    def __init__(self, events: Sequence[rw.Event], log_path: Path) -> None:
        super().__init__()
        self.events = events
        self.log_path = log_path
        first = events[0]
        assert isinstance(first, rw.GameStarted)
        game = rw.Game(first)
        self.states = [game.state]
        self.lines = [describe(game.state, first, game.state)]
        for event in events[1:]:
            before = game.state
            game.apply(event)
            self.states.append(game.state)
            self.lines.append(describe(before, event, game.state))
        self.at = 0

    def compose(self) -> ComposeResult:
        yield Static(id="status", markup=False)  # a move's words name its player: no markup
        with VerticalScroll():
            yield FrameView(id="frame")
            yield TablePanel()
        yield KeysFooter()

    def on_mount(self) -> None:
        self.show()

    def action_step(self, moves: int) -> None:
        self.at = max(0, min(len(self.states) - 1, self.at + moves))
        self.show()

    def show(self) -> None:
        state = self.states[self.at]
        said = " / ".join(line.strip() for line in self.lines[self.at])
        self.query_one("#status", Static).update(f"move {self.at} of {len(self.states) - 1}: {said}")
        self.query_one(TablePanel).show(state)
        event, frame = self.events[self.at], self.query_one("#frame", FrameView)
        frame.display = isinstance(event, rw.Roll) and bool(event.frame)
        if isinstance(event, rw.Roll) and event.frame:
            frame.show(load_frame(self.log_path, event.frame), "the camera's frame of this roll")
