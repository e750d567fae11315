"""The camera settles the city typed this turn: the app started as players start it (`companion --camera
PHOTO --symbols carc.json`), a rendered city as the camera's picture, ctrl+r on the Carcassonne screen reads
the city off the UI thread, scores it for the player and names every cell where it differs from the typed
one; nothing it reads of a city is written to the log. Without taught dice or a frame, the key says what is
missing. The camera's settled throw is the roll, when the game waits for one."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime
from functools import cache
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from live_driver import until
from textual import events
from textual.pilot import Pilot
from textual.widgets import Input, Static

from calibration.table_area import TableArea, save_area
from companion.app import paths
from companion.app.app import CameraSetup, CompanionApp
from companion.app.screens.carcassonne_dice import CarcassonneDiceScreen
from companion.app.widgets.camera_panel import CameraPanel
from companion.cli import main as companion_main
from companion.games import alhambra_dice as ad
from companion.games import carcassonne_dice as cd
from companion.games.alhambra_dice.entry import RULES as ad_rules
from companion.games.carcassonne_dice.entry import RULES
from companion.games.carcassonne_dice.scorefile import log_text
from companion.games.session import Session
from companion.live.carcassonne_demo import taught_dice
from companion.live.city import CityReading
from companion.live.city_check import AGREES, CityCamera, differences
from companion.live.frames import load_frame
from vision.reading import DiceReading, Image
from vision.simulated_table.city import BuiltDie, city_scene, thrown_scene
from vision.simulated_table.symbol_art import CARCASSONNE, SymbolPainter
from vision.sources import FrameSource, SourceError
from vision.symbols.profile import SymbolProfile

RING = [
    BuiltDie((0, 0), "city2", 180),
    BuiltDie((0, 1), "city2", 90),
    BuiltDie((1, 0), "city2", 270),
    BuiltDie((1, 1), "city2", 0),
]
"""Four corner faces turned into a closed ring (a completed city of 4 dice: 3 points), a knight beside it."""
RING_TYPED = "build 4,4:ES 4,5:SW 5,4:NE 5,5:NW"
"""The ring as the players type it, from row 4, col 4."""


@cache
def profile() -> SymbolProfile:
    return taught_dice(0)


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The app's folders under tmp: no test touches the user's games or calibration."""
    for name in ("XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME"):
        monkeypatch.setenv(name, str(tmp_path / name.lower()))
    return tmp_path


@pytest.fixture
def table(home: Path, tmp_path: Path) -> tuple[Path, Path]:
    """The ring's photo as the camera, the dice taught as carc.json."""
    photo, taught = tmp_path / "city.png", tmp_path / "carc.json"
    scene = city_scene(
        SymbolPainter(CARCASSONNE), [*RING, BuiltDie((2, 0), "knight", 90)], np.random.default_rng(1)
    )
    cv2.imwrite(str(photo), scene.image)
    profile().save(taught)
    return photo, taught


async def type_line(pilot: Pilot[Any], screen: CarcassonneDiceScreen, text: str) -> None:
    screen.query_one("#entry", Input).value = text
    await pilot.press("enter")
    assert not screen.error, screen.message


async def read_city(pilot: Pilot[Any], screen: CarcassonneDiceScreen, seen: dict[str, object]) -> None:
    """Once the camera has settled on the table (its throw offered to no screen), ctrl+r and what it shows."""
    app = pilot.app
    assert isinstance(app, CompanionApp)
    await until(pilot, lambda: app.camera_status.state == "settled", 30, "the camera to settle on the table")
    log = screen.session.path.read_text()
    # The key is posted, not pressed: `Pilot.press` waits for the app to go idle, the reading with it.
    app.post_message(events.Key("ctrl+r", None))
    # The camera may have said something of the dice it settled on: the key is taken once it reads.
    await until(pilot, lambda: screen.reading_city, 10, "the key to be taken")
    seen["reading"] = screen.message, screen.reading_city
    screen.action_read_city()  # pressed again while reading: the reading under way is not started twice
    seen["again"] = screen.message
    await until(pilot, lambda: not screen.reading_city, 60, "the city to be read")
    seen["message"] = screen.message
    seen["panel"] = str(screen.query_one("#camera-city").query_one(Static).render())
    seen["log unchanged"] = screen.session.path.read_text() == log


async def new_game(pilot: Pilot[Any]) -> CarcassonneDiceScreen:
    """F9 on the start screen for Ann and Ben."""
    pilot.app.screen.query_one("#name1", Input).value = "Ann"
    pilot.app.screen.query_one("#name2", Input).value = "Ben"
    await pilot.press("f9")
    await until(pilot, lambda: isinstance(pilot.app.screen, CarcassonneDiceScreen), 10, "the game")
    screen = pilot.app.screen
    assert isinstance(screen, CarcassonneDiceScreen)
    return screen


def companion(table: tuple[Path, Path], script: Callable[[Pilot[Any]], Any], *options: str) -> int:
    photo, taught = table
    return companion_main(["--camera", str(photo), "--symbols", str(taught), *options], pilot=script)


def test_a_resumed_turn_typed_as_the_camera_sees_it_agrees_and_scores_double(
    table: tuple[Path, Path],
) -> None:
    # The camera also sees the tray's dark wall beside the dice, which the calibrated dice area leaves out
    # (read with it, the wall is a column of dice the reader is unsure of).
    photo = table[0]
    inside = np.asarray(cv2.imread(str(photo)))
    wall = np.full((inside.shape[0], inside.shape[1] // 4, 3), 30, np.uint8)
    cv2.imwrite(str(photo), np.concatenate([inside, wall], axis=1))
    save_area(TableArea(x1=0.8), paths.table_area_path())
    # Ann held a knight last turn: this turn counts double, for the camera's score too.
    played: list[cd.Event] = [
        cd.GameStarted(("Ann", "Ben")),
        cd.Rolled("Ann", 5, 3, 1),
        cd.Kept("Ann", 3, ()),
        cd.TurnEnded("Ann", hold_knight=True),
        cd.Rolled("Ben", 5, 2, 1),
        cd.TurnEnded("Ben"),
    ]
    folder = paths.games_dir()
    folder.mkdir(parents=True)
    (folder / "20261125-180000-ann-ben.jsonl").write_text(log_text(played))
    seen: dict[str, object] = {}

    async def script(pilot: Pilot[Any]) -> None:
        await pilot.press("enter")  # the saved game, first on the start screen
        await until(pilot, lambda: isinstance(pilot.app.screen, CarcassonneDiceScreen), 10, "the game")
        screen = pilot.app.screen
        assert isinstance(screen, CarcassonneDiceScreen) and screen.state.doubled
        await type_line(pilot, screen, "5 3 1")
        await type_line(pilot, screen, RING_TYPED)
        await read_city(pilot, screen, seen)
        seen["footer"] = screen.active_bindings["ctrl+r"].binding.description
        await pilot.press("ctrl+q")

    assert companion(table, script) == 0
    assert seen["reading"] == ("reading the city ...", True) and seen["again"] == "reading the city ..."
    assert seen["message"] == f"camera: {AGREES}; it scores 6 points"
    panel = str(seen["panel"])
    assert panel.startswith(f"{AGREES}.") and "(the camera's row 0, col 0 is the typed 4,4)" in panel
    assert "4 city dice on the grid, 1 knight" in panel and "Asked" not in panel
    assert "6 points (largest completed city: 4 dice = 3 points, doubled" in panel, panel
    assert "| 1 ## 1 |" in panel, "the drawing of the grid as read"
    assert seen["log unchanged"], "the camera's city writes nothing to the game"
    assert seen["footer"] == "read city"


def test_a_typed_city_that_differs_is_named_cell_by_cell(table: tuple[Path, Path]) -> None:
    seen: dict[str, object] = {}

    async def script(pilot: Pilot[Any]) -> None:
        screen = await new_game(pilot)
        await type_line(pilot, screen, "5 3 1")
        # The bottom right die typed as a three-sided face, the bottom left one left out.
        await type_line(pilot, screen, "build 4,4:ES 4,5:SW 5,5:NSW")
        await read_city(pilot, screen, seen)
        await pilot.press("ctrl+q")

    assert companion(table, script) == 0
    assert (
        seen["message"]
        == "camera: the camera's city differs from the one built at 2 cells; it scores 3 points"
    )
    panel = str(seen["panel"])
    assert "5,4: nothing typed, the camera reads a city die NE there" in panel
    assert "5,5: typed NSW, the camera reads NW" in panel
    assert "3 points (largest completed city: 4 dice = 3 points)" in panel
    assert seen["log unchanged"]


def reading(layout: dict[tuple[int, int], tuple[int, ...]], **more: Any) -> CityReading:
    fields: dict[str, Any] = {"knights_at": (), "knights": 0, "catapults": 0, "asked": (), "asked_at": ()}
    return CityReading(layout, **{**fields, **more})


def test_cities_are_compared_from_their_top_left_dice_and_named_at_the_typed_cells() -> None:
    typed = (cd.Built((4, 4), (cd.E,)), cd.Built((4, 5), (cd.W,)), cd.Built((5, 5), (cd.N,)))
    same = reading({(0, 0): (cd.E,), (0, 1): (cd.W,), (1, 1): (cd.N,)})
    assert differences(same, typed) == ()
    doubted = reading({(0, 0): (cd.E,), (0, 1): (cd.W,)}, knights_at=((1, 0),), asked_at=((1, 1),))
    assert differences(doubted, typed) == (
        "5,5: typed N, the camera is unsure of the die there (asked below)",
    )
    knight = reading({(0, 0): (cd.E,), (0, 1): (cd.W,)}, knights_at=((1, 1),))
    assert differences(knight, typed) == ("5,5: typed N, the camera reads a knight there",)
    two_areas = (cd.Built((0, 0), (cd.N, cd.S)),)
    assert differences(reading({(3, 3): (cd.N | cd.S,)}), two_areas) == (
        "0,0: typed N/S, the camera reads NS",
    )
    assert differences(reading({}), typed[:1]) == ("4,4: typed E, the camera sees no city die there",)
    assert differences(reading({(0, 0): (cd.E,)}), ()) == (
        "0,0: nothing typed, the camera reads a city die E there",
    )


def never_opens() -> FrameSource:
    raise SourceError("camera 0 did not open: is it plugged in?")


class NoFrames:
    """The reader of a camera that never opens: it is never given a frame."""

    def read(self, image: Image) -> DiceReading:
        raise AssertionError("a camera that never opens gave a frame")


def another_games_dice() -> SymbolProfile:
    """The taught dice with no face's city area: as the Alhambra dice's faces are."""
    return replace(profile(), faces=tuple(replace(face, areas=()) for face in profile().faces))


@pytest.mark.parametrize(
    ("taught", "says"),
    [
        (None, "start the app with `--symbols carc.json`"),
        (profile, "the camera has no frame of the table now"),
        # Read as no city at all, scored 0 without a word.
        (another_games_dice, "the camera cannot read a city: no face of this profile has a city area"),
    ],
)
def test_ctrl_r_says_what_the_camera_lacks(
    home: Path, taught: Callable[[], SymbolProfile] | None, says: str
) -> None:
    session = Session.create(RULES, home, cd.GameStarted(("Ann", "Ben")), datetime(2026, 11, 25))
    camera = CameraSetup(never_opens, NoFrames(), symbols=taught() if taught else None)

    async def press() -> tuple[str, bool, bool]:
        app = CompanionApp(camera=camera, game=session)
        async with app.run_test(size=(100, 32)) as pilot:
            await pilot.press("ctrl+r")
            screen = app.screen
            assert isinstance(screen, CarcassonneDiceScreen)
            return screen.message, screen.error, screen.reading_city

    said, error, reading = asyncio.run(press())
    assert says in said and error and not reading


@pytest.mark.parametrize(
    ("game", "taught", "says"),
    [
        ("alhambra", profile, "(pavilion, seraglio, arcades, chambers, garden, tower not taught)"),
        ("carcassonne", another_games_dice, "not this game's (a city face not taught): its rolls are typed"),
        ("carcassonne", profile, ""),
    ],
)
def test_another_games_dice_are_said_when_a_game_opens(
    home: Path, game: str, taught: Callable[[], SymbolProfile], says: str
) -> None:
    """A game opened with the camera's dice of another game (`--symbols` taught for the other) read no roll
    at all, and only ever said "missing dice: 8 expected"."""
    rules, setup = (
        (ad_rules, ad.GameStarted(("Ann", "Ben")))
        if game == "alhambra"
        else (RULES, cd.GameStarted(("Ann", "Ben")))
    )
    session = Session.create(rules, home, setup, datetime(2026, 11, 25))
    camera = CameraSetup(never_opens, NoFrames(), symbols=taught())

    async def opened() -> str:
        app = CompanionApp(camera=camera, game=session)
        async with app.run_test(size=(100, 32)) as pilot:
            await pilot.pause()
            return str(app.screen.query_one("#message", Static).content)

    said = asyncio.run(opened())
    assert (says in said) if says else "not this game's" not in said, said


def test_symbols_without_a_camera_are_refused(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`companion --symbols carc.json` without --camera was taken and ignored: the dice were never read."""
    assert companion_main(["--symbols", "carc.json"]) == 2
    assert "--symbols and --hold are for reading the dice with --camera SPEC" in capsys.readouterr().err


@pytest.mark.parametrize("size", [(80, 24), (110, 34), (40, 60)])
def test_a_lost_camera_is_shown_and_the_game_goes_on_by_keys(home: Path, size: tuple[int, int]) -> None:
    """The Carcassonne screen once had no camera panel: an unplugged camera said nothing there, and its throws
    just stopped coming."""
    session = Session.create(RULES, home, cd.GameStarted(("Ann", "Ben")), datetime(2026, 11, 25))
    camera = CameraSetup(never_opens, NoFrames())

    async def play() -> tuple[str, bool, bool, int]:
        app = CompanionApp(camera=camera, game=session)
        async with app.run_test(size=size) as pilot:
            screen = app.screen
            assert isinstance(screen, CarcassonneDiceScreen)
            panel = screen.query_one(CameraPanel)
            await until(pilot, lambda: panel.status.state == "camera lost", 15, "the camera lost")
            await pilot.pause()
            shown = [
                w in screen._compositor.visible_widgets for w in (panel, screen.query_one("#camera-city"))
            ]
            await pilot.press(*"5 3 1", "enter")
            await pilot.pause()
            return panel.status.detail, *shown, screen.state.rolls

    detail, panel_shown, city_shown, rolls = asyncio.run(play())
    assert "camera 0 did not open" in detail and panel_shown and city_shown and rolls == 1


def test_the_city_is_read_in_the_calibrated_dice_area() -> None:
    image = np.zeros((100, 200, 3), np.uint8)
    cut = CityCamera(lambda: image, None, TableArea(0.25, 0.1, 0.75, 0.9)).frame()
    assert cut is not None and cut.shape == (80, 100, 3)
    assert CityCamera(lambda: image, None).frame() is image
    assert CityCamera(lambda: None, None, TableArea(x1=0.5)).frame() is None


def test_the_throw_the_camera_settles_on_is_the_turns_first_roll(home: Path, tmp_path: Path) -> None:
    # The table is empty while the game opens, the throw lands after (a throw lying there before the game
    # asked is only offered): the camera is a folder of the two photos, each held for 3 seconds.
    photos, taught = tmp_path / "table", tmp_path / "carc.json"
    photos.mkdir()
    labels = ["city1", "city2", "city3", "city4", "knight", "catapult", "city2", "knight", "city1"]
    painter = SymbolPainter(CARCASSONNE)
    cv2.imwrite(str(photos / "0.png"), thrown_scene(painter, [], np.random.default_rng(4)).image)
    cv2.imwrite(str(photos / "1.png"), thrown_scene(painter, labels, np.random.default_rng(4)).image)
    profile().save(taught)
    seen: dict[str, object] = {}

    async def script(pilot: Pilot[Any]) -> None:
        screen = await new_game(pilot)
        await until(pilot, lambda: screen.state.rolls == 1, 60, "the camera's throw entered")
        seen["rolled"] = screen.session.events[-1]
        seen["path"] = screen.session.path
        seen["log"] = screen.session.path.read_text().splitlines()[-1]
        await pilot.press("ctrl+q")

    assert companion((photos, taught), script, "--hold", "3") == 0
    rolled = seen["rolled"]
    assert rolled == cd.Rolled("Ann", 6, 2, 1) and isinstance(rolled, cd.Rolled) and rolled.source == "camera"
    assert json.loads(str(seen["log"]))["source"] == "camera"
    # The roll keeps the picture it was read in, with the reader's faces, beside the game's log.
    assert rolled.frame == "0001.jpg" and json.loads(str(seen["log"]))["frame"] == "0001.jpg"
    kept = load_frame(Path(str(seen["path"])), rolled.frame)
    assert kept.image is not None and kept.problem == ""
    assert sorted(d.face or "" for d in kept.dice) == sorted(labels)
