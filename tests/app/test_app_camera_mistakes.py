"""The camera at the table when it drops out or reads at the wrong moment: it never enters a roll twice, nor
for another player than the throw's, nor over a roll being typed, nor while the players look at another
screen; it asks instead."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from app_driver import FIXED_NOW, camera_app, game_screen, pips, start_named, type_entry
from textual.pilot import Pilot

from companion.app.app import CameraSetup, CompanionApp, FromFeed
from companion.app.screens.alhambra_dice import AlhambraDiceScreen
from companion.app.screens.carcassonne_dice import CarcassonneDiceScreen
from companion.app.screens.roll_and_write import RollAndWriteScreen
from companion.games import alhambra_dice as ad
from companion.games import alhambra_rw as rw
from companion.games import carcassonne_dice as cd
from companion.games.alhambra_rw.entry import RULES, RollAndWriteSession
from companion.games.session import Session
from companion.live.feed import FeedSettings
from companion.live.messages import ReadingSettled
from vision.reading import Box, DiceReading, Die, Frame
from vision.sources import FrameSource, SourceError
from vision.symbols.profile import SymbolProfile, TaughtFace

SIZE = (110, 40)
TABLE = np.full((240, 320, 3), 90, np.uint8)
TILES = "tiles vp vp vp vp black start"
"""The Alhambra dice game's first entry: the round's bonus tiles."""


def symbols(faces: list[str], sure: float = 0.99) -> DiceReading:
    return DiceReading(
        tuple(
            Die(Box(40 * n, 0, 40 * n + 30, 30), "symbol", "white", sure, face=face, rotation=0)
            for n, face in enumerate(faces)
        ),
        0.0,
    )


def new_game(tmp_path: Path) -> RollAndWriteSession:
    setup = rw.GameStarted(rw.load_shipped_sheet("example"), ("Ann", "Ben", "Cleo"))
    return Session.create(RULES, tmp_path / "games", setup, FIXED_NOW)


def rolls(screen: RollAndWriteScreen) -> list[tuple[str, tuple[int, ...], tuple[int, ...], str]]:
    return [(e.player, e.yellow, e.blue, e.source) for e in screen.session.events if isinstance(e, rw.Roll)]


async def until(pilot: Pilot[None], done: Callable[[], object], timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < deadline, "timed out"
        await pilot.pause(0.05)


async def settle(pilot: Pilot[None], reading: DiceReading) -> None:
    """The camera settled on `reading`, as its thread tells the app."""
    pilot.app.post_message(FromFeed(ReadingSettled(reading, TABLE)))
    await pilot.pause()
    await pilot.pause()


class Webcam:
    """A webcam over a table where y3 b5 lie still; `away` set, it is unplugged (reading and opening fail)
    or stalls (no frame comes), until `away` is cleared."""

    def __init__(self, fault: str) -> None:
        self.fault = fault
        self.away = threading.Event()
        self.hand = threading.Event()
        """Set, a hand passes over the table (clear of the dice)."""
        self.dice = pips(("yellow", 3, 0.99), ("blue", 5, 0.99))

    def open(self) -> FrameSource:
        if self.away.is_set() and self.fault == "unplugged":
            raise SourceError("can't open camera 0")
        return _Opening(self)

    def read(self, image: object) -> DiceReading:
        return self.dice


class _Opening:
    def __init__(self, webcam: Webcam) -> None:
        self.webcam = webcam
        self.closed = False

    def __iter__(self) -> Iterator[Frame]:
        start, index = time.monotonic(), 0
        while not self.closed:
            if self.webcam.away.is_set():
                if self.webcam.fault == "unplugged":
                    raise SourceError("device unplugged")
                time.sleep(0.02)
                continue
            image = TABLE.copy()
            if self.webcam.hand.is_set():
                image[:60, index * 10 % 260 : index * 10 % 260 + 60] = 30
            yield Frame(image, time.monotonic() - start, index)
            index += 1
            time.sleep(1 / 30)

    def close(self) -> None:
        self.closed = True


def test_dice_thrown_while_the_camera_was_away_are_offered_not_entered(xdg: Path) -> None:
    """Ben threw (and perhaps typed his roll) while the camera was unplugged: the dice it comes back to were
    entered as the next roll, unasked, though nobody saw them thrown."""
    webcam = Webcam("unplugged")
    app = CompanionApp(camera=CameraSetup(webcam.open, webcam), game=new_game(xdg))

    async def play() -> None:
        async with app.run_test(size=SIZE) as pilot:
            screen = game_screen(app)
            await until(pilot, lambda: rolls(screen))
            webcam.away.set()
            await until(pilot, lambda: app.camera_status.state == "camera lost")
            webcam.dice = pips(("yellow", 2, 0.99), ("blue", 6, 0.99))
            webcam.away.clear()
            await until(pilot, lambda: screen.pending is not None)
            assert rolls(screen) == [("Ann", (3,), (5,), "camera")]
            assert "thrown while the camera was away" in screen.message, screen.message

    asyncio.run(play())


@pytest.mark.parametrize(("fault", "shown"), [("unplugged", "camera lost"), ("stalled", "stalled")])
def test_dice_still_lying_when_the_camera_comes_back_are_no_new_throw(
    xdg: Path, fault: str, shown: str
) -> None:
    """Ann's throw goes in; the camera drops out and comes back to the same dice: they are not Ben's roll,
    nor offered as one."""
    webcam = Webcam(fault)
    app = CompanionApp(
        camera=CameraSetup(webcam.open, webcam, settings=FeedSettings(stall_after=0.5)),
        game=new_game(xdg),
    )

    async def play() -> None:
        async with app.run_test(size=SIZE) as pilot:
            screen = game_screen(app)
            await until(pilot, lambda: rolls(screen))
            webcam.away.set()
            await until(pilot, lambda: app.camera_status.state == shown)
            webcam.away.clear()
            await until(pilot, lambda: app.camera_status.state == "settled")
            await pilot.pause(0.3)
            assert rolls(screen) == [("Ann", (3,), (5,), "camera")]
            assert screen.pending is None and screen.session.expectation().player == "Ben"

    asyncio.run(play())


def test_the_last_throws_dice_settled_again_after_a_hand_passed_are_offered_not_entered(xdg: Path) -> None:
    """A hand reaching over the table withdrew Ann's dice, and the same dice in the same places settled as
    Ben's throw, entered unasked. They are offered, saying why."""
    webcam = Webcam("hand")
    app = CompanionApp(camera=CameraSetup(webcam.open, webcam), game=new_game(xdg))

    async def play() -> None:
        async with app.run_test(size=SIZE) as pilot:
            screen = game_screen(app)
            await until(pilot, lambda: rolls(screen))
            webcam.hand.set()
            await until(pilot, lambda: app.camera_status.state == "rolling")
            webcam.hand.clear()
            await until(pilot, lambda: app.camera_status.state == "settled")
            await until(pilot, lambda: screen.pending is not None)
            assert rolls(screen) == [("Ann", (3,), (5,), "camera")]
            assert "the last throw's dice, lying where they settled" in screen.message, screen.message

    asyncio.run(play())


def test_undo_drops_the_cameras_offer_in_roll_and_write(xdg: Path) -> None:
    """Ben's unsure throw is offered; Ann's roll undone, k no longer enters Ben's dice as Ann's."""

    async def play() -> None:
        app = camera_app(new_game(xdg))
        async with app.run_test(size=SIZE) as pilot:
            screen = game_screen(app)
            await pilot.press("y", "2", "b", "2", "enter")
            await settle(pilot, pips(("yellow", 6, 0.55), ("blue", 1, 0.99)))
            assert "k accepts y6 b1" in screen.message
            await pilot.press("ctrl+z")
            await pilot.pause()
            await pilot.press("k")
            await pilot.pause()
            assert rolls(screen) == [] and "no camera reading to accept" in screen.message
            await pilot.press("ctrl+y", "k")
            await pilot.pause()
            assert rolls(screen) == [("Ann", (2,), (2,), "keyboard")]

    asyncio.run(play())


def test_undo_drops_the_cameras_offer_in_the_dice_game(xdg: Path) -> None:
    """Ann's roll entered by the camera; her next throw offered, unsure of every die (named once a face);
    undone, ctrl+k does not enter that throw as her first roll."""

    async def play() -> None:
        async with camera_app(None).run_test(size=SIZE) as pilot:
            screen = await start_named(pilot, ["Ann", "Ben", "Cleo"], "f8", AlhambraDiceScreen)
            await type_entry(pilot, AlhambraDiceScreen, TILES)
            await settle(pilot, symbols(["tower"] * 5 + ["garden"] * 3))
            assert screen.session.events[-1] == ad.Rolled("Ann", (0, 0, 0, 0, 3, 5))
            await settle(pilot, symbols(["tower"] * 6 + ["pavilion"] * 2, sure=0.6))
            assert "unsure of 2 pavilion (60%), 6 tower (60%). ctrl+k" in screen.message
            await pilot.press("ctrl+z")
            await pilot.pause()
            await pilot.press("ctrl+k")
            await pilot.pause()
            assert not any(isinstance(e, ad.Rolled) for e in screen.session.events)
            assert "no camera reading to accept" in screen.message

    asyncio.run(play())


def test_a_sure_throw_while_a_roll_is_typed_is_offered_and_the_typing_goes_in(xdg: Path) -> None:
    async def play() -> None:
        app = camera_app(new_game(xdg))
        async with app.run_test(size=SIZE) as pilot:
            screen = game_screen(app)
            await pilot.press("y", "4")
            await settle(pilot, pips(("yellow", 3, 0.99), ("blue", 5, 0.99)))
            assert rolls(screen) == [] and "y4 being typed. k accepts y3 b5" in screen.message
            await pilot.press("b", "5", "enter")
            await pilot.pause()
            assert rolls(screen) == [("Ann", (4,), (5,), "keyboard")]
            typed = screen.session.events[-1]
            assert isinstance(typed, rw.Roll) and typed.note == "camera read y3 b5"

    asyncio.run(play())


def test_a_sure_throw_while_the_dice_game_is_typed_in_is_offered_and_the_typing_kept(xdg: Path) -> None:
    """Roll & Write offered a sure throw while a roll was typed; the dice games entered it over the typing."""

    async def play() -> None:
        async with camera_app(None).run_test(size=SIZE) as pilot:
            screen = await start_named(pilot, ["Ann", "Ben", "Cleo"], "f8", AlhambraDiceScreen)
            await type_entry(pilot, AlhambraDiceScreen, TILES)
            await pilot.press(*"0 0 0 0 4 4")
            await settle(pilot, symbols(["tower"] * 5 + ["garden"] * 3))
            assert not any(isinstance(e, ad.Rolled) for e in screen.session.events)
            assert "'0 0 0 0 4 4' being typed. ctrl+k accepts 3 gardens, 5 towers" in screen.message
            await pilot.press("enter")
            await pilot.pause()
            assert screen.session.events[-1] == ad.Rolled("Ann", (0, 0, 0, 0, 4, 4))

    asyncio.run(play())


def test_an_unsure_carcassonne_throw_names_the_roll_ctrl_k_enters(xdg: Path) -> None:
    """The question listed the taught faces read (`3 city2, 2 catapult, 1 city3, …`); the roll ctrl+k then
    entered counts every city face as one: the players had to add them up to check it."""
    taught = ("city1", "city2", "city3", "knight", "catapult")
    city = (frozenset("NS"),)  # a city face has an area of art reaching its sides
    faces_taught = tuple(
        TaughtFace(face, (), 0.5, city if face.startswith("city") else ()) for face in taught
    )
    profile = SymbolProfile(faces_taught, (80.0, 0.0, 0.0), 0.1)
    faces = ["city2", "city2", "city2", "city1", "city3", "knight", "catapult", "catapult", "city1"]

    async def play() -> None:
        async with camera_app(None, symbols=profile).run_test(size=SIZE) as pilot:
            screen = await start_named(pilot, ["Ann", "Ben"], "f9", CarcassonneDiceScreen)
            reading = symbols(faces)
            unsure = replace(reading.dice[-1], confidence=0.6)
            await settle(pilot, DiceReading((*reading.dice[:-1], unsure), 0.0))
            assert not any(isinstance(e, cd.Rolled) for e in screen.session.events)
            assert "ctrl+k accepts 6 city, 1 knight, 2 catapults, or type the roll" in screen.message
            await pilot.press("ctrl+k")
            await pilot.pause()
            rolled = screen.session.events[-1]
            assert isinstance(rolled, cd.Rolled) and (rolled.city, rolled.knights, rolled.catapults) == (
                6,
                1,
                2,
            )

    asyncio.run(play())


@pytest.mark.parametrize("over", ["f1", "ctrl+a"])
def test_a_throw_settling_under_another_screen_is_asked_about_on_coming_back(xdg: Path, over: str) -> None:
    """Help or advice over the game: the dice the camera settles on meanwhile are neither entered there nor
    lost, in both kinds of game: the players are asked about them when they come back."""

    async def play() -> None:
        app = camera_app(new_game(xdg))
        async with app.run_test(size=SIZE) as pilot:
            screen = game_screen(app)
            await pilot.press(over)
            await pilot.pause()
            assert pilot.app.screen is not screen
            await settle(pilot, pips(("yellow", 3, 0.99), ("blue", 5, 0.99)))
            assert rolls(screen) == []
            await pilot.press("escape")
            await pilot.pause()
            assert rolls(screen) == [] and "k accepts y3 b5" in screen.message
        async with camera_app(None).run_test(size=SIZE) as pilot:
            dice = await start_named(pilot, ["Ann", "Ben", "Cleo"], "f8", AlhambraDiceScreen)
            await type_entry(pilot, AlhambraDiceScreen, TILES)
            await pilot.press(over)
            await pilot.pause()
            assert pilot.app.screen is not dice
            await settle(pilot, symbols(["tower"] * 5 + ["garden"] * 3))
            assert not any(isinstance(e, ad.Rolled) for e in dice.session.events)
            await pilot.press("escape")
            await pilot.pause()
            assert not any(isinstance(e, ad.Rolled) for e in dice.session.events)
            assert "ctrl+k accepts 3 gardens, 5 towers" in dice.message

    asyncio.run(play())
