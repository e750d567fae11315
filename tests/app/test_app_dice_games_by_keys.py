"""The game screens played from the keyboard alone: what to type in view at every size from 80×24 up, the game
log paged by keys (it never takes the focus), and the dice games' final scoring opened again by `e` after `b`
went back from it, as on Roll & Write's screen."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from app_driver import help_text, make_app, random_game, saved_game, saved_log, start_named
from textual.geometry import Region
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Input, Static

from companion.app.screens.end import EndScreen
from companion.app.screens.event_game import EventGameScreen
from companion.app.widgets.wrapped_log import WrappedLog
from companion.games import alhambra_dice as ad
from companion.games import carcassonne_dice as cd
from companion.games.alhambra.buildings import TYPES
from companion.games.alhambra_dice.events import ALCAZABA, STANDARD
from companion.games.alhambra_dice.scorefile import log_text as dice_log
from companion.games.alhambra_dice.simulate import play_random_game as dice_game
from companion.games.carcassonne_dice.scorefile import log_text as carcassonne_log
from companion.games.carcassonne_dice.simulate import play_random_game as carcassonne_game

NAME = "20261123-201500-ann-ben-cleo.jsonl"
SIZES = ((80, 24), (100, 30), (105, 30), (110, 34), (120, 30), (100, 24), (160, 50))
"""The smallest terminal, the widths where the board and the Now panel stand side by side in a middle too
short for both (100–109 columns), and roomy ones."""
LAY = "lay p s a c g t g/NES g t a c start p"
FIRST_ROLL = {"f8": ("draw", "2 1 1 1 1 2"), "f10": (LAY, "gggggttt"), "f9": ("5 3 1",)}
"""Each dice game's round start and first roll, as typed."""


def saved_dice_game(variant: str, moves: int | None) -> None:
    """An Alhambra dice game (or Alcazaba) for Ann, Ben and Cleo, its first `moves` events (None: all)."""
    events = dice_game(ad.GameStarted(("Ann", "Ben", "Cleo"), variant), random.Random(3))[1][:moves]
    saved_log(dice_log(events), NAME)


def saved_carcassonne(moves: int | None) -> None:
    events = carcassonne_game(cd.GameStarted(("Ann", "Ben", "Cleo")), random.Random(3))[1][:moves]
    saved_log(carcassonne_log(events), NAME)


LATE: dict[str, Callable[[], None]] = {
    "f8": lambda: saved_dice_game(STANDARD, 220),
    "f10": lambda: saved_dice_game(ALCAZABA, 220),
    "f9": lambda: saved_carcassonne(150),
}
"""Each dice game saved in a late round (round 4 of 5; Carcassonne's turn 36)."""
SAVED: dict[str, Callable[[], object]] = {
    "roll_and_write": lambda: saved_game(random_game(1, ("Anna", "Ben", "Cleo"))[:60], NAME),
    "f8": lambda: saved_dice_game(STANDARD, 80),
    "f10": lambda: saved_dice_game(ALCAZABA, 80),
    "f9": lambda: saved_carcassonne(40),
}
"""Every game's screen, saved with a game log longer than it shows."""
OVER: dict[str, Callable[[], None]] = {
    "f8": lambda: saved_dice_game(STANDARD, None),
    "f10": lambda: saved_dice_game(ALCAZABA, None),
    "f9": lambda: saved_carcassonne(None),
}
"""Each dice game saved once over."""


async def laid_out(pilot: Pilot[None]) -> None:
    """Until the screen is laid out: the log's lines are fitted after the board is drawn for its width."""
    for _ in range(3):
        await pilot.pause()


async def continued(pilot: Pilot[None]) -> Screen[Any]:
    """The saved game continued from the start screen (Enter), its screen laid out."""
    await pilot.press("enter")
    await laid_out(pilot)
    return pilot.app.screen


def drawn(screen: Screen[Any], region: Region) -> str:
    """The words the terminal shows in `region` of the screen, row after row."""
    rows = screen._compositor.render_strips()[region.y : region.bottom]
    return " ".join(" ".join(strip.text[region.x : region.right] for strip in rows).split())


def what_to_type_hidden(screen: Screen[Any]) -> bool:
    """Whether the Now panel's last lines (what to type, and how) are not all in view, word for word."""
    how = screen.query_one("#how", Static)
    return drawn(screen, how.region) != " ".join(str(how.render()).split())


@pytest.mark.parametrize("when", ["first roll", "late round"])
def test_what_to_type_is_in_view_at_every_size(xdg: Path, monkeypatch: pytest.MonkeyPatch, when: str) -> None:
    """At 100–109 columns the board and the Alhambra dice game's Now panel stood side by side and scrolled as
    one: after the first roll the Now panel stopped at "3 Dirk: 0 markers left" and what to type lay below
    the fold (Alcazaba's already at its round start), to be found only by PageDown. It is in view, whole,
    at every size from 80×24 up, in each dice game, after the first roll and in a late round."""

    async def hidden_at(key: str) -> list[tuple[str, tuple[int, int]]]:
        async with make_app().run_test(size=SIZES[0]) as pilot:
            if when == "late round":
                continued_game = await continued(pilot)
                assert isinstance(continued_game, EventGameScreen) and not continued_game.state.is_over
                screen = continued_game
            else:
                screen = await start_named(pilot, ["Dan", "Ben"], key, EventGameScreen)
                for line in FIRST_ROLL[key]:
                    await pilot.press(*line, "enter")
                    await laid_out(pilot)
                assert len(screen.session.events) > len(FIRST_ROLL[key]), "every line typed was taken"
            hidden = []
            for size in SIZES:
                await pilot.resize_terminal(*size)
                await laid_out(pilot)
                if what_to_type_hidden(screen):
                    hidden.append((key, size))
            return hidden

    hidden = []
    for key in ("f8", "f10", "f9"):
        monkeypatch.setenv("XDG_DATA_HOME", str(xdg / key))  # a game's own saved games
        if when == "late round":
            LATE[key]()
        hidden += asyncio.run(hidden_at(key))
    assert hidden == []


@pytest.mark.parametrize("game", SAVED)
def test_shift_arrows_page_the_game_log_on_every_game_screen(xdg: Path, game: str) -> None:
    """The game log could not be focused and no key scrolled it (the dice games' entry line keeps the focus;
    PageUp pages the board): at 100×30 it shows a few lines, and an earlier roll was out of reach without a
    mouse. Shift+↑ pages it back a view at a time (no line skipped) to its first line, shift+↓ on to its
    newest; nothing is typed, and F1 names the keys."""
    SAVED[game]()

    async def paged() -> None:
        async with make_app().run_test(size=(100, 30)) as pilot:
            screen = await continued(pilot)
            log = screen.query_one("#log", WrappedLog)
            newest = log.max_scroll_y
            assert newest > 0 and log.scroll_y == newest, "a log longer than it shows, at its end"
            view = log.scrollable_content_region.height
            for _ in range(100):
                before = log.scroll_y
                await pilot.press("shift+up")
                assert 0 < before - log.scroll_y <= view, (before, log.scroll_y, view)
                if log.scroll_y == 0:
                    break
            first = " ".join(log.lines[0].split()[:4])
            assert first in drawn(screen, log.content_region), "the log's first line in view"
            while log.scroll_y < newest:
                before = log.scroll_y
                await pilot.press("shift+down")
                assert 0 < log.scroll_y - before <= view
            entry = screen.query("#entry")
            assert not entry or entry.first(Input).value == "", "nothing typed into the entry line"
            lines = (await help_text(pilot)).splitlines()
            for key in ("shift+up", "shift+down"):
                assert any(key in line and "game log" in line for line in lines), key

    asyncio.run(paged())


def test_shift_up_where_the_dice_games_log_is_hidden_says_where_it_shows(xdg: Path) -> None:
    """At 80×24 the board takes the log's lines: the key is not silently lost."""
    SAVED["f8"]()

    async def said() -> str:
        async with make_app().run_test(size=(80, 24)) as pilot:
            screen = await continued(pilot)
            assert not screen.query_one("#log").display
            await pilot.press("shift+up")
            return str(screen.query_one("#message", Static).render())

    assert "taller terminal" in asyncio.run(said())


def footer_keys(screen: Screen[Any]) -> str:
    """The keys the footer shows, with their words."""
    shown = [key for key in screen.query("FooterKey") if key.display]
    return " | ".join(" ".join(str(key.render()).split()) for key in shown)


@pytest.mark.parametrize("key", OVER)
def test_e_opens_the_dice_games_final_scoring_again(xdg: Path, key: str) -> None:
    """Back (`b`) from a dice game's final scoring, to undo a move, no key opened it again: Roll & Write's `e`
    was typed into the entry line. Once the game is over `e` opens it, named in the footer; undone, the
    game goes on and `e` is a letter typed again."""
    OVER[key]()

    async def played() -> None:
        async with make_app().run_test(size=(110, 34)) as pilot:
            assert isinstance(await continued(pilot), EndScreen)
            await pilot.press("b")
            await laid_out(pilot)
            game = pilot.app.screen
            assert isinstance(game, EventGameScreen) and game.state.is_over
            assert "e final scoring" in footer_keys(game)
            await pilot.press("e")
            await pilot.pause()
            reopened = pilot.app.screen
            assert isinstance(reopened, EndScreen), "e opens the final scoring again"
            await pilot.press("b", "ctrl+z")
            await laid_out(pilot)
            assert not game.state.is_over and pilot.app.screen is game
            assert "final scoring" not in footer_keys(game)
            await pilot.press("e")
            await pilot.pause()
            assert pilot.app.screen is game and game.query_one("#entry", Input).value == "e"

    asyncio.run(played())


def test_the_middle_scrolls_each_panel_in_its_border_side_by_side(xdg: Path) -> None:
    """Side by side (100–109 columns, 30 lines) the board and the Now panel each stay inside the middle,
    bottom border included, and the board keeps its six columns (under a scrollbar it lost one, put a
    type's column below the others and grew)."""

    async def shown() -> tuple[list[Widget], list[str]]:
        async with make_app().run_test(size=(100, 30)) as pilot:
            screen = await start_named(pilot, ["Dan", "Ben"], "f8", EventGameScreen)
            for line in FIRST_ROLL["f8"]:
                await pilot.press(*line, "enter")
                await laid_out(pilot)
            middle = screen.query_one("#middle")
            panels = [screen.query_one("#board-box"), screen.query_one("#side")]
            outside = [panel for panel in panels if not middle.region.contains_region(panel.region)]
            board = screen.query_one("#board", Static)
            return outside, str(board.render()).splitlines()[0].split()

    outside, heading = asyncio.run(shown())
    assert outside == [], "a panel runs below the middle"
    assert heading == ["line", *TYPES], "the board's six columns side by side"


@pytest.mark.parametrize("key", ["f8", "f9", "f10"])
def test_without_a_camera_ctrl_k_says_there_is_no_reading_keeps_what_is_typed_and_is_not_offered(
    xdg: Path, key: str
) -> None:
    """F1 lists ctrl+k (the camera's dice). Without a camera the key was silent in Carcassonne: it fell
    through to the entry line, which deleted what was typed after the cursor; the Alhambra dice game offered
    it in its footer. Every dice game says there is no reading, keeps the typing and leaves it out of the
    footer."""

    async def press() -> tuple[str, str, bool]:
        async with make_app().run_test(size=(110, 34)) as pilot:
            screen = await start_named(pilot, ["Ann", "Ben", "Cleo"], key, EventGameScreen)
            entry = screen.query_one("#entry", Input)
            entry.value = "5 3 1"
            entry.cursor_position = 0
            await pilot.press("ctrl+k")
            return (
                str(screen.query_one("#message", Static).render()),
                entry.value,
                screen.active_bindings["ctrl+k"].binding.show,
            )

    said, typed, in_footer = asyncio.run(press())
    assert said.startswith("no camera reading to accept: ") and typed == "5 3 1" and not in_footer
