"""The `companion` Textual app: start screen -> game screen -> end screen, with help and a sheet editor."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import ClassVar

from textual.binding import Binding, BindingType
from textual.message import Message

from calibration.table_area import TableArea
from companion.games.entry import load
from companion.games.table import entry_of_rules
from companion.live.feed import CameraFeed, FeedSettings, Reader
from companion.live.frames import FrameKeeper, Sighting
from companion.live.messages import (
    FeedMessage,
    FeedStatus,
    PreviewFrame,
    ReadingSettled,
    ReadingWithdrawn,
    StatusChanged,
    supersedes,
)
from vision.colour_profile import ColourProfile
from vision.reading import DiceReading, Image
from vision.settle import Settler, SettleSettings
from vision.sources import FrameSource
from vision.symbols.profile import SymbolProfile

from . import paths
from .keys import key_name
from .screens.calibrate import CalibrateScreen
from .screens.end import EndScreen
from .screens.help import HelpScreen
from .screens.left_game import LeftGame
from .screens.play import PlayScreen
from .screens.roll_and_write import RollAndWriteScreen
from .screens.share import ShareScreen
from .screens.sheet_editor import QuitUnsavedScreen, SheetEditorScreen
from .screens.start import AnySession, StartScreen
from .sharing import ServedView, free_port, keep_address, kept_address, new_token
from .terminal_driver import TerminalApp
from .widgets.camera_panel import CameraPanel


@dataclass(frozen=True)
class CameraSetup:
    """Live reading: how to (re)open the frame source, the reader for its frames, and how the reader takes
    a colour profile taught in the app (None: the reader has no use for one)."""

    open_source: Callable[[], FrameSource]
    reader: Reader
    use_profile: Callable[[ColourProfile], None] | None = None
    settings: FeedSettings | None = None
    settling: SettleSettings | None = None
    """How throws settle (None: the usual; a game that counts faces settles on faces alone)."""
    symbols: SymbolProfile | None = None
    """The taught symbol dice, for reading a built Carcassonne city from a frame (None: none taught)."""
    area: TableArea | None = None
    """The calibrated dice area a city is read in (the `reader` cuts frames to it itself)."""


class FromFeed(Message):
    """What the camera thread posts, carried to the app's thread; a stale preview or status line still
    waiting is dropped for the next one (`supersedes`), so a slow terminal never falls behind the camera."""

    def __init__(self, message: FeedMessage) -> None:
        super().__init__()
        self.message = message

    def can_replace(self, message: Message) -> bool:
        return isinstance(message, FromFeed) and supersedes(message.message, self.message)


class CompanionApp(TerminalApp):
    """The table companion for Alhambra Roll & Write and the Alhambra and Carcassonne dice games.

    `rng` makes the virtual rolls (seed it for a reproducible game); `now` dates new games; the folders
    default to the XDG config and data directories.
    """

    CSS_PATH = "app.tcss"
    TITLE = "Table companion"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f1", "help", "help"),
        Binding("f3", "calibrate", "calibrate camera"),
        # Without a camera the same key says how to get one, out of the footer: `check_action` lets one run.
        Binding("f3", "calibrate_without_camera", "calibrate camera", show=False),
        Binding("f6", "share", "share the view", show=False),
        Binding("ctrl+q", "quit", "quit", priority=True),
    ]

    def __init__(
        self,
        rng: random.Random | None = None,
        now: Callable[[], datetime] = datetime.now,
        games_dir: Path | None = None,
        sheets_dir: Path | None = None,
        auto_imaginary: bool = True,
        camera: CameraSetup | None = None,
        game: AnySession | None = None,
        keep_frames: bool = True,
    ) -> None:
        super().__init__()
        self.rng = rng or random.Random()
        self.now = now
        self.games_dir = games_dir or paths.games_dir()
        self.sheets_dir = sheets_dir or paths.sheets_dir()
        self.auto_imaginary = auto_imaginary
        self.camera = camera
        self.feed: CameraFeed | None = None
        self.camera_status = FeedStatus("starting", "", None)
        """The camera's latest state, for a camera panel that appears after it was posted."""
        self.table_reading: DiceReading | None = None
        """The dice lying on the table as the camera last settled on them, for a game screen that opens
        after they settled (None once they move)."""
        self.table_seen: Sighting | None = None
        """The frame those dice settled in with their reading: a roll made of them keeps it."""
        self.keep_frames = keep_frames
        """Whether rolls the camera read keep its frame beside the game's log (`--no-frames`: not)."""
        self._first_game = game
        self.viewers: ServedView | None = None
        """`companion serve`, once the players asked to share the view (F6), with the key in the view's
        address (the last run's, kept): only those shown the QR code can watch."""

    def get_key_display(self, binding: Binding) -> str:
        return key_name(super().get_key_display(binding))

    def on_mount(self) -> None:
        if self._first_game is not None:
            self.push_screen(self._game_screen(self._first_game))
        else:
            self.push_screen(self._start_screen())
        if self.camera is not None:
            camera = self.camera
            self.feed = CameraFeed(
                camera.open_source,
                camera.reader,
                lambda: Settler(camera.settling),
                lambda message: self.post_message(FromFeed(message)),
                camera.settings,
            )
            self.feed.start()

    def on_unmount(self) -> None:
        self.stop_camera()
        if self.viewers is not None:
            self.viewers.stop()

    def action_share(self, new_key: bool = False) -> None:
        """Serve the table's view to the players' phones (once, or anew if its server ended: it could not
        listen, or was stopped; or with a new key, the old address refused) and show its address and QR
        code."""
        if new_key or self.viewers is None or self.viewers.why_ended():
            if self.viewers is not None:
                self.viewers.stop()
            try:
                kept: Path | None = paths.view_address_path()
            except paths.FolderError:  # no home to keep it in: a new key at each run
                kept = None
            token, port = kept_address(kept)
            self.viewers = ServedView(free_port(port), new_token() if new_key else token)
            keep_address(kept, self.viewers.token, self.viewers.port)
        if isinstance(self.screen, ShareScreen):
            self.screen.serve(self.viewers)
        else:
            self.push_screen(ShareScreen(self.viewers))

    def latest_frame(self) -> Image | None:
        """The camera's newest frame (None without a camera, before its first frame, or while it is lost)."""
        return self.feed.latest_frame() if self.feed is not None else None

    def frame_keeper(self, session: AnySession) -> FrameKeeper:
        """Where a game's rolls the camera read keep its frames: beside the game's log, the calibrated dice
        area only; none with `--no-frames`. Without a camera only a demo's table hands over frames to keep
        (nothing settles `table_seen`)."""
        if not self.keep_frames:
            return FrameKeeper.off()
        area = None if self.camera is None else self.camera.area
        return FrameKeeper(session.path, lambda: self.table_seen, area)

    def stop_camera(self) -> None:
        """Stop the camera thread and wait for it (quitting must not leave a reader running)."""
        if self.feed is not None:
            self.feed.stop()

    def _game_screen(self, session: AnySession) -> PlayScreen:
        """The screen the table of games names for the session's game."""
        screen: PlayScreen = load(entry_of_rules(session.rules).screen)(self, session)
        return screen

    def _start_screen(self, after: AnySession | None = None, left: LeftGame | None = None) -> StartScreen:
        """The start screen, its form filled for the next game of the table that finished `after` (or that
        `left` with nothing played)."""
        return StartScreen(self.games_dir, self.sheets_dir, self.now, after, left)

    def on_start_screen_game_opened(self, message: StartScreen.GameOpened) -> None:
        self.switch_screen(self._game_screen(message.session))
        self._serve_to_phones(message.session.path)

    def on_start_screen_pad_opened(self, message: StartScreen.PadOpened) -> None:
        self._serve_to_phones(message.path)

    def _serve_to_phones(self, game: Path) -> None:
        """The game just opened served to the phones F6 serves, if any: they follow the table to its next
        game, at the address they have (until F6, they kept the game left)."""
        if self.viewers is not None and not self.viewers.why_ended():
            self.viewers.serve(game)

    def on_play_screen_finished(self, message: PlayScreen.Finished) -> None:
        if message.end is not None:
            if not isinstance(self.screen, type(message.end)):
                self.push_screen(message.end)
        else:
            self.notify(f"game over: {message.note} ({message.session.path.name})")

    def on_end_screen_new_game(self, message: EndScreen.NewGame) -> None:
        # The same table plays on: a new game of the one finished, for its players.
        finished = self._table_screen()
        self._leave_game(None if finished is None else finished.session)

    def on_play_screen_leave(self, message: PlayScreen.Leave) -> None:
        game = self._table_screen()
        self._leave_game(left=None if game is None else game.leave())

    def _leave_game(self, finished: AnySession | None = None, left: LeftGame | None = None) -> None:
        """Back to the start screen from the game and whatever lies over it (its end screen, a scoring); its
        form is filled for the next game after the `finished` one, or for the game `left` if nothing was
        played in it."""
        while len(self.screen_stack) > 2 and not isinstance(self.screen, PlayScreen):
            self.pop_screen()
        self.switch_screen(self._start_screen(finished, left))

    async def action_quit(self) -> None:
        """Quit at once (every move is on disk as made), unless the sheet editor holds a sheet typed and not
        saved: then the players are asked, and ctrl+q over that question quits."""
        editor = next((s for s in self.screen_stack if isinstance(s, SheetEditorScreen)), None)
        if editor is None or not editor.unsaved():
            self.exit()
            return

        def answered(leave: bool | None) -> None:
            if leave:  # the typed sheet given up: no draft of it waits for the next editor
                editor.give_up()
                self.exit()

        if isinstance(self.screen, QuitUnsavedScreen):  # ctrl+q over the question: asked already
            answered(True)
        else:
            self.push_screen(QuitUnsavedScreen(), answered)

    def action_help(self) -> None:
        """The help page of the screen on top."""
        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen(self.screen))

    def roll_and_write_screen(self) -> RollAndWriteScreen | None:
        """The game being played, if any (also while the help or end screen is on top of it)."""
        for screen in reversed(self.screen_stack):
            if isinstance(screen, RollAndWriteScreen):
                return screen
        return None

    # ------------------------------------------------------------------- messages of the camera thread
    def _camera_panel(self) -> CameraPanel | None:
        # Frames can come before a screen is composed (no panel yet) or after the last screen is gone, while
        # the app shuts down and the camera's thread is joined (no screen at all).
        if not self.screen_stack:
            return None
        panels = self.screen.query(CameraPanel)
        return panels.first() if panels else None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "calibrate":
            return self.camera is not None and self.camera.use_profile is not None
        if action == "calibrate_without_camera":
            return self.camera is None
        return True

    def action_calibrate_without_camera(self) -> None:
        self.notify(
            "F3 teaches the dice colours from the camera: start the app with `--camera SPEC` (e.g. "
            "`companion --camera 0`), or teach them from photos with "
            "`companion calibrate colours COLOURS_DIR`",
            severity="warning",
        )

    def action_calibrate(self) -> None:
        if not isinstance(self.screen, CalibrateScreen):
            self.push_screen(CalibrateScreen(paths.colour_profile_path()))

    def on_calibrate_screen_taught(self, message: CalibrateScreen.Taught) -> None:
        if self.camera is not None and self.camera.use_profile is not None:
            self.camera.use_profile(message.profile)
        self.notify(f"colour profile saved to {paths.colour_profile_path()}")

    def on_from_feed(self, carried: FromFeed) -> None:
        match carried.message:
            case PreviewFrame() as message:
                self._preview(message)
            case StatusChanged() as message:
                self._status_changed(message)
            case ReadingSettled() as message:
                self._settled(message)
            case ReadingWithdrawn():
                self._withdrawn()

    def _preview(self, message: PreviewFrame) -> None:
        if self.screen_stack and isinstance(self.screen, CalibrateScreen):
            self.screen.see(message.image, message.reading)
        panel = self._camera_panel()
        if panel is not None:
            panel.show_frame(message.image, message.reading, message.fps)

    def _status_changed(self, message: StatusChanged) -> None:
        self.camera_status = message.status
        panel = self._camera_panel()
        if panel is not None:
            panel.show_status(message.status)

    def _table_screen(self) -> PlayScreen | None:
        """The screen of the game being played, for what the camera settles on."""
        for screen in reversed(self.screen_stack):
            if isinstance(screen, PlayScreen):
                return screen
        return None

    def _settled(self, message: ReadingSettled) -> None:
        self.table_reading = message.reading
        self.table_seen = Sighting(message.image, message.reading)
        screen = self._table_screen()
        if screen is not None:
            screen.table_settled(message.reading, message.lying)

    def _withdrawn(self) -> None:
        self.table_reading = None
        self.table_seen = None
        screen = self._table_screen()
        if screen is not None:
            screen.camera_withdrawn()
