"""The live table in the app: readings fill the sheet, unsure ones are confirmed or fixed, faults survived."""

from __future__ import annotations

import random
from datetime import datetime
from pathlib import Path

from live_driver import choice, play_by_camera, script, synchronous

from companion.app.app import CameraSetup, CompanionApp
from companion.app.widgets.camera_panel import CameraPanel
from companion.games import alhambra_rw as rw
from companion.games.alhambra_rw.entry import RULES, RollAndWriteSession
from companion.games.alhambra_rw.log import write_log
from companion.games.alhambra_rw.simulate import random_decision
from companion.games.session import Session
from companion.live.frames import load_frame
from vision.reading import Box, DiceReading, Die
from vision.simulated_table.rolling import RollingTable
from vision.sources import FrameSource, SourceError

NOW = datetime(2026, 11, 23, 20, 0)


def new_session(tmp_path: Path, setup: rw.GameStarted) -> RollAndWriteSession:
    return Session.create(RULES, tmp_path / "games", setup, NOW)


class TableReader:
    """Reads a rendered table from its truth (the models are tested elsewhere; here the app is)."""

    def __init__(self, table: RollingTable) -> None:
        self.table = table

    def read(self, image: object) -> DiceReading:
        return DiceReading(tuple(Die(d.box, "pip", d.color, 0.99, d.value) for d in self.table.truth), 0.0)


@synchronous
async def test_dice_thrown_on_the_table_fill_the_sheet_and_the_log(tmp_path: Path) -> None:
    plan = script(throws=6, seed=2)
    table = RollingTable(seed=2, realtime=True, fps=60, roll_frames=6, idle_frames=None)
    session = resumed_session(tmp_path, plan.before)
    app = CompanionApp(
        rng=random.Random(0),
        auto_imaginary=False,
        camera=CameraSetup(lambda: table, TableReader(table)),
        game=session,
    )
    async with app.run_test(size=(100, 32)) as pilot:
        await play_by_camera(app, pilot, len(plan.events), timeout=30, table=table, throws=plan.throws)
        assert tuple(session.events) == plan.events
        rolls = [e for e in session.events[len(plan.before) :] if isinstance(e, rw.Roll)]
        assert {r.source for r in rolls} == {"camera"}
        assert session.state == rw.replay(plan.events)
    table.close()
    assert app.feed is not None and not app.feed.running
    on_disk = rw.load_log(session.path)
    assert on_disk.events == plan.events
    rolls = [e for e in on_disk.events[len(plan.before) :] if isinstance(e, rw.Roll)]
    assert [r.source for r in rolls] == ["camera"] * len(plan.throws)
    # The path the in-app demos take: the camera's thread hands over the settled frame with the reading.
    assert [r.frame for r in rolls] == [f"{n:04d}.jpg" for n in range(1, len(rolls) + 1)]
    shown = load_frame(session.path, rolls[-1].frame)
    values = sorted([*rolls[-1].yellow, *rolls[-1].blue])
    assert shown.image is not None and sorted(d.value for d in shown.dice) == values


def resumed_session(tmp_path: Path, before: tuple[rw.Event, ...]) -> RollAndWriteSession:
    """A game whose set-up was played before (by keys): the camera takes over for the turns."""
    path = tmp_path / "game.jsonl"
    write_log(path, list(before))
    return Session.resume(RULES, path)


def reading(*dice: tuple[str, int, float]) -> DiceReading:
    return DiceReading(
        tuple(Die(Box(10 * i, 0, 10 * i + 8, 8), "pip", c, conf, v) for i, (c, v, conf) in enumerate(dice)),
        0.0,
    )


@synchronous
async def test_an_unsure_reading_waits_for_one_key_and_the_log_keeps_what_the_camera_read(
    tmp_path: Path,
) -> None:
    setup = rw.GameStarted(rw.load_shipped_sheet("example"), ("Barbara", "Dirk", "Patricia"))
    session = new_session(tmp_path, setup)
    app = CompanionApp(
        rng=random.Random(0), camera=CameraSetup(_never_opens, TableReader(RollingTable())), game=session
    )
    async with app.run_test(size=(100, 32)) as pilot:
        screen = app.roll_and_write_screen()
        assert screen is not None
        screen.put_to_game(reading(("yellow", 3, 0.55), ("blue", 5, 0.97)))
        await pilot.pause()
        assert len(session.events) == 1 and "unsure of y3" in screen.message
        await pilot.press("k")
        roll = session.events[-1]
        assert roll == rw.Roll("Barbara", (3,), (5,)) and roll.source == "camera"
        assert "camera read y3 b5; accepted" in roll.note
        # Too many dice: the players fix it by typing; the log keeps the camera's reading.
        screen.put_to_game(reading(("yellow", 2, 0.99), ("yellow", 4, 0.99), ("blue", 1, 0.99)))
        await pilot.pause()
        assert "2 yellow dice seen, 1 expected" in screen.message
        await pilot.press("y", "4", "b", "1", "enter")
        roll = session.events[-1]
        assert roll == rw.Roll("Dirk", (4,), (1,)) and roll.source == "keyboard"
        assert roll.note == "camera read y2 y4 b1"
        # A reading that fits and is sure goes straight in.
        screen.put_to_game(reading(("blue", 6, 0.99), ("yellow", 1, 0.93)))
        await pilot.pause()
        assert session.events[-1] == rw.Roll("Patricia", (1,), (6,))
    assert [e.note for e in rw.load_log(session.path).events if isinstance(e, rw.Roll)][:2] == [
        "camera read y3 b5; accepted: unsure of y3 (55%)",
        "camera read y2 y4 b1",
    ]


@synchronous
async def test_with_auto_roll_off_a_throw_seen_before_the_game_asks_for_dice_is_offered_when_it_does(
    tmp_path: Path,
) -> None:
    plan = script(throws=1, seed=7)
    session = resumed_session(tmp_path, plan.before)
    app = CompanionApp(
        rng=random.Random(0),
        auto_imaginary=False,
        camera=CameraSetup(_never_opens, TableReader(RollingTable())),
        game=session,
    )
    async with app.run_test(size=(100, 32)) as pilot:
        screen = app.roll_and_write_screen()
        assert screen is not None
        assert not session.expectation().yellow + session.expectation().blue
        # The dice land while the players are still choosing: seen, but the game does not want them yet.
        screen.table_settled(reading(("yellow", 4, 0.99), ("blue", 2, 0.99)))
        await pilot.pause()
        assert "none expected now" in screen.message
        while not session.expectation().yellow + session.expectation().blue:
            assert screen.decide(choice(rw.Game.from_state(screen.state))), screen.message
        await pilot.pause()
        # Now the game asks for dice: the ones lying there are offered for a key, not taken unasked.
        assert screen.pending is not None and "lying on the table" in screen.message, screen.message
        rolled = len(session.events)
        await pilot.press("k")
        assert len(session.events) == rolled + 1
        roll = session.events[-1]
        assert isinstance(roll, rw.Roll) and (roll.yellow, roll.blue) == ((4,), (2,))


def _never_opens() -> FrameSource:
    raise SourceError("camera 0 did not open: is it plugged in, and not in use by another program?")


@synchronous
async def test_a_camera_that_does_not_open_is_shown_and_the_game_goes_on_by_keys(tmp_path: Path) -> None:
    setup = rw.GameStarted(rw.load_shipped_sheet("example"), ("Barbara", "Dirk", "Patricia"))
    session = new_session(tmp_path, setup)
    app = CompanionApp(
        rng=random.Random(0), camera=CameraSetup(_never_opens, TableReader(RollingTable())), game=session
    )
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause(0.3)
        status = app.screen.query_one(CameraPanel).status
        assert (
            status.state == "camera lost" and "did not open" in status.detail and status.retry_in is not None
        )
        assert "camera&#160;lost" in app.export_screenshot()
        await pilot.press("y", "2", "b", "6", "enter")
        assert session.events[-1] == rw.Roll("Barbara", (2,), (6,))
        await pilot.press("ctrl+q")
    assert app.feed is not None and not app.feed.running


@synchronous
async def test_the_pair_left_on_the_table_after_rolling_all_four_proposes_the_kept_pair(
    tmp_path: Path,
) -> None:
    setup = rw.GameStarted(rw.load_shipped_sheet("example"), ("Barbara", "Dirk", "Patricia"))
    game, events = rw.Game(setup), [setup]
    rng = random.Random(4)
    while game.ask is not rw.Ask.KEEP_PAIR:
        event = random_decision(game, rng)
        game.apply(event)
        events.append(event)
    player = game.state.active_player
    session = resumed_session(tmp_path, tuple(events))
    app = CompanionApp(
        rng=random.Random(0), camera=CameraSetup(_never_opens, TableReader(RollingTable())), game=session
    )
    async with app.run_test(size=(100, 32)) as pilot:
        screen = app.roll_and_write_screen()
        assert screen is not None
        # The player took yellow[0] and blue[1] off the table; the other two dice wait for the neighbour.
        screen.put_to_game(reading(("yellow", player.yellow[1], 0.99), ("blue", player.blue[0], 0.99)))
        await pilot.pause()
        assert f"y{player.yellow[0]} b{player.blue[1]} taken off the table" in screen.message
        await pilot.press("k")
        assert session.events[-1] == rw.KeepPair(player.name, player.yellow[0], player.blue[1])
