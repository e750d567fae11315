"""A click on a list of games picks the game, a second click opens it: a single click opened a saved game (a
mouse could not choose one to delete, and a click in the list while a new game's names were typed opened
another game) and replayed a past game in F4 (where a click was to show its plot)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from app_driver import make_app, random_game, saved_game
from textual.pilot import Pilot
from textual.widgets import OptionList

from companion.app.screens.history import HistoryScreen
from companion.app.screens.start import StartScreen


async def click_option(pilot: Pilot[None], selector: str, index: int) -> None:
    """A click on the option at `index` of the list (from the top of its content: a terminal wide enough for
    each option to take one line)."""
    options = pilot.app.screen.query_one(selector, OptionList)
    top = options.content_region.y - options.region.y
    await pilot.click(selector, offset=(4, top + index))
    await pilot.pause()


def two_finished_games() -> None:
    saved_game(random_game(1, ("Ann", "Ben", "Cleo")), "a.jsonl")
    saved_game(random_game(2, ("Dan", "Eva", "Finn")), "b.jsonl")


def test_a_click_picks_a_saved_game_and_a_second_click_opens_it(xdg: Path) -> None:
    two_finished_games()
    seen: dict[str, object] = {}

    async def run() -> None:
        # Wide enough for each game's label ("Roll & Write · Ann, Ben, Cleo · finished · …") to take a line.
        async with make_app().run_test(size=(140, 32)) as pilot:
            start = pilot.app.screen
            assert isinstance(start, StartScreen)
            listed = start.query_one("#saved", OptionList)
            other = next(
                i
                for i in range(listed.option_count)
                if not listed.get_option_at_index(i).disabled and i != listed.highlighted
            )
            await click_option(pilot, "#saved", other)
            seen["picked"] = pilot.app.screen is start, listed.highlighted == other
            await click_option(pilot, "#saved", other)
            seen["opened"] = pilot.app.screen is not start

    asyncio.run(run())
    assert seen == {"picked": (True, True), "opened": True}


def test_a_click_in_f4_shows_a_games_plot_and_a_second_click_replays_it(xdg: Path) -> None:
    two_finished_games()
    seen: dict[str, object] = {}

    async def run() -> None:
        async with make_app().run_test(size=(200, 40)) as pilot:
            await pilot.press("f4")
            await pilot.pause()
            past = pilot.app.screen
            assert isinstance(past, HistoryScreen)
            games = past.query_one("#games", OptionList)
            other = 1 - (games.highlighted or 0)
            await click_option(pilot, "#games", other)
            seen["picked"] = pilot.app.screen is past, games.highlighted == other
            await click_option(pilot, "#games", other)
            seen["opened"] = type(pilot.app.screen).__name__

    asyncio.run(run())
    assert seen == {"picked": (True, True), "opened": "ReplayScreen"}


def test_a_click_on_the_game_highlighted_from_the_start_picks_it_too(xdg: Path) -> None:
    """The first game is highlighted as the screen opens: one click on it, while names were typed, opened
    it."""
    two_finished_games()
    seen: dict[str, object] = {}

    async def run() -> None:
        async with make_app().run_test(size=(100, 32)) as pilot:
            start = pilot.app.screen
            listed = start.query_one("#saved", OptionList)
            first = listed.highlighted
            assert first is not None
            await pilot.click("#name1")
            await pilot.press(*"Gina")
            await click_option(pilot, "#saved", first)
            seen["picked"] = pilot.app.screen is start
            await click_option(pilot, "#saved", first)
            seen["opened"] = pilot.app.screen is not start

    asyncio.run(run())
    assert seen == {"picked": True, "opened": True}
