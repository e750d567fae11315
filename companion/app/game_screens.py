"""The screen that plays each game, as the table of games names it (`GameEntry.screen`): one function per
game, taking the app (its dice roller, its camera) and the game's session; and the screen that continues a
game kept in a file of its own (`GameEntry.opens`: the original Alhambra's pad).

The camera's taught symbol dice (`--symbols`) are read in the symbol dice games alone: each game's screen
says so where they are not its dice."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from companion.games.alhambra.pad import load_pad
from companion.games.alhambra_dice.entry import AlhambraDiceSession
from companion.games.alhambra_dice.events import ALCAZABA
from companion.games.alhambra_rw.entry import RollAndWriteSession
from companion.games.carcassonne_dice.entry import CarcassonneDiceSession
from companion.live.cameras import AlhambraDiceCamera, CarcassonneDiceCamera, RollAndWriteCamera
from companion.live.city_check import CityCamera

from .screens.alcazaba import AlcazabaScreen
from .screens.alhambra_dice import AlhambraDiceScreen
from .screens.alhambra_pad import AlhambraPadScreen
from .screens.carcassonne_dice import CarcassonneDiceScreen
from .screens.roll_and_write import RollAndWriteScreen

if TYPE_CHECKING:
    from .app import CompanionApp


def alhambra_pad(path: Path) -> AlhambraPadScreen:
    """A saved pad of the original Alhambra, continued (`PadError` when it cannot be shown)."""
    return AlhambraPadScreen(path, load_pad(path))


def _read_symbols(app: CompanionApp, read: bool) -> None:
    """Whether the camera reads its taught symbol dice in the game opening (a game the app opens with has its
    screen made before the feed starts, which reads them)."""
    if app.feed is not None:
        app.feed.read_symbols(read)


def roll_and_write(app: CompanionApp, session: RollAndWriteSession) -> RollAndWriteScreen:
    """Pip dice: read without the symbol dice taught, which named them by their faces."""
    _read_symbols(app, False)
    symbols = None if app.camera is None else app.camera.symbols
    return RollAndWriteScreen(
        session,
        app.rng,
        app.auto_imaginary,
        camera=app.camera is not None,
        table=app.table_reading,
        frames=app.frame_keeper(session),
        camera_note=RollAndWriteCamera.unused(symbols) if symbols is not None else "",
    )


def alhambra_dice(app: CompanionApp, session: AlhambraDiceSession) -> AlhambraDiceScreen:
    """The standard game's screen, or the Alcazaba variant's (its tiles by column, the rebuild)."""
    _read_symbols(app, True)
    screen = AlcazabaScreen if session.state.variant == ALCAZABA else AlhambraDiceScreen
    frames, table = app.frame_keeper(session), app.table_reading
    opened = screen(session, app.rng, camera=app.camera is not None, frames=frames, table=table)
    if app.camera is not None and app.camera.symbols is not None:
        opened.camera_cannot_count(AlhambraDiceCamera.untaught(app.camera.symbols))
    return opened


def carcassonne_dice(app: CompanionApp, session: CarcassonneDiceSession) -> CarcassonneDiceScreen:
    _read_symbols(app, True)
    camera = app.camera
    city = None if camera is None else CityCamera(app.latest_frame, camera.symbols, camera.area)
    opened = CarcassonneDiceScreen(session, city, table=app.table_reading, frames=app.frame_keeper(session))
    if camera is not None and camera.symbols is not None:
        opened.camera_cannot_count(CarcassonneDiceCamera.untaught(camera.symbols))
    return opened
