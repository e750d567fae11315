"""A finished game again, move by move: the whole table as it stood after each move (the game's table view),
and the camera's frame of each roll it read, read-only. Every game with a log and its words in the table of
games (`GameEntry.words`) replays."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Static

from companion.games.entry import GameEntry, load
from companion.live.frames import load_frame

from ..widgets.footer import KeysFooter
from ..widgets.frame_view import FrameView


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

    def __init__(self, game: GameEntry, events: Sequence[Any], log_path: Path) -> None:
        super().__init__()
        assert game.rules is not None and game.words, f"{game.id} replays no log"
        self.events = events
        self.log_path = log_path
        self.view: type[Widget] = load(game.view)
        words, played = load(game.words), list(game.rules.steps(events))
        self.states = [after for _, _, after in played]
        self.lines: list[list[str]] = [words(*step) for step in played]
        self.at = 0

    def compose(self) -> ComposeResult:
        yield Static(id="status", markup=False)  # a move's words name its player: no markup
        with VerticalScroll():
            yield FrameView(id="frame")
            yield self.view(id="table")
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
        self.query_one("#table").show(state)  # type: ignore[attr-defined]  # every game's view shows a state
        # Every game's roll keeps the camera's frame in a field of that name (`eventlog.Said`).
        kept = getattr(self.events[self.at], "frame", "")
        frame = self.query_one("#frame", FrameView)
        frame.display = bool(kept)
        if kept:
            frame.show(load_frame(self.log_path, kept), "the camera's frame of this roll")
