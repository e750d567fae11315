"""Drives the companion app through keys, as a player at the table would press them.

The test plays the part of the players: it looks at what the app shows (the session's state, as drawn on
screen) and presses keys; it decides nothing about the rules (illegal keys would show the engine's reason).
"""

from __future__ import annotations

import io
import os
import random
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any, TypeVar

from rich.console import Console
from textual import events
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import Input, OptionList, Static

from companion.app import paths
from companion.app.app import CameraSetup, CompanionApp
from companion.app.screens.event_game import EventGameScreen
from companion.app.screens.help import HelpScreen
from companion.app.screens.new_game_form import MAX_PLAYERS
from companion.app.screens.roll_and_write import RollAndWriteScreen
from companion.app.screens.roll_and_write_end import RollAndWriteEndScreen
from companion.games import alhambra_rw as rw
from companion.games.alhambra_rw.log import write_log
from companion.games.alhambra_rw.simulate import play_random_game
from vision.reading import Box, DiceReading, Die
from vision.sources import FrameSource, SourceError
from vision.symbols.profile import SymbolProfile

FIXED_NOW = datetime(2026, 11, 23, 20, 15, 0)
S = TypeVar("S", bound=Screen[None])
G = TypeVar("G", bound=EventGameScreen[Any, Any])


def text_of(panel: Static, width: int = 1000) -> str:
    """What a panel shows, as text a line at a time, drawn `width` wide (by default unwrapped)."""
    console = Console(width=width, file=io.StringIO(), record=True)
    console.print(panel.content)
    return "\n".join(line.rstrip() for line in console.export_text().splitlines())


def wrapped_under(text: str, shown: list[str]) -> list[tuple[str, list[int]]]:
    """Each line of `text` with the columns its wrapped rest starts at in `shown`, checking that the lines
    shown are the text's, in order, every word whole."""
    found = []
    at = 0
    for line in text.splitlines():
        start = len(line) - len(line.lstrip())
        words = " ".join(line.split())
        said = " ".join(shown[at].split())
        assert words.startswith(said) and shown[at].startswith(" " * start + said[:1]), f"{shown[at]!r} moved"
        at += 1
        rest = []
        while len(said) < len(words):
            rest.append(len(shown[at]) - len(shown[at].lstrip()))
            said += " " + " ".join(shown[at].split())
            at += 1
        assert said == words, f"{line!r} shown as {said!r}"
        found.append((line, rest))
    return found


def make_app(seed: int = 7) -> CompanionApp:
    return CompanionApp(rng=random.Random(seed), now=lambda: FIXED_NOW)


def random_game(seed: int, players: tuple[str, ...], imaginary: tuple[str, ...] = ()) -> list[rw.Event]:
    """The events of a whole game played at random by the engine's own random player."""
    setup = rw.GameStarted(rw.load_shipped_sheet("example"), players, imaginary)
    return play_random_game(setup, random.Random(seed))[1]


def saved_game(events: list[rw.Event], name: str) -> Path:
    """An Alhambra Roll & Write game log in the (test's) XDG data dir, last played at FIXED_NOW."""
    return _saved(name, lambda path: write_log(path, events))


def saved_log(text: str, name: str) -> Path:
    """A game log of any game, as its `log_text` gives it, saved as `saved_game` saves one."""
    return _saved(name, lambda path: path.write_text(text))


def _saved(name: str, write: Callable[[Path], object]) -> Path:
    folder = paths.games_dir()
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    write(path)
    os.utime(path, (FIXED_NOW.timestamp(), FIXED_NOW.timestamp()))
    return path


async def type_entry(pilot: Pilot[None], kind: type[Screen[None]], text: str) -> str:
    """Type a line into the entry of the game screen (of `kind`), press Enter; returns the message shown."""
    screen = pilot.app.screen
    assert isinstance(screen, kind)
    screen.query_one("#entry", Input).value = text
    await pilot.press("enter")
    return str(screen.query_one("#message", Static).render())


async def continue_first(pilot: Pilot[None], kind: type[G], path: Path) -> tuple[str, G]:
    """The start screen's first saved game as it is listed, and its screen once Enter continues it: a
    screen of `kind` playing the log at `path`."""
    listed = str(pilot.app.screen.query_one("#saved", OptionList).get_option_at_index(0).prompt)
    await pilot.press("enter")
    await pilot.pause()
    screen = pilot.app.screen
    assert isinstance(screen, kind) and screen.session.path == path
    return listed, screen


async def start_named(pilot: Pilot[None], names: list[str], key: str, kind: type[S]) -> S:
    """Type the players' names on the start screen and press the game's key; the game's screen."""
    for n, name in enumerate(names):
        pilot.app.screen.query_one(f"#name{n + 1}", Input).value = name
    await pilot.pause()
    await pilot.press(key)
    await pilot.pause()
    screen = pilot.app.screen
    assert isinstance(screen, kind)
    return screen


CHARACTERS = {"enter": "\r", "plus": "+", "minus": "-", "tab": "\t", "backspace": "\x7f", "escape": "\x1b"}


async def send_keys(pilot: Pilot[None], keys: list[str]) -> None:
    """Press `keys` as one burst (a fast typist), then wait until the app has handled them all.

    `Pilot.press` waits for the process to go idle after every single key (40 ms or more each); a whole
    game is hundreds of presses, so one decision's keys go in together, and the wait is for the app's and
    screen's message queues to be worked through. The game screen handles each key completely before the
    next one, so the result is the same as pressing them one by one.
    """
    for key in keys:
        pilot.app.post_message(events.Key(key, CHARACTERS.get(key, key if len(key) == 1 else None)))
    await pilot.wait_for_scheduled_animations()


def game_screen(app: CompanionApp) -> RollAndWriteScreen:
    screen = app.roll_and_write_screen()
    assert screen is not None, f"no game screen; the screen is {app.screen!r}"
    return screen


async def new_game(pilot: Pilot[None], names: list[str], variant_downs: int = 0) -> RollAndWriteScreen:
    """On the start screen: type the names (tab between them), tab to the variant and pick it, F5 starts."""
    keys: list[str] = []
    for n, name in enumerate(names):
        if n:
            keys.append("tab")
        keys.extend(name)
    if variant_downs:
        # From the last name: the remaining name fields, the start player, then the variant.
        keys += ["tab"] * (MAX_PLAYERS - len(names) + 2) + ["enter", *["down"] * variant_downs, "enter"]
    # Key by key: a burst would reach a name field before the tab's focus change (as in a real terminal).
    await pilot.press(*keys, "f5")
    await pilot.pause()
    return game_screen(pilot.app)  # type: ignore[arg-type]


def next_move(state: rw.GameState, rng: random.Random) -> tuple[list[str], rw.Event]:
    """What a player presses next (typed dice, a crossing's number, c, t, y3+, a pair to keep) and the
    event those keys must make."""
    exp = rw.expectation(state)
    name = exp.player or ""
    player = state.player(name) if name else None
    if exp.ask is rw.Ask.ACTION and player is not None:
        if exp.can_change_pips and rng.random() < 0.15:
            die = player.yellow[0]
            to = die + 1 if die < 6 else die - 1
            return ["y", str(die), "plus" if to > die else "minus"], rw.ChangePips(name, "yellow", die, to)
        crossings = rw.crossings(state)
        free = [n for n, c in enumerate(crossings, start=1) if not c.crossed]
        if free and rng.random() < 0.9:
            n = rng.choice(free)
            chosen = crossings[n - 1]
            return [str(n)], rw.CrossBuilding(name, chosen.yellow, chosen.blue)
        return ["c"], rw.TakeCoins(name)
    if exp.ask is rw.Ask.KEEP_PAIR:
        pairs = rw.legal_actions(state)
        n = rng.randint(1, len(pairs))
        return [str(n)], pairs[n - 1]
    second = exp.ask is rw.Ask.REROLL_USED_PAIR and exp.can_cross_second
    if second and player is not None and rng.random() < 0.5:
        return ["t"], rw.CrossBuilding(name, player.yellow[0], player.blue[0])
    if exp.yellow + exp.blue:
        yellow = tuple(rng.randint(1, 6) for _ in range(exp.yellow))
        blue = tuple(rng.randint(1, 6) for _ in range(exp.blue))
        keys = [key for v in yellow for key in ("y", str(v))] + [key for v in blue for key in ("b", str(v))]
        return [*keys, "enter"], rw.Roll(name, yellow, blue)
    raise AssertionError(f"nothing to press for {exp}")


def next_keys(screen: RollAndWriteScreen, rng: random.Random) -> list[str]:
    return next_move(screen.session.state, rng)[0]


def waits_for_app(state: rw.GameState) -> bool:
    """The app itself rolls next (an imaginary player's dice, auto-roll), so the values are unknown."""
    exp = rw.expectation(state)
    return exp.player is not None and exp.yellow + exp.blue > 0 and state.player(exp.player).imaginary


async def play_to_end(pilot: Pilot[None], rng: random.Random, burst: int = 60) -> RollAndWriteEndScreen:
    """Play until the end screen shows. The keys of several moves go in one burst; the test follows the
    game with the engine to know which keys come next, and checks after each burst that the app made
    exactly the events those keys stand for."""
    app = pilot.app
    for _ in range(1000):
        if isinstance(app.screen, RollAndWriteEndScreen):
            return app.screen
        screen = game_screen(app)  # type: ignore[arg-type]
        expected, done = screen.session.state, len(screen.session.events)
        keys: list[str] = []
        made: list[rw.Event] = []
        for _ in range(burst):
            if expected.is_over or waits_for_app(expected):
                break
            move, event = next_move(expected, rng)
            keys += move
            made.append(event)
            expected = rw.apply(expected, event)
        await send_keys(pilot, keys)
        assert screen.session.events[done : done + len(made)] == made, screen.message
    raise AssertionError("the game did not end")


def _never_opens() -> FrameSource:
    raise SourceError("no camera here: the test hands the app what the camera settled on")


class NoReader:
    def read(self, image: object) -> DiceReading:
        return DiceReading((), 0.0)


def camera_app(session: Any, keep_frames: bool = True, symbols: SymbolProfile | None = None) -> CompanionApp:
    """The app playing `session` with a camera set up that never opens (its dice taught as `symbols`): the
    test hands it what the camera settled on."""
    return CompanionApp(
        rng=random.Random(0),
        camera=CameraSetup(_never_opens, NoReader(), symbols=symbols),
        game=session,
        keep_frames=keep_frames,
    )


async def help_text(pilot: Pilot[None]) -> str:
    """F1's page of the screen on top, as text; the page is closed again."""
    await pilot.press("f1")
    await pilot.pause()
    assert isinstance(pilot.app.screen, HelpScreen)
    console = Console(width=300, record=True, file=io.StringIO())
    for shown in pilot.app.screen.query(Static):
        console.print(shown.content)
    text = console.export_text()
    await pilot.press("escape")
    return text


def pips(*dice: tuple[str, int, float]) -> DiceReading:
    """A reading of pip dice side by side, as the camera gives one: (colour, value, confidence) each."""
    return DiceReading(
        tuple(
            Die(Box(40 + 60 * n, 40, 90 + 60 * n, 90), "pip", colour, sure, value)
            for n, (colour, value, sure) in enumerate(dice)
        ),
        0.0,
    )
