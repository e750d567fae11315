"""The table's view: a read-only screen of the game being played, of any game, for every player to look at.

It follows the game's log as the app writes it (each move is flushed to the log at once) and shows the panel
the table of games names for its game (`GameEntry.view`: Roll & Write's shared score sheet, every grid and
what each sheet is worth so far; a dice game's board or score pad). It only ever reads the log, so any number
of views (`companion view`, or one per browser with `companion serve`) can watch a game without changing it.
"""

from __future__ import annotations

import os
from contextlib import suppress
from pathlib import Path
from stat import S_ISREG
from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widgets import Static

from companion.games.entry import GameEntry, ScoreFileError, load
from companion.games.eventlog import LogError, load_log
from companion.games.folding import IllegalMove
from companion.live.frames import frame_names, load_frame
from companion.saved_games import named_game, saved_files
from companion.scorefiles import scored_whole

from .terminal_driver import TerminalApp
from .widgets.footer import KeysFooter
from .widgets.frame_view import FrameView

FOLLOW_SECONDS = 0.5
"""How often the log is looked at for new moves."""


def newest_game(folder: Path) -> Path | None:
    """The saved game written to last (a game log, a pad): the game being played."""
    written: dict[Path, int] = {}
    for path in saved_files(folder) if folder.is_dir() else []:
        with suppress(OSError):  # a link to nothing, a file deleted since listed: no game to follow
            written[path] = path.stat().st_mtime_ns
    return max(written, key=lambda p: (written[p], p.name), default=None)


def read_game(game: GameEntry, path: Path) -> tuple[Any, list[Any], str]:
    """The state of the saved game at `path`, its log's events and its latest move as the game's log words
    it, on one line: its log replayed once, or what its own file holds (a pad, which has no events nor
    moves: '')."""
    if game.rules is not None:
        events = list(load_log(path, game.rules.log).events)
        before, last, after = game.rules.last_step(events)
        said = load(game.words)(before, last, after) if game.words else []
        return after, events, " / ".join(line.strip() for line in said)
    assert game.records is not None and game.records.read is not None  # a game kept in a file of its own
    return game.records.read(path), [], ""


class TableView(TerminalApp):
    """Follows the saved game `log` (a game log, or a pad of a game kept without one), or else the newest
    in `games_dir`, and shows it; keys only scroll and, in a terminal, quit."""

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
        self.state: Any = None
        """The state of the game shown (None before one is)."""
        self.game: GameEntry | None = None
        self.panel: Any = None
        """The game's panel (`GameEntry.view`): any widget with `show(state)`."""
        self._seen: tuple[Path, int, int] | None = None

    def compose(self) -> ComposeResult:
        yield Static(id="status", markup=False)  # where the game is names its players: no markup
        yield Static(id="latest", markup=False)
        yield VerticalScroll(id="body")
        yield FrameView(id="frame")
        if not self.is_web:  # its only key quits, which a phone has not (`check_action`)
            yield KeysFooter()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # In a browser (a phone served by `companion serve`) a tap on the footer's quit, or a q typed, ended
        # that phone's view for good ("Session ended."): there the view is only watched, and ends as its
        # page is closed.
        return not (action == "quit" and self.is_web)

    async def on_mount(self) -> None:
        self.query_one("#frame", FrameView).display = False  # until the camera has read a roll
        self.query_one("#latest", Static).display = False  # until a game with moves is shown
        await self.follow()
        self.set_interval(FOLLOW_SECONDS, self.follow)

    async def follow(self) -> None:
        """Read the log again if it changed since the last look."""
        path = self.followed or newest_game(self.games_dir)
        stat = self._file(path)
        if path is None or stat is None:
            self._seen = None  # read it again once it is back, whatever its size and time
            return
        seen = (path, stat.st_mtime_ns, stat.st_size)
        if seen == self._seen:
            return
        self._seen = seen
        try:
            game = named_game(path)
            state, events, latest = read_game(game, path)
        except (LogError, IllegalMove, ScoreFileError) as exc:
            whole = isinstance(exc, LogError) and scored_whole(path)
            why = f"{path}: no game log but one JSON value (an end state? `companion score` scores it)"
            self._lost(f"cannot show {path.name}: {why if whole else exc}")
            return
        except OSError as exc:  # gone since its size was read, or not ours to read
            self._lost(f"cannot read {path.name}: {exc.strerror}")
            return
        await self.show(game, state, latest)
        if game.rules is not None:
            self.show_frame(path, frame_names(events, game.rules.log.encode))

    def show_frame(self, log_path: Path, named: list[tuple[int, str]]) -> None:
        """The camera's frame of the latest roll it read (hidden while it has read none)."""
        view = self.query_one("#frame", FrameView)
        view.display = bool(named)
        if named:
            move, frame = named[-1]
            view.show(load_frame(log_path, frame), f"the camera's latest roll (move {move})")

    def _file(self, path: Path | None) -> os.stat_result | None:
        """The size and times of the file at `path`, or None where there is no file to read (said why)."""
        if path is None:
            self._lost(f"no game yet in {self.games_dir}: waiting for one to start")
            return None
        try:
            stat = path.stat()
        except FileNotFoundError:
            self._lost(f"{path.name} is gone (deleted or moved): waiting for it to come back")
            return None
        except OSError as exc:
            self._lost(f"cannot read {path.name}: {exc.strerror}")
            return None
        if not S_ISREG(stat.st_mode):  # reading a pipe would wait for a writer for ever
            self._lost(f"cannot read {path.name}: not a file")
            return None
        return stat

    def _say(self, message: str) -> None:
        self.query_one("#status", Static).update(message)

    def _lost(self, why: str) -> None:
        """Say why the game cannot be shown now; what was shown stays, dimmed and said to be out of date, so
        that no one reads it as the game's present (its log deleted, emptied, half written)."""
        shown = self.panel is not None
        self.screen.set_class(shown, "-stale")
        self._say(f"{why}\n(below: as last read, out of date)" if shown else why)

    async def show(self, game: GameEntry, state: Any, latest: str = "") -> None:
        """Show a state of `game` in the panel its row of the table of games names, under where the game is
        and its `latest` move (the dice rolled, which what it expects next may not name)."""
        assert game.summary is not None  # the row of a saved game
        if game is not self.game:
            body = self.query_one("#body", VerticalScroll)
            await body.remove_children()
            self.panel = load(game.view)()
            await body.mount(self.panel)
            self.game = game
        self.state = state
        self.screen.remove_class("-stale")
        summary = game.summary(state)
        now = "game over" if summary.over else game.rules.expectation(state).prompt if game.rules else ""
        self._say(" · ".join(part for part in (game.title, summary.where, now) if part))
        said = self.query_one("#latest", Static)
        said.update(f"last move: {latest}")
        said.display = bool(latest)
        self.panel.show(state)
