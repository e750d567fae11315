"""The camera's taught dice (`--symbols`) that are not the game's: a symbol dice game says why the camera
enters no roll with every reading, and never enters or offers one; Roll & Write reads its pip dice without
them and says so, until the players' first move. Here the camera does read: a still table, settled on."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from datetime import datetime
from functools import cache
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from live_driver import until
from textual.pilot import Pilot
from textual.widgets import Input

from companion.app.app import CameraSetup, CompanionApp
from companion.app.screens.event_game import EventGameScreen
from companion.app.screens.roll_and_write import RollAndWriteScreen
from companion.cli import main as companion_main
from companion.games import alhambra_dice as ad
from companion.games import alhambra_rw as rw
from companion.games import carcassonne_dice as cd
from companion.games.alhambra.buildings import TYPES
from companion.games.alhambra_dice.entry import RULES as AD_RULES
from companion.games.carcassonne_dice.entry import RULES as CD_RULES
from companion.games.session import Session
from companion.live.match import FACE_SETTLING
from vision.reading import Box, DiceReading, Die, Frame, Image
from vision.simulated_table.painters import PipPainter
from vision.simulated_table.rolling import RollingTable
from vision.simulated_table.symbol_art import teaching_photos
from vision.symbols.profile import SymbolProfile, TaughtFace
from vision.symbols.teach import TeachingPhoto, teach

CARCASSONNE_FACES = ("city1", "city2", "knight", "catapult")


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The app's folders under tmp: no test touches the user's games or calibration."""
    for name in ("XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME"):
        monkeypatch.setenv(name, str(tmp_path / name.lower()))
    return tmp_path


class StillTable:
    """A camera looking at a table where nothing moves, at 30 frames a second once `on` is set (what the game
    said on opening is seen first)."""

    def __init__(self) -> None:
        self.on = threading.Event()
        self.closed = False

    def __iter__(self) -> Iterator[Frame]:
        image = np.full((60, 80, 3), 90, np.uint8)
        index = 0
        while not self.on.wait(0.05):
            if self.closed:
                return
        while not self.closed:
            yield Frame(image, time.monotonic(), index)
            index += 1
            time.sleep(1 / 30)

    def close(self) -> None:
        self.closed = True


class Thrown:
    """Reads the same symbol dice in every frame, each surely."""

    def __init__(self, faces: tuple[str, ...]) -> None:
        self.reading = DiceReading(
            tuple(
                Die(Box(12 * n, 0, 12 * n + 10, 10), "symbol", "white", 0.99, face=face)
                for n, face in enumerate(faces)
            ),
            0.0,
        )

    def read(self, image: Image) -> DiceReading:
        return self.reading


def taught(labels: tuple[str, ...]) -> SymbolProfile:
    """A profile of these faces (the reader here is `Thrown`: their names are all the app uses)."""
    return SymbolProfile(tuple(TaughtFace(label, (), 0.5) for label in labels), (80.0, 0.0, 0.0), 0.1)


@pytest.mark.parametrize(
    ("game", "profile", "thrown", "says"),
    [
        # 9 Alhambra dice, each face taken for a city: the Carcassonne screen entered "9 city" unasked.
        ("carcassonne", TYPES, (*("pavilion", "garden") * 4, "tower"), "(a city face, knight, catapult not"),
        # 11 seen, 9 expected: "3 dice not made out ... type the roll" hid why, within a second.
        ("carcassonne", TYPES, (*TYPES, "tower", "garden", "chambers", "pavilion", "arcades"), "not taught"),
        # Carcassonne dice, none made out: "8 dice not made out" hid why.
        ("alhambra", CARCASSONNE_FACES, ("city1", "knight") * 4, f"({', '.join(TYPES)} not taught)"),
    ],
)
def test_every_reading_says_why_another_games_dice_enter_no_roll(
    home: Path, game: str, profile: tuple[str, ...], thrown: tuple[str, ...], says: str
) -> None:
    session: Session[Any, Any, Any]
    if game == "alhambra":
        session = Session.create(
            AD_RULES, home, ad.GameStarted(("Ann", "Ben", "Cleo")), datetime(2026, 11, 25)
        )
        session.submit(
            ad.RoundPrepared(("exchange", "displace", "cancel", "black_die", "vp", "start_player"))
        )
    else:
        session = Session.create(CD_RULES, home, cd.GameStarted(("Ann", "Ben")), datetime(2026, 11, 25))
    played = len(session.events)
    assert session.expectation().dice, "the game waits for a roll"
    table = StillTable()
    camera = CameraSetup(lambda: table, Thrown(thrown), settling=FACE_SETTLING, symbols=taught(profile))

    async def play() -> tuple[str, str, str, int]:
        app = CompanionApp(camera=camera, game=session)
        async with app.run_test(size=(100, 32)) as pilot:
            screen = app.screen
            assert isinstance(screen, EventGameScreen)
            await pilot.pause()
            opening = screen.message
            table.on.set()
            await until(pilot, lambda: app.table_reading is not None, 20, "the camera to settle")
            await until(pilot, lambda: screen.message != opening, 10, "the reading to be said")
            read = screen.message
            await pilot.press("ctrl+k")
            return opening, read, screen.message, len(session.events)

    opening, read, accepted, events = asyncio.run(play())
    assert "not this game's" in opening and says in opening, opening
    assert read.startswith("camera read ") and "not this game's" in read and says in read, read
    assert accepted.startswith("no camera reading to accept: the camera's dice") and says in accepted, (
        accepted
    )
    assert events == played, "the camera entered a roll of another game's dice"


NAMED_PIPS = dict(
    zip(PipPainter.labels, ("knight", "catapult", "city1", "city2", "city3", "city4"), strict=True)
)


@cache
def pips_taught_as_symbols() -> SymbolProfile:
    """Dice taught under Carcassonne's names from photos of pip dice: what real pip dice looked like to a
    Carcassonne profile, which named them by its faces."""
    photos = teaching_photos(PipPainter(), np.random.default_rng(0), color="yellow")  # type: ignore[arg-type]
    return teach(
        [
            TeachingPhoto(NAMED_PIPS[face], f"{n}.png", im)
            for face, ims in photos.items()
            for n, im in enumerate(ims)
        ],
        warn=lambda _: None,
    )


def test_roll_and_write_reads_pip_dice_without_the_symbol_dice_taught(home: Path) -> None:
    """`companion --camera PHOTO --symbols carc.json`, then Roll & Write: the Camera panel showed `3 city1`
    while the game asked for a yellow and a blue die, and nothing said the profile was not a pip game's."""
    table = RollingTable(seed=0, roll_frames=2, rest_frames=3, idle_frames=3)
    table.throw((("yellow", "3"), ("blue", "5")))
    photo, profile = home / "table.png", home / "carc.json"
    cv2.imwrite(str(photo), list(table)[-1].image)
    pips_taught_as_symbols().save(profile)
    seen: dict[str, object] = {}

    async def script(pilot: Pilot[Any]) -> None:
        app = pilot.app
        assert isinstance(app, CompanionApp)
        await until(
            pilot, lambda: app.table_reading is not None, 30, "the camera to settle on the start screen"
        )
        seen["before"] = {d.kind for d in app.table_reading.dice} if app.table_reading else set()
        app.screen.query_one("#name1", Input).value = "Anna"
        app.screen.query_one("#name2", Input).value = "Ben"
        await pilot.press("f5")
        await until(pilot, lambda: isinstance(app.screen, RollAndWriteScreen), 10, "the game")
        screen = app.screen
        assert isinstance(screen, RollAndWriteScreen)
        seen["opening"] = screen.message

        def pips_read() -> bool:
            return app.table_reading is not None and {d.kind for d in app.table_reading.dice} == {"pip"}

        await until(pilot, pips_read, 20, "the pip dice to be read")
        await until(pilot, lambda: "camera read" in screen.message, 10, "the dice to be offered")
        seen["offered"], seen["rolls"] = screen.message, len(screen.session.events)
        await pilot.press("k")
        seen["accepted"], seen["roll"] = screen.message, screen.session.events[-1]
        app.exit()

    assert companion_main(["--camera", str(photo), "--symbols", str(profile)], pilot=script) == 0
    assert seen["before"] == {"symbol"}, "the profile no longer names these pip dice: the test shows nothing"
    note = "(knight, catapult, city1, city2, city3, city4) are for the symbol dice games, not used here"
    assert note in str(seen["opening"]), seen["opening"]
    # Lying there when the game opened, the dice read anew are offered (k), never entered unasked; the note
    # stays said above the offer until the players' first move.
    offered = str(seen["offered"])
    assert note in offered and "camera read y3 b5" in offered and seen["rolls"] == 1, offered
    assert seen["roll"] == rw.Roll("Anna", (3,), (5,)) and note not in str(seen["accepted"])
