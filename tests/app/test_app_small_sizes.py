"""Roll & Write and the start screen at 80×24 and in a window shrunk below it: what was just said and typed in
view, headings a line each."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from app_driver import make_app, random_game, saved_game, start_named
from textual.app import App
from textual.widgets import Label

from companion.app.screens.alhambra_dice import AlhambraDiceScreen
from companion.app.screens.roll_and_write import RollAndWriteScreen


def screen_text(app: App[None]) -> str:
    """The words the terminal shows now, every run of spaces one."""
    return " ".join(" ".join(strip.text for strip in app.screen._compositor.render_strips()).split())


@pytest.mark.parametrize("size", [(60, 20), (40, 24)])
def test_roll_and_write_says_a_refusal_and_the_dice_typed_in_view_below_80x24(
    xdg: Path, size: tuple[int, int]
) -> None:
    """Shrunk below 80×24, the end of the Now panel, where the reason of a refusal and the dice typed are
    written, lay below the fold: typed dice were refused without a word in view."""

    async def refused() -> tuple[str, str]:
        async with make_app().run_test(size=(80, 24)) as pilot:
            screen = await start_named(pilot, ["Ann", "Ben"], "f5", RollAndWriteScreen)
            await pilot.press(*"y3b5", "enter")
            await pilot.resize_terminal(*size)
            await pilot.press(*"y3b9", "enter")
            for _ in range(3):
                await pilot.pause()
            assert screen.error
            return screen.message, screen_text(pilot.app)

    message, shown = asyncio.run(refused())
    assert "typed: y3 b_" in shown and " ".join(message.split()[-4:]) in shown, shown


def test_the_start_screens_headings_are_a_line_each_at_80_columns(xdg: Path) -> None:
    """At 80×24 the saved games' heading took two lines: "Continue a saved game (del deletes" / "one)"."""
    saved_game(random_game(1, ("Anna", "Ben", "Cleo"))[:60], "20261123-201500-ann-ben-cleo.jsonl")

    async def shown() -> dict[str, int]:
        async with make_app().run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            return {
                str(label.content): label.size.height
                for label in pilot.app.screen.query(".heading").results(Label)
            }

    heights = asyncio.run(shown())
    assert heights and set(heights.values()) == {1}, heights


@pytest.mark.parametrize("names", [["Ann", "Ben"], ["Ann", "Ben", "Cleo", "Dan", "Eve", "Fay"]])
def test_the_alhambra_dice_games_points_so_far_are_in_view_at_80x24(xdg: Path, names: list[str]) -> None:
    """The points so far ended the Now panel, below the fold at 80×24 with four players or more: they come
    first after what the game asks."""

    async def shown() -> str:
        async with make_app().run_test(size=(80, 24)) as pilot:
            await start_named(pilot, names, "f8", AlhambraDiceScreen)
            for _ in range(3):
                await pilot.pause()
            return screen_text(pilot.app)

    points = ", ".join(f"{name} 0" for name in (*names, *(["Dirk"] if len(names) == 2 else [])))
    assert f"points so far: {points}" in asyncio.run(shown())
