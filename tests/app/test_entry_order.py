"""Keys typed quickly on a dice game's entry line take effect in the order typed: each Enter enters what was
on the line as it was pressed, and undo and redo act after the entries typed before them.

The keys of each burst are posted at once, as they queue up while the app is busy (reading a camera's frame);
`Pilot.press` waits for each key to be handled, which hid the defect: Enter's entry reached the screen only
after the keys behind it, so it held the next entry's letters too, and ctrl+z or ctrl+y came before it."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from app_driver import make_app, start_named, type_entry
from textual import events
from textual.pilot import Pilot
from textual.widgets import Input

from companion.app.keys import BACK, REDO, UNDO
from companion.app.screens.alhambra_dice import AlhambraDiceScreen
from companion.app.screens.carcassonne_dice import CarcassonneDiceScreen
from companion.app.screens.event_game import EventGameScreen


@dataclass(frozen=True)
class Game:
    screen: type[EventGameScreen[Any, Any]]
    key: str
    names: list[str]
    setup: list[str]
    """What is typed before the first roll."""
    roll: str
    other_roll: str
    choice: str
    """An entry the roll allows (and only a roll)."""


GAMES = [
    Game(CarcassonneDiceScreen, "f9", ["Ann", "Ben"], [], "5 3 1", "4 3 2", "stop"),
    Game(
        AlhambraDiceScreen,
        "f8",
        ["Ann", "Ben", "Cy"],
        ["draw"],
        "3 1 1 1 1 1",
        "2 2 1 1 1 1",
        "place pavilion",
    ),
]


def line(text: str) -> list[events.Key]:
    """The keys of `text` typed, then Enter."""
    names = {" ": "space"}
    return [events.Key(names.get(c, c), c) for c in text] + [events.Key("enter", "\r")]


def key(name: str) -> list[events.Key]:
    return [events.Key(name, None)]


async def burst(pilot: Pilot[None], keys: list[events.Key]) -> None:
    """Post every key at once, then wait until the app has handled them all."""
    for pressed in keys:
        pilot.app.post_message(pressed)
    await pilot.wait_for_scheduled_animations()
    await pilot.pause()
    await pilot.pause()


@dataclass(frozen=True)
class Outcome:
    """The game's screen once a burst was handled."""

    events: list[Any]
    """The events entered after the game's set-up."""
    message: str
    error: bool
    entry: str
    redo: int


def play(game: Game, keys: list[list[events.Key]], typed: list[str], undo: bool = False) -> Outcome:
    """A new game of `game`: its set-up and `typed` entered one at a time (and the last undone with `undo`),
    then the keys sent as one burst."""

    async def run() -> Outcome:
        async with make_app(1).run_test(size=(120, 45)) as pilot:
            screen = await start_named(pilot, game.names, game.key, game.screen)
            for text in [*game.setup, *typed]:
                await type_entry(pilot, game.screen, text)
            if undo:
                await pilot.press(UNDO)
            await burst(pilot, [pressed for group in keys for pressed in group])
            session = screen.session
            return Outcome(
                session.events[1 + len(game.setup) :],
                screen.message,
                screen.error,
                screen.query_one("#entry", Input).value,
                len(session.redo_stack),
            )

    return asyncio.run(run())


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.screen.__name__)
def test_each_enter_enters_the_line_as_it_stood(xdg: Path, game: Game) -> None:
    played = play(game, [line(game.roll), line(game.choice)], [])
    assert (len(played.events), played.entry) == (2, ""), played.message


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.screen.__name__)
def test_an_undo_typed_after_an_entry_undoes_that_entry(xdg: Path, game: Game) -> None:
    played = play(game, [line(game.choice), key(UNDO)], [game.roll])
    assert (len(played.events), played.redo) == (1, 1), played.message
    assert played.message.startswith("undone:")


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.screen.__name__)
def test_a_redo_typed_after_a_new_entry_has_nothing_to_redo(xdg: Path, game: Game) -> None:
    played = play(game, [line(game.other_roll), key(REDO)], [game.roll], undo=True)
    assert played.message == "nothing to redo"
    assert played.events == play(game, [], [game.other_roll]).events


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.screen.__name__)
def test_a_refused_entry_stays_on_the_line_until_esc_clears_it(xdg: Path, game: Game) -> None:
    refused = play(game, [line("9 9 9")], [])
    assert (refused.events, refused.entry, refused.error) == ([], "9 9 9", True)
    played = play(game, [line("9 9 9"), key(BACK), line(game.roll)], [])
    assert (len(played.events), played.entry) == (1, ""), played.message
