"""Dice the camera settles on while another screen is over the game's (help, advice, past games) are read
when the players come back, as lying there, and asked about, never entered unasked: nobody saw them read.
Roll & Write offered them as dice "lying on the table before the game asked for dice", which they were not."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest
from app_driver import continue_first, make_app, new_game, pips, random_game, saved_game, start_named
from textual.pilot import Pilot

from companion.app.screens.alhambra_dice import AlhambraDiceScreen
from companion.app.screens.play import PlayScreen
from companion.app.screens.roll_and_write import RollAndWriteScreen
from companion.games import alhambra_dice as ad
from companion.games import alhambra_rw as rw
from companion.games.alhambra_dice.simulate import next_event
from companion.live.match import LOOKED_AWAY
from vision.reading import Box, DiceReading, Die


def towers(count: int) -> DiceReading:
    dice = (
        Die(Box(40 * n, 0, 40 * n + 30, 30), "symbol", "white", 0.97, face="tower", rotation=0)
        for n in range(count)
    )
    return DiceReading(tuple(dice), 0.0)


async def _opened(pilot: Pilot[None], game: str) -> tuple[PlayScreen, DiceReading]:
    if game == "roll-and-write":
        screen: PlayScreen = await new_game(pilot, ["Ann", "Ben", "Cleo"])
        exp = screen.session.expectation()
        return screen, pips(*[("yellow", 3, 0.99)] * exp.yellow, *[("blue", 5, 0.99)] * exp.blue)
    dice_game = await start_named(pilot, ["Ann", "Ben", "Cleo"], "f8", AlhambraDiceScreen)
    # The round's set-up first (its tiles laid): then Ann rolls.
    assert dice_game.enter(next_event(ad.fold(dice_game.session.events), random.Random(2))), dice_game.message
    await pilot.pause()
    return dice_game, towers(8)


@pytest.mark.parametrize("game", ["roll-and-write", "alhambra-dice"])
def test_dice_settled_behind_the_help_are_asked_about_when_the_players_come_back(
    xdg: Path, game: str
) -> None:
    seen: dict[str, object] = {}

    async def play() -> None:
        async with make_app().run_test(size=(110, 34)) as pilot:
            screen, reading = await _opened(pilot, game)
            events = len(screen.session.events)
            await pilot.press("f1")
            await pilot.pause()
            screen.table_settled(reading)
            await pilot.pause()
            seen["behind"] = (len(screen.session.events) - events, screen.pending)
            await pilot.press("escape")
            await pilot.pause()
            assert pilot.app.screen is screen
            seen["back"] = (len(screen.session.events) - events, screen.pending is not None, screen.message)

    asyncio.run(play())
    assert seen["behind"] == (0, None), "nothing is read while the players look at another screen"
    entered, offered, said = seen["back"]  # type: ignore[misc]
    assert (entered, offered) == (0, True) and LOOKED_AWAY in said, said


def test_dice_settled_behind_the_help_that_are_no_roll_asked_for_are_left_unsaid(xdg: Path) -> None:
    """Back from the help, stray dice settled meanwhile while the game waited for a choice were said in red
    ("dice seen, but none expected now"), as a fault of what the players did; left unsaid, as dice lying
    there when the game comes to ask for a roll are left unless they are all its dice."""
    events = random_game(2, ("Ann", "Ben", "Cleo"))
    at = next(n for n in range(2, len(events)) if rw.expectation(rw.replay(events[:n])).ask is rw.Ask.ACTION)
    path = saved_game(events[:at], "choosing.jsonl")
    seen: list[object] = []

    async def play() -> None:
        async with make_app().run_test(size=(110, 34)) as pilot:
            _, screen = await continue_first(pilot, RollAndWriteScreen, path)
            said = screen.message
            await pilot.press("f1")
            await pilot.pause()
            screen.table_settled(pips(("yellow", 2, 0.99), ("blue", 6, 0.99)))
            await pilot.press("escape")
            await pilot.pause()
            seen.extend([said, screen.message, screen.error, screen.pending])

    asyncio.run(play())
    before, after, error, pending = seen
    assert (after, error, pending) == (before, False, None), after
