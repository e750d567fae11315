"""The table's view: a read-only screen of the game being played, for every player to look at.

It follows the game's log as the app writes it (each move is flushed to the log at once): the shared score
sheet, every player's grid and what each sheet is worth so far. It only ever reads the log, so any number of
views (`companion view`, or one per browser with `companion serve`) can watch a game without changing it.
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widgets import Footer, Static

from companion.games import alhambra_rw as rw

from .session import LOG_SUFFIX
from .widgets.table_panel import TablePanel

FOLLOW_SECONDS = 0.5
"""How often the log is looked at for new moves."""


def newest_log(folder: Path) -> Path | None:
    """The game log written to last: the game being played."""
    logs = list(folder.glob(f"*{LOG_SUFFIX}")) if folder.is_dir() else []
    return max(logs, key=lambda p: (p.stat().st_mtime_ns, p.name), default=None)


class TableView(App[None]):
    """Follows the game log `log`, or else the newest log in `games_dir`, and shows it; keys only scroll and
    quit."""

    CSS_PATH = "table_view.tcss"
    TITLE = "Table companion: the table's view"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("q", "quit", "quit"),
        Binding("ctrl+q", "quit", "quit", priority=True),
    ]

    def __init__(self, games_dir: Path, log: Path | None = None) -> None:
        super().__init__()
        self.games_dir = games_dir
        self.followed = log
        self.state: rw.GameState | None = None
        self._seen: tuple[Path, int, int] | None = None

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with VerticalScroll(id="body"):
            yield TablePanel()
        yield Footer()

    def on_mount(self) -> None:
        self.follow()
        self.set_interval(FOLLOW_SECONDS, self.follow)

    def follow(self) -> None:
        """Read the log again if it changed since the last look."""
        path = self.followed or newest_log(self.games_dir)
        if path is None or not path.is_file():
            self._say(f"no game yet in {self.games_dir}: waiting for one to start")
            return
        stat = path.stat()
        seen = (path, stat.st_mtime_ns, stat.st_size)
        if seen == self._seen:
            return
        self._seen = seen
        try:
            loaded = rw.load_log(path)
            state = rw.replay_log(loaded).state
        except rw.LogError as exc:
            self._say(f"cannot show {path.name}: {exc}")
            return
        self.show(state)

    def _say(self, message: str) -> None:
        self.query_one("#status", Static).update(message)

    def show(self, state: rw.GameState) -> None:
        self.state = state
        stage = "set-up" if state.round == 0 else f"round {state.round} of {state.rounds}"
        now = "game over" if state.is_over else f"{rw.expectation(state).prompt}"
        self._say(f"{stage} · {now}")
        self.query_one(TablePanel).show(state)
