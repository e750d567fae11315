"""Scripted games for the live-table tests: the dice to throw, and the players' choices, known in advance."""

from __future__ import annotations

import asyncio
import functools
import random
import threading
import time
from collections.abc import Callable, Coroutine, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol

from textual.pilot import Pilot

from companion.app.app import CompanionApp
from companion.app.roll_and_write_input import PipDie
from companion.games import alhambra_rw as rw
from vision.reading import DiceReading, Frame, Image
from vision.simulated_table.rolling import Throw
from vision.sources import VideoFileSource


def choice(game: rw.Game) -> rw.Event:
    """The players' fixed habit: cross the first free crossing, else take coins; keep the first pair."""
    name = game.names[game.active]
    if game.ask is rw.Ask.KEEP_PAIR:
        return game.legal_actions()[0]
    free = [c for c in game.crossings() if not c.crossed]
    return rw.CrossBuilding(name, free[0].yellow, free[0].blue) if free else rw.TakeCoins(name)


@dataclass(frozen=True)
class Script:
    """A solo game (1 player, 2 imaginary): the set-up as played before, then turns whose dice are thrown
    on the table; `events` ends where the last throw's turn ends."""

    before: tuple[rw.Event, ...]
    events: tuple[rw.Event, ...]
    throws: tuple[Throw, ...]


def script(throws: int, seed: int = 0) -> Script:
    setup = rw.GameStarted(rw.load_shipped_sheet("example"), ("Barbara",), ("Marc", "Nora"))
    game = rw.Game(setup)
    rng = random.Random(seed)
    events: list[rw.Event] = [setup]
    before: tuple[rw.Event, ...] = ()
    thrown: list[Throw] = []
    while len(thrown) < throws or not game.expectation().yellow + game.expectation().blue:
        exp = game.expectation()
        if exp.ask is rw.Ask.ACTION and not before:
            before = tuple(events)
        if exp.yellow + exp.blue:
            yellow = tuple(rng.randint(1, 6) for _ in range(exp.yellow))
            blue = tuple(rng.randint(1, 6) for _ in range(exp.blue))
            event: rw.Event = rw.Roll(exp.player or "", yellow, blue)
            if before:
                thrown.append([("yellow", v) for v in yellow] + [("blue", v) for v in blue])
        else:
            event = choice(game)
        game.apply(event)
        events.append(event)
    return Script(before, tuple(events), tuple(thrown))


class Table(Protocol):
    def throw(self, dice: Throw) -> object: ...


class ThrownWhenAsked:
    """A recorded game's video played as its players played: each throw after the first starts only once the
    game has asked for it (`throw`); until then, and after the video's end, the camera keeps seeing the dice
    lying still (the last frame again, at the video's frame rate). Played in real time regardless of the
    game, the video lost throws whenever the machine was too busy for the game to keep up with it."""

    def __init__(self, video: VideoFileSource, starts: Sequence[int]) -> None:
        """`video` read frame by frame (not in real time); `starts`: the frame at which each throw begins."""
        self._video = video
        self._starts = tuple(starts)
        self._asked = 0
        self._closed = threading.Event()

    def throw(self, dice: Throw) -> object:
        self._asked += 1
        return self._asked

    def close(self) -> None:
        self._closed.set()
        self._video.close()

    def __iter__(self) -> Iterator[Frame]:
        for shown, frame in enumerate(self._scenes()):
            time.sleep(1 / self._video.fps)
            yield replace(frame, time=shown / self._video.fps, index=shown)

    def _scenes(self) -> Iterator[Frame]:
        """The video's frames, with the last one again while the next throw waits and after the end."""
        last: Frame | None = None
        for frame in self._video:
            thrown = sum(start <= frame.index for start in self._starts)
            while last is not None and thrown > self._asked and not self._closed.is_set():
                yield last
            last = frame
            yield frame
        while last is not None and not self._closed.is_set():
            yield last


async def play_by_camera(
    app: CompanionApp,
    pilot: Pilot[None],
    want: int,
    timeout: float,
    table: Table | None = None,
    throws: Sequence[Throw] = (),
) -> None:
    """Make the players' choices whenever the game waits for one, until the log holds `want` events. With a
    rolling table, also throw the next scripted dice whenever the game asks for a roll. When the app asks
    the players to confirm what the camera read, they type the dice they threw (the app logs the fix)."""
    screen = app.roll_and_write_screen()
    assert screen is not None
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    thrown_at = -1
    to_throw = iter(throws)
    first = len(screen.session.events)
    while len(screen.session.events) < want:
        assert loop.time() < deadline, f"stuck at: {screen.session.expectation().prompt}; {screen.message}"
        exp = screen.session.expectation()
        if not exp.yellow + exp.blue:
            assert screen.decide(choice(rw.Game.from_state(screen.state))), screen.message
        elif screen.pending is not None and throws:
            done = sum(isinstance(e, rw.Roll) for e in screen.session.events[first:])
            dice = tuple(PipDie(c, v) for c, v in throws[done])  # type: ignore[arg-type]
            screen.enter_dice(dice, "keyboard")
        elif table is not None and thrown_at != len(screen.session.events):
            thrown_at = len(screen.session.events)
            table.throw(next(to_throw))
        await pilot.pause(0.02)


def synchronous(test: Callable[..., Coroutine[Any, Any, None]]) -> Callable[..., None]:
    """Run an async test body with asyncio (pytest keeps seeing the test's own arguments)."""

    @functools.wraps(test)
    def run(*args: Any, **kwargs: Any) -> None:
        asyncio.run(test(*args, **kwargs))

    return run


class EmptyReader:
    """A reader that sees no dice in any frame."""

    def read(self, image: Image) -> DiceReading:
        return DiceReading(dice=(), time=0.0)


class NeverSettles:
    """A settler to which no reading ever settles."""

    still_empty = False

    def update(self, frame: Frame, reading: DiceReading) -> None:
        return None


async def until(pilot: Pilot[Any], done: Callable[[], bool], seconds: float, what: str) -> None:
    """Wait, the app running, until `done()`; a test failure naming `what` after `seconds`."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while not done():
        assert loop.time() < deadline, f"waited {seconds:.0f} s for {what}"
        await pilot.pause(0.1)
