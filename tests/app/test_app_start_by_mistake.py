"""A game started by mistake (F9 pressed for Roll & Write) and left at once: not kept, and the form holds its
game and players again. Before, Esc gave an empty form (the names typed again) and the accidental game
stayed first in the saved games, highlighted, so that Enter reopened it; only `del` and `y` removed it."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from app_driver import make_app, start_named, type_entry
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import Input, OptionList, Select, Static

from companion.app import paths
from companion.app.screens.alhambra_dice import AlhambraDiceScreen
from companion.app.screens.alhambra_pad import AlhambraPadScreen
from companion.app.screens.carcassonne_dice import CarcassonneDiceScreen
from companion.app.screens.new_game_form import MAX_PLAYERS, variant_options
from companion.app.screens.roll_and_write import RollAndWriteScreen
from companion.app.screens.start import StartScreen
from companion.games import alhambra_dice as ad
from companion.games.alhambra_dice.simulate import next_event

SIZE = (110, 34)
NAMES = ["Ann", "Ben"]


async def roll_for_me(pilot: Pilot[None]) -> None:
    await pilot.press("r")


async def first_dice_move(pilot: Pilot[None]) -> None:
    screen = pilot.app.screen
    assert isinstance(screen, AlhambraDiceScreen)
    assert screen.enter(next_event(ad.fold(screen.session.events), random.Random(1)))


async def first_roll(pilot: Pilot[None]) -> None:
    await type_entry(pilot, CarcassonneDiceScreen, "5 3 1")


async def a_count(pilot: Pilot[None]) -> None:
    pilot.app.screen.query_one("#p0-pavilion", Input).value = "2"


GAMES: dict[str, tuple[str, type[Screen[None]], str, Callable[[Pilot[None]], Awaitable[None]]]] = {
    # The key, the game's screen, the form's game, one move.
    "Roll & Write": ("f5", RollAndWriteScreen, "roll_and_write", roll_for_me),
    "Alhambra dice": ("f8", AlhambraDiceScreen, "alhambra_dice", first_dice_move),
    "Carcassonne dice": ("f9", CarcassonneDiceScreen, "carcassonne_dice", first_roll),
    "Alcazaba": ("f10", AlhambraDiceScreen, "alcazaba", first_dice_move),
    "pad": ("f7", AlhambraPadScreen, "alhambra_pad", a_count),
}


def game_files() -> list[str]:
    return sorted(p.name for p in paths.games_dir().glob("*") if p.name.endswith((".jsonl", ".pad.json")))


async def leave(pilot: Pilot[None], game: str, moves: int) -> dict[str, object]:
    """Start `game` for Ann and Ben, make `moves` moves (0 or 1), press Esc: what the start screen shows."""
    key, kind, _, move = GAMES[game]
    await start_named(pilot, NAMES, key, kind)
    started = game_files()
    for _ in range(moves):
        await move(pilot)
        await pilot.pause()
    await pilot.press("escape")
    await pilot.pause()
    screen = pilot.app.screen
    assert isinstance(screen, StartScreen), screen
    saved = screen.query_one("#saved", OptionList)
    return {
        "started": len(started),
        "files": game_files(),
        "game": screen.query_one("#game", Select).value,
        "names": [screen.query_one(f"#name{n}", Input).value for n in range(1, MAX_PLAYERS + 1)],
        "listed": [str(saved.get_option_at_index(i).prompt) for i in range(saved.option_count)],
        "message": str(screen.query_one("#message", Static).render()),
    }


def left(game: str, moves: int) -> dict[str, object]:
    async def play() -> dict[str, object]:
        async with make_app().run_test(size=SIZE) as pilot:
            return await leave(pilot, game, moves)

    return asyncio.run(play())


@pytest.mark.parametrize("game", GAMES)
def test_a_game_left_with_nothing_played_is_not_kept_and_the_form_holds_it(xdg: Path, game: str) -> None:
    seen = left(game, 0)
    assert seen["started"] == 1, seen
    assert seen["files"] == [], seen
    assert seen["listed"] == ["no saved games yet"], seen
    assert seen["game"] == GAMES[game][2], seen
    assert seen["names"] == [*NAMES, "", "", "", ""], seen
    assert "· Ann, Ben" in str(seen["message"]), seen
    assert "nothing was played, not kept; the form holds its players" in str(seen["message"]), seen


@pytest.mark.parametrize("game", GAMES)
def test_a_game_left_after_a_move_is_kept_and_listed(xdg: Path, game: str) -> None:
    seen = left(game, 1)
    assert seen["files"] != [] and len(seen["files"]) == seen["started"] == 1, seen
    listed = seen["listed"]
    assert isinstance(listed, list) and len(listed) == 1 and "Ann, Ben" in listed[0], seen
    assert seen["names"] == [""] * MAX_PLAYERS, seen
    assert "not kept" not in str(seen["message"]), seen


def test_roll_and_write_comes_back_with_its_variant(xdg: Path) -> None:
    """The form holds the variant of the game left: Ann alone against imaginary players, not the first
    variant offered to one player."""
    offered = [value for _, value in variant_options(["Ann"])[0]]

    async def play() -> tuple[object, object]:
        async with make_app().run_test(size=SIZE) as pilot:
            start = pilot.app.screen
            start.query_one("#name1", Input).value = "Ann"
            await pilot.pause()
            start.query_one("#variant", Select).value = offered[-1]
            await pilot.pause()
            await pilot.press("f5")
            await pilot.pause()
            game = pilot.app.screen
            assert isinstance(game, RollAndWriteScreen)
            await pilot.press("escape")
            await pilot.pause()
            return (
                len(game.session.setup.imaginary),
                game.session.setup.variant,
            ), pilot.app.screen.query_one("#variant", Select).value

    started, back = asyncio.run(play())
    assert started == offered[-1] != offered[0]
    assert back == started
