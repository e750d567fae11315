"""Every game's screen and the table's view at the smallest terminal (80×24), a roomy one (110×34) and a
phone's browser (40 columns, `companion serve`): SVG snapshots in `__snapshots__` (updated with
--snapshot-update), looked at when made: nothing cut, no panel squeezed to nothing, the entry line shown."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from pathlib import Path

import pytest
from app_driver import make_app, random_game, saved_game, saved_log
from textual.app import App
from textual.pilot import Pilot
from textual.widgets import Input

from companion.app import paths
from companion.app.table_view import TableView
from companion.games import alhambra_dice as ad
from companion.games import carcassonne_dice as cd
from companion.games.alhambra_dice.events import ALCAZABA, STANDARD
from companion.games.alhambra_dice.scorefile import log_text as dice_log
from companion.games.alhambra_dice.simulate import play_random_game as dice_game
from companion.games.carcassonne_dice.scorefile import log_text as carcassonne_log
from companion.games.carcassonne_dice.simulate import play_random_game as carcassonne_game

SIZES = {"80x24": (80, 24), "110x34": (110, 34), "phone": (40, 80)}
NAME = "20261123-201500-ann-ben-cleo.jsonl"


def roll_and_write() -> None:
    saved_game(random_game(1, ("Anna", "Ben", "Cleo"))[:60], NAME)


def alhambra_dice(variant: str = STANDARD, moves: int | None = 80) -> None:
    events = dice_game(ad.GameStarted(("Ann", "Ben", "Cleo"), variant), random.Random(3))[1][:moves]
    saved_log(dice_log(events), NAME)


def carcassonne_dice() -> None:
    events = carcassonne_game(cd.GameStarted(("Ann", "Ben", "Cleo")), random.Random(3))[1][:40]
    saved_log(carcassonne_log(events), NAME)


async def typed_pad(pilot: Pilot[None]) -> None:
    """F7 for Ann and Ben (Dirk joins), the first scoring's counts and Ann's wall typed."""
    await pilot.press(*"Ann", "tab", *"Ben", "f7")
    await pilot.pause()
    for field, value in (("p0-tower", "2"), ("p0-wall", "4"), ("p1-garden", "3"), ("p2-pavilion", "1")):
        pilot.app.screen.query_one(f"#{field}", Input).value = value
        await pilot.pause()


async def continued(pilot: Pilot[None]) -> None:
    """The saved game continued from the start screen."""
    await pilot.press("enter")
    await pilot.pause()


SCREENS: dict[str, tuple[Callable[[], None], Callable[[Pilot[None]], object]]] = {
    "roll_and_write": (roll_and_write, continued),
    "alhambra_dice": (alhambra_dice, continued),
    "alcazaba": (lambda: alhambra_dice(ALCAZABA), continued),
    "carcassonne_dice": (carcassonne_dice, continued),
    "alhambra_pad": (lambda: None, typed_pad),
    "end": (lambda: alhambra_dice(moves=None), continued),
}
"""How each screen is reached: the saved game it needs, then the keys."""


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("screen", SCREENS)
def test_game_screen(xdg: Path, snap_compare, screen: str, size: str) -> None:  # type: ignore[no-untyped-def]
    save, reach = SCREENS[screen]
    save()
    assert snap_compare(make_app(), run_before=reach, terminal_size=SIZES[size])


def alhambra_pad() -> None:
    """A pad as the app saves it: typed in the app, then closed (the view follows the games folder)."""

    async def type_it() -> None:
        async with make_app().run_test(size=(110, 34)) as pilot:
            await typed_pad(pilot)

    asyncio.run(type_it())


VIEWS: dict[str, Callable[[], None]] = {
    "roll_and_write": roll_and_write,
    "alhambra_dice": alhambra_dice,
    "carcassonne_dice": carcassonne_dice,
    "alhambra_pad": alhambra_pad,
}
"""The saved game each view follows."""


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("game", VIEWS)
def test_table_view(xdg: Path, snap_compare, game: str, size: str) -> None:  # type: ignore[no-untyped-def]
    VIEWS[game]()
    view: App[None] = TableView(paths.games_dir())

    async def followed(pilot: Pilot[None]) -> None:
        await pilot.pause(0.2)

    assert snap_compare(view, run_before=followed, terminal_size=SIZES[size])
