"""The camera's evidence in the app: every roll the camera read keeps its frame beside the log, and a player
opens it from the game's log, F4's history, the replay and the table's view, with the reader's boxes and
values drawn; exported with the game, deleted with it, off with --no-frames; a frame lost never stops the
game."""

from __future__ import annotations

import asyncio
import html
import io
import random
import zipfile
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from app_driver import FIXED_NOW, camera_app, make_app, pips, random_game, saved_game
from rich.console import Console
from test_app_layouts import SCREENS
from textual.pilot import Pilot
from textual.widgets import Footer, OptionList

from companion.app.app import CompanionApp
from companion.app.screens.alhambra_dice import AlhambraDiceScreen
from companion.app.screens.carcassonne_dice import CarcassonneDiceScreen
from companion.app.screens.evidence import EvidenceScreen
from companion.app.screens.replay import ReplayScreen
from companion.app.table_view import TableView
from companion.app.widgets.frame_view import FrameView
from companion.cli import main
from companion.games import alhambra_dice as ad
from companion.games import alhambra_rw as rw
from companion.games import carcassonne_dice as cd
from companion.games.alhambra.buildings import TYPES
from companion.games.alhambra_dice.entry import RULES as ALHAMBRA_DICE
from companion.games.alhambra_dice.simulate import next_event
from companion.games.alhambra_rw.entry import RULES
from companion.games.carcassonne_dice.entry import RULES as CARCASSONNE_DICE
from companion.games.eventlog import load_log
from companion.games.session import Session
from companion.live.frames import MAX_BYTES, Sighting, frames_dir, write_frame
from companion.saved_games import delete_game, game_files
from vision.reading import Box, DiceReading, Die

SIZE = (100, 32)


def settle(app: CompanionApp, reading: DiceReading) -> None:
    """What the camera's thread hands the app when dice settle: the frame and the reading, then the game."""
    image = np.full((240, 320, 3), 90, np.uint8)
    for die in reading.dice:
        image[int(die.box.y0) : int(die.box.y1), int(die.box.x0) : int(die.box.x1)] = 240
    app.table_seen = Sighting(image, reading)
    app.table_reading = reading


def new_game(tmp_path: Path) -> rw.GameStarted:
    return rw.GameStarted(rw.load_shipped_sheet("example"), ("Barbara", "Dirk", "Patricia"))


def shown_text(view: FrameView) -> str:
    """What the frame's view shows, as text (the picture's cells are half blocks; values are letters)."""
    console = Console(file=io.StringIO(), width=max(20, view.content_region.width), record=True)
    console.print(view.content)
    return console.export_text()


def test_every_roll_the_camera_read_keeps_its_frame_and_a_player_opens_it(tmp_path: Path) -> None:
    session = Session.create(RULES, tmp_path / "games", new_game(tmp_path), FIXED_NOW)
    seen: dict[str, Any] = {}

    async def play() -> None:
        app = camera_app(session)
        async with app.run_test(size=SIZE) as pilot:
            screen = app.roll_and_write_screen()
            assert screen is not None
            # Unsure: the players type the dice over the camera's reading; the frame stays with their roll.
            settle(app, unsure := pips(("yellow", 3, 0.55), ("blue", 5, 0.97)))
            screen.put_to_game(unsure)
            await pilot.press("y", "4", "b", "5", "enter")
            # Sure: entered unasked, with its frame.
            settle(app, sure := pips(("blue", 6, 0.99), ("yellow", 1, 0.93)))
            screen.put_to_game(sure)
            await pilot.pause()
            # Typed with no camera reading waiting: no frame.
            app.table_seen = None
            await pilot.press("y", "2", "b", "2", "enter")
            await pilot.press("ctrl+o")
            evidence = app.screen
            assert isinstance(evidence, EvidenceScreen)
            seen["moves"] = [e.caption for e in evidence.shown]
            await pilot.pause()
            seen["last"] = shown_text(evidence.query_one(FrameView))
            await pilot.press("up")
            seen["first"] = shown_text(evidence.query_one(FrameView))
            await pilot.press("escape")
            # A click on the first roll's line in the game log opens that move's frame: at this width the
            # game's first line takes two rows, the roll's two lines the next two.
            await pilot.click("#log", offset=(3, 4))
            seen["clicked"] = app.screen.at if isinstance(app.screen, EvidenceScreen) else None

    asyncio.run(play())
    rolls = [e for e in rw.load_log(session.path).events if isinstance(e, rw.Roll)]
    assert [(r.source, r.frame) for r in rolls] == [
        ("keyboard", "0001.jpg"),
        ("camera", "0002.jpg"),
        ("keyboard", ""),
    ]
    assert rolls[0].note == "camera read y3 b5" and (rolls[0].yellow, rolls[0].blue) == ((4,), (5,))
    folder = frames_dir(session.path)
    assert folder == session.path.with_name(session.path.stem + ".frames")
    assert all(0 < (folder / r.frame).stat().st_size <= MAX_BYTES for r in rolls[:2])
    assert seen["moves"] == [
        "move 1: Barbara rolled y4 b5: garden / (camera read y3 b5)",
        "move 2: Dirk rolled y1 b6 (camera): tower",
    ]
    assert "the reader saw b6 99%, y1 93%" in seen["last"]
    assert "the reader saw y3 55%, b5 97%" in seen["first"]
    assert "3" in seen["first"] and "5" in seen["first"], "the reader's values drawn on the picture"
    assert seen["clicked"] == 0


def test_a_frame_lost_never_stops_the_game_and_says_so(tmp_path: Path) -> None:
    session = Session.create(RULES, tmp_path / "games", new_game(tmp_path), FIXED_NOW)
    frames_dir(session.path).write_text("a file in the frames folder's place", encoding="utf-8")
    seen: dict[str, Any] = {}

    async def play() -> None:
        app = camera_app(session)
        async with app.run_test(size=SIZE) as pilot:
            screen = app.roll_and_write_screen()
            assert screen is not None
            for reading in (
                pips(("yellow", 3, 0.99), ("blue", 5, 0.99)),
                pips(("yellow", 1, 0.99), ("blue", 2, 0.99)),
            ):
                settle(app, reading)
                screen.put_to_game(reading)
                await pilot.pause()
            seen["told"] = [n.message for n in app._notifications]
            frames_dir(session.path).unlink()
            # The reader's file outlives the torn picture: what it saw is still said.
            write_frame(
                frames_dir(session.path), Sighting(np.zeros((60, 80, 3), np.uint8), pips(("yellow", 4, 0.93)))
            )
            (frames_dir(session.path) / "0001.jpg").write_bytes(b"\xff\xd8 cut off")
            session.events[1] = replace(session.events[1], frame="0001.jpg")  # the move names a torn frame
            await pilot.press("ctrl+o")
            await pilot.pause()
            assert isinstance(app.screen, EvidenceScreen)
            seen["torn"] = shown_text(app.screen.query_one(FrameView))

    asyncio.run(play())
    rolls = [e for e in rw.load_log(session.path).events if isinstance(e, rw.Roll)]
    assert [(r.yellow, r.blue, r.source, r.frame) for r in rolls] == [((3,), (5,), "camera", "")] * 1 + [
        ((1,), (2,), "camera", "")
    ]
    assert len([m for m in seen["told"] if "frame was not kept" in m]) == 1, seen["told"]
    assert "frame missing" in seen["torn"] and "torn" in seen["torn"]
    assert "the reader saw y4 93%" in seen["torn"], seen["torn"]


def test_a_roll_the_game_refuses_keeps_no_frame(tmp_path: Path) -> None:
    session = Session.create(RULES, tmp_path / "games", new_game(tmp_path), FIXED_NOW)

    async def play() -> None:
        app = camera_app(session)
        async with app.run_test(size=SIZE) as pilot:
            screen = app.roll_and_write_screen()
            assert screen is not None
            settle(app, unsure := pips(("yellow", 3, 0.55), ("blue", 5, 0.97)))
            screen.put_to_game(unsure)
            await pilot.press("y", "4", "enter")  # one die of the two: the game refuses it
            assert screen.error and "blue" in screen.message, screen.message
            assert not frames_dir(session.path).exists() or not any(frames_dir(session.path).iterdir())
            await pilot.press("b", "5", "enter")  # the blue die added: the roll goes in

    asyncio.run(play())
    rolls = [e for e in rw.load_log(session.path).events if isinstance(e, rw.Roll)]
    assert [(r.yellow, r.blue, r.frame) for r in rolls] == [((4,), (5,), "0001.jpg")]
    assert sorted(p.name for p in frames_dir(session.path).iterdir()) == ["0001.jpg", "0001.json"]


def test_a_carcassonne_roll_read_at_a_demos_table_keeps_the_picture_it_was_read_in(tmp_path: Path) -> None:
    """The Carcassonne demo's players hand each roll over with the picture it was read in, and no camera: the
    roll keeps it; one the game refuses keeps none."""
    session = Session.create(CARCASSONNE_DICE, tmp_path / "games", cd.GameStarted(("Ann", "Ben")), FIXED_NOW)
    faces = ["city1", "city2", "city3", "city1", "city2", "city4", "knight", "knight", "catapult"]
    dice = tuple(
        Die(Box(30 * i, 10, 30 * i + 25, 35), "symbol", "white", 0.95, face=f) for i, f in enumerate(faces)
    )
    seen = Sighting(np.full((60, 290, 3), 90, np.uint8), DiceReading(dice, 0.0))
    shown: dict[str, Any] = {}

    async def play() -> None:
        app = CompanionApp(rng=random.Random(0), game=session)
        async with app.run_test(size=SIZE) as pilot:
            screen = app.screen
            assert isinstance(screen, CarcassonneDiceScreen)
            for name in ("Ben", "Ann"):
                rolled = cd.Rolled(name, 6, 2, 1, source="camera")
                screen.post_message(CarcassonneDiceScreen.FromTable(rolled, "the camera read it", seen))
                await pilot.pause()
            await pilot.press("ctrl+o")
            await pilot.pause()
            assert isinstance(app.screen, EvidenceScreen)
            shown["frame"] = shown_text(app.screen.query_one(FrameView))

    asyncio.run(play())
    rolled = [e for e in load_log(session.path, CARCASSONNE_DICE.log).events if isinstance(e, cd.Rolled)]
    assert [(r.player, r.source, r.frame) for r in rolled] == [("Ann", "camera", "0001.jpg")]
    assert sorted(p.name for p in frames_dir(session.path).iterdir()) == ["0001.jpg", "0001.json"]
    assert "the reader saw city1 95%" in shown["frame"]


def test_no_frames_keeps_no_picture(tmp_path: Path) -> None:
    session = Session.create(RULES, tmp_path / "games", new_game(tmp_path), FIXED_NOW)

    async def play() -> None:
        app = camera_app(session, keep_frames=False)
        async with app.run_test(size=SIZE) as pilot:
            screen = app.roll_and_write_screen()
            assert screen is not None
            settle(app, reading := pips(("yellow", 3, 0.99), ("blue", 5, 0.99)))
            screen.put_to_game(reading)
            await pilot.pause()

    asyncio.run(play())
    (roll,) = [e for e in rw.load_log(session.path).events if isinstance(e, rw.Roll)]
    assert roll.source == "camera" and roll.frame == ""
    assert not frames_dir(session.path).exists()


def test_a_dice_games_roll_keeps_its_frame_and_is_exported_and_deleted_with_the_game(tmp_path: Path) -> None:
    session = Session.create(ALHAMBRA_DICE, tmp_path / "games", ad.GameStarted(("Ann", "Ben")), FIXED_NOW)
    faces = ["tower"] * 5 + ["garden"] * 3
    reading = DiceReading(
        tuple(
            Die(Box(30 * i, 10, 30 * i + 25, 35), "symbol", "white", 0.97, face=f)
            for i, f in enumerate(faces)
        ),
        0.0,
    )
    seen: dict[str, Any] = {}

    async def play() -> None:
        app = camera_app(session)
        async with app.run_test(size=SIZE) as pilot:
            screen = app.screen
            assert isinstance(screen, AlhambraDiceScreen)
            assert screen.enter(next_event(ad.fold(session.events), random.Random(5)))  # the round's tiles
            settle(app, reading)
            screen.table_settled(reading)
            await pilot.press("ctrl+e")
            seen["said"] = screen.message
            await pilot.press("ctrl+o")
            await pilot.pause()
            assert isinstance(app.screen, EvidenceScreen)
            seen["shown"] = shown_text(app.screen.query_one(FrameView))

    asyncio.run(play())
    rolled = [e for e in load_log(session.path, ALHAMBRA_DICE.log).events if isinstance(e, ad.Rolled)]
    assert [(r.dice[TYPES.index("tower")], r.source, r.frame) for r in rolled] == [(5, "camera", "0001.jpg")]
    assert "the reader saw tower 97%" in seen["shown"] and "tow" in seen["shown"]
    archive = session.path.with_name(session.path.stem + ".frames.zip")
    scores = [session.path.with_name(f"{session.path.stem}.score.{kind}") for kind in ("md", "json")]
    # Three files as the players say them, not "A and B and C".
    assert seen["said"] == f"exported the scoring so far to {scores[0]}, {scores[1]} and {archive}"
    with zipfile.ZipFile(archive) as zipped:
        assert sorted(zipped.namelist()) == [f"{session.path.stem}.frames/0001.{k}" for k in ("jpg", "json")]
    files = game_files(session.path)
    assert frames_dir(session.path) in files and archive in files
    delete_game(session.path)
    assert not frames_dir(session.path).exists() and not archive.exists() and not session.path.exists()


def finished_with_frames() -> tuple[Path, int]:
    """A finished Roll & Write game in the games folder whose first camera roll kept a frame."""
    events = random_game(2, ("Anna", "Ben", "Cleo"))
    move = next(n for n, e in enumerate(events) if isinstance(e, rw.Roll) and n > 5)
    image = np.full((240, 320, 3), 90, np.uint8)
    roll = events[move]
    assert isinstance(roll, rw.Roll)
    dice = pips(*(("yellow", v, 0.98) for v in roll.yellow), *(("blue", v, 0.98) for v in roll.blue))
    events[move] = replace(roll, source="camera", frame="0001.jpg")
    path = saved_game(events, "done.jsonl")
    assert write_frame(frames_dir(path), Sighting(image, dice)) == "0001.jpg"
    return path, move


def test_history_and_replay_show_a_finished_games_frames(xdg: Path) -> None:
    path, move = finished_with_frames()
    seen: dict[str, Any] = {}

    async def look() -> None:
        async with make_app().run_test(size=SIZE) as pilot:
            await pilot.press("f4", "o")
            await pilot.pause()
            evidence = pilot.app.screen
            assert isinstance(evidence, EvidenceScreen)
            seen["moves"] = evidence.query_one("#moves", OptionList).option_count
            seen["shown"] = shown_text(evidence.query_one(FrameView))
            await pilot.press("escape", "r", *["right"] * move)
            replay = pilot.app.screen
            assert isinstance(replay, ReplayScreen)
            await pilot.pause()
            view = replay.query_one("#frame", FrameView)
            seen["at move"] = (view.display, shown_text(view))
            await pilot.press("right")
            seen["after"] = view.display

    asyncio.run(look())
    assert seen["moves"] == 1 and "the reader saw" in seen["shown"]
    assert seen["at move"][0] and "the camera's frame of this roll" in seen["at move"][1]
    assert not seen["after"], "a move the camera did not read shows no frame"
    assert path.is_file()


def test_the_tables_view_shows_the_latest_rolls_frame(xdg: Path) -> None:
    path, move = finished_with_frames()
    seen: dict[str, Any] = {}

    async def watch(pilot: Pilot[Any]) -> None:
        app = pilot.app
        assert isinstance(app, TableView)
        await pilot.pause(0.2)
        view = app.query_one("#frame", FrameView)
        seen["frame"] = (view.display, shown_text(view))
        await pilot.press("q")

    assert main(["view", str(path)], pilot=watch) == 0
    assert seen["frame"][0] and f"the camera's latest roll (move {move})" in seen["frame"][1]
    assert "the reader saw" in seen["frame"][1]


@pytest.mark.parametrize("size", [(40, 20), (80, 24), (110, 34)], ids=["phone", "80x24", "110x34"])
def test_the_tables_view_keeps_the_final_scoring_in_view_above_the_frame(
    xdg: Path, size: tuple[int, int]
) -> None:
    """The frame had a fixed 14 rows: at 40x20 the game's state got 3 of them, the winner below them."""
    path, move = finished_with_frames()
    seen: dict[str, Any] = {}

    async def watch() -> None:
        app = TableView(path.parent, path)
        async with app.run_test(size=size) as pilot:
            await pilot.pause(0.2)
            view = app.query_one("#frame", FrameView)
            seen["frame"] = (view.display, view.outer_size.height)
            seen["shown"] = html.unescape(app.export_screenshot()).replace("\xa0", " ")

    asyncio.run(watch())
    shown, (displayed, height) = seen["shown"], seen["frame"]
    assert displayed and f"the camera's latest roll (move {move})" in shown, shown
    assert "Final scoring" in shown and "★" in shown, shown
    assert height <= 0.4 * size[1], height


@pytest.mark.parametrize("screen", ["roll_and_write", "alhambra_dice", "alcazaba", "carcassonne_dice"])
def test_the_frames_key_is_in_the_footer_where_it_fits_and_works_everywhere(xdg: Path, screen: str) -> None:
    save, reach = SCREENS[screen]
    save()
    seen: dict[str, Any] = {}

    async def look() -> None:
        app = make_app()
        async with app.run_test(size=(80, 24)) as pilot:
            await reach(pilot)
            footer = app.screen.query_one(Footer)
            await pilot.pause()
            keys = footer.query("FooterKey")
            seen["labels"] = [getattr(k, "description", "") for k in keys]
            seen["width"] = (sum(k.outer_size.width for k in keys), footer.size.width)
            await pilot.press("ctrl+o")
            seen["opened"] = isinstance(app.screen, EvidenceScreen)

    asyncio.run(look())
    used, room = seen["width"]
    assert used <= room, seen["labels"]
    # Roll & Write's dice keys fill its footer: F1 names ctrl+o there.
    assert ("frames" in seen["labels"]) == (screen != "roll_and_write")
    assert seen["opened"]
