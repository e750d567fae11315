"""Clicks and pastes on the game screens: a click on a panel leaves the typing where it goes (the dice games'
entry line, the pad's count), the mouse's wheel still scrolls the panels, and Roll & Write takes a pasted
roll as typed."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from app_driver import make_app, new_game, start_named
from textual import events
from textual.pilot import Pilot
from textual.widget import Widget
from textual.widgets import Input, Static

from companion.app.screens.alcazaba import AlcazabaScreen
from companion.app.screens.alhambra_dice import AlhambraDiceScreen
from companion.app.screens.alhambra_pad import AlhambraPadScreen
from companion.app.screens.carcassonne_dice import CarcassonneDiceScreen
from companion.app.screens.roll_and_write import RollAndWriteScreen


def scrolled(widget: Widget) -> float:
    """How far the widget and every panel in it are scrolled, all told."""
    return float(sum(w.scroll_y for w in (widget, *widget.query(Widget))))


async def wheel_down(pilot: Pilot[None], widget: Widget) -> None:
    """The mouse's wheel turned down over the middle of `widget`."""
    x, y = widget.region.center
    wheel = events.MouseScrollDown(None, x, y, 0, 0, 0, False, False, False, screen_x=x, screen_y=y)
    pilot.app.post_message(wheel)
    await pilot.pause()


def test_clicks_on_the_carcassonne_panels_leave_the_typing_to_the_entry_line(xdg: Path) -> None:
    """A click on the score pad, the city or the Now panel focused the middle: `5 3 1` typed next was lost
    without a word (and Esc on the empty entry left the game)."""

    async def play() -> None:
        async with make_app().run_test(size=(100, 32)) as pilot:
            screen = await start_named(pilot, ["Ann", "Ben"], "f9", CarcassonneDiceScreen)
            entry = screen.query_one("#entry", Input)
            for panel in ("#pad", "#city", "#side", "#middle"):
                await pilot.click(panel)
                assert screen.focused is entry, panel
            rolls = len(screen.session.events)
            await pilot.press(*"5 3 1", "enter")
            assert len(screen.session.events) == rolls + 1, screen.query_one("#message", Static).render()
            await pilot.press("tab")
            assert screen.focused is entry

    asyncio.run(play())


@pytest.mark.parametrize(("key", "kind"), [("f8", AlhambraDiceScreen), ("f10", AlcazabaScreen)])
def test_clicks_on_the_alhambra_dice_board_leave_the_typing_to_the_entry_line_and_the_wheel_scrolls_it(
    xdg: Path, key: str, kind: type[AlhambraDiceScreen]
) -> None:
    """The board and the Now panel took the focus on a click; at 80×24 the wheel still scrolls the board."""

    async def play() -> None:
        async with make_app().run_test(size=(80, 24)) as pilot:
            # Five players: the Now panel's lines leave the board too few, and the board scrolls.
            screen = await start_named(pilot, ["Ann", "Ben", "Cleo", "Dan", "Eve"], key, kind)
            entry = screen.query_one("#entry", Input)
            middle = screen.query_one("#middle")
            for panel in ("#board", "#side"):
                await pilot.click(panel)
                assert screen.focused is entry, panel
            await pilot.press(*"2 1")
            assert entry.value == "2 1"
            before = scrolled(middle)
            await wheel_down(pilot, screen.query_one("#board"))
            assert scrolled(middle) > before
            assert screen.focused is entry

    asyncio.run(play())


def test_a_click_on_the_pads_breakdown_leaves_the_typing_to_the_count(xdg: Path) -> None:
    """Focused by a click, the breakdown took the `4` typed next for the first count."""

    async def play() -> None:
        async with make_app().run_test(size=(100, 32)) as pilot:
            await pilot.press(*"Ann", "tab", *"Ben", "f7")
            await pilot.pause()
            screen = pilot.app.screen
            assert isinstance(screen, AlhambraPadScreen)
            count = screen.query_one("#p0-pavilion", Input)
            assert screen.focused is count
            await pilot.click("#breakdown")
            await pilot.press("4")
            assert screen.focused is count and count.value == "4"
            assert screen.pad["players"][0]["scorings"][0]["buildings"]["pavilion"] == 4

    asyncio.run(play())


def panel_text(screen: RollAndWriteScreen) -> str:
    return str(screen.query_one("#turn", Static).content)


def test_a_roll_pasted_into_roll_and_write_is_taken_as_typed(xdg: Path) -> None:
    """A bracketed paste came as one `Paste` event, never as keys: it was dropped, and Enter said "type the
    dice first". Its trailing newline does not confirm it; text that is no dice is refused with why."""

    async def play() -> None:
        async with make_app().run_test(size=(100, 32)) as pilot:
            screen = await new_game(pilot, ["Anna", "Ben", "Cleo"])
            taken = len(screen.session.events)
            pilot.app.post_message(events.Paste("y2 x4"))
            await pilot.pause()
            assert "'x' is no dice colour: use y (yellow) or b (blue)" in panel_text(screen)
            assert screen.entry == []
            pilot.app.post_message(events.Paste("y2 b4\n"))
            await pilot.pause()
            assert "typed: y2 b4" in panel_text(screen)
            assert len(screen.session.events) == taken
            await pilot.press("enter")
            assert len(screen.session.events) == taken + 1
            assert "Anna rolled y2 b4" in screen.event_lines()[-1][0], screen.event_lines()[-1]

    asyncio.run(play())
