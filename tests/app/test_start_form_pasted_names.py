"""Names pasted into the start screen's form: a list fills a name each (it filled player 1 alone, and the
game began with imaginary players in the others' seats), a paste while the saved games have the focus goes
to the form (it went nowhere), and a name pasted in another Unicode form than one typed is the same player."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from app_driver import make_app, random_game, saved_game
from textual import events
from textual.pilot import Pilot
from textual.widgets import Input, Static

from companion.app import paths
from companion.app.screens.new_game_form import MAX_PLAYERS
from companion.app.screens.roll_and_write import RollAndWriteScreen
from companion.app.screens.start import StartScreen


def names(pilot: Pilot[None]) -> list[str]:
    return [pilot.app.screen.query_one(f"#name{n}", Input).value for n in range(1, MAX_PLAYERS + 1)]


def message(pilot: Pilot[None]) -> str:
    return str(pilot.app.screen.query_one("#message", Static).render())


def refused(pilot: Pilot[None]) -> str | None:
    """Why the start screen refused to start the game (None: it started)."""
    return message(pilot) if isinstance(pilot.app.screen, StartScreen) else None


async def paste(pilot: Pilot[None], text: str) -> None:
    """A bracketed paste, as the terminal hands it to the app (which passes it to the widget focused)."""
    pilot.app.post_message(events.Paste(text))
    await pilot.pause()


def logged_players() -> list[str]:
    """The players of the one game started, as its log's first line names them."""
    (log,) = paths.games_dir().glob("*.jsonl")
    return list(json.loads(log.read_text(encoding="utf-8").splitlines()[0])["players"])


@pytest.mark.parametrize(
    "text",
    [
        "Ann\nBen\nLi Lei",
        "Ann\tBen\tLi Lei\n",
        "Ann, Ben, Li Lei",
        "Ann\r\nBen\r\nLi Lei",
        # A list that began with a line break kept its empty first line alone; a word processor's line break.
        "\r\nAnn\r\nBen\r\nLi Lei\r\n",
        "Ann\u2028Ben\u2028Li Lei",
        "Ann,\nBen,\nLi Lei,",
    ],
)
def test_a_list_of_names_pasted_fills_a_name_each_and_starts_their_game(xdg: Path, text: str) -> None:
    """Player 1 took "Ann" (or the whole list as one name) and the others were lost: F5 began a game of Ann
    with the imaginary Ani and Dirk. A name's own space is its: "Li Lei" is one player."""
    seen: dict[str, object] = {}

    async def run() -> None:
        async with make_app().run_test(size=(100, 32)) as pilot:
            assert pilot.app.screen.focused is pilot.app.screen.query_one("#name1"), "a fresh folder"
            await paste(pilot, text)
            seen["names"], seen["said"] = names(pilot), message(pilot)
            await pilot.press("f5")
            await pilot.pause()
            seen["started"] = isinstance(pilot.app.screen, RollAndWriteScreen)

    asyncio.run(run())
    assert seen["names"] == ["Ann", "Ben", "Li Lei", "", "", ""], seen
    assert "imaginary" not in str(seen["said"]) and seen["started"], seen
    assert logged_players() == ["Ann", "Ben", "Li Lei"]


def test_a_pasted_list_keeps_the_names_typed_and_says_what_does_not_fit(xdg: Path) -> None:
    """The names go into the empty names after the one pasted in, a name typed there stays; the form has six
    names: those left over are said, not dropped unsaid."""
    seen: dict[str, object] = {}

    async def run() -> None:
        async with make_app().run_test(size=(100, 32)) as pilot:
            pilot.app.screen.query_one("#name3", Input).value = "Zed"
            await pilot.pause()
            await paste(pilot, "Ann\nBen\nCat\nDan\nEve\nFay\nGus")
            seen["names"], seen["said"] = names(pilot), message(pilot)

    asyncio.run(run())
    assert seen["names"] == ["Ann", "Ben", "Zed", "Cat", "Dan", "Eve"], seen
    assert seen["said"] == "pasted, with no empty name left for them: Fay, Gus", seen


@pytest.mark.parametrize(("text", "expected"), [("Ann", ["Ann", ""]), ("Ann\nBen", ["Ann", "Ben"])])
def test_a_paste_while_the_saved_games_have_the_focus_goes_to_the_form(
    xdg: Path, text: str, expected: list[str]
) -> None:
    """With a game saved the focus starts on the saved games: a name typed there goes into the form's first
    empty name, but a paste went nowhere, without a word."""
    saved_game(random_game(1, ("Barbara", "Dirk"), ("Ani",))[:60], "a.jsonl")
    seen: dict[str, object] = {}

    async def run() -> None:
        async with make_app().run_test(size=(100, 32)) as pilot:
            screen = pilot.app.screen
            assert screen.focused is screen.query_one("#saved")
            await paste(pilot, text)
            seen["names"], seen["focused"] = names(pilot)[:2], screen.focused

    asyncio.run(run())
    assert seen["names"] == expected and seen["focused"] is not None, seen


def test_a_name_in_either_unicode_form_is_one_player(xdg: Path) -> None:
    """ "José" with é as one character and as e and a combining accent were two players shown alike; a game
    is set up with the names in one form (NFC), and "ZOË" beside "zoë" is refused as before."""
    decomposed = "Jose\u0301"
    seen: dict[str, object] = {}

    async def run() -> None:
        async with make_app().run_test(size=(100, 32)) as pilot:
            for n, name in enumerate(["José", decomposed, "Ann"], 1):
                pilot.app.screen.query_one(f"#name{n}", Input).value = name
            await pilot.pause()
            await pilot.press("f5")
            await pilot.pause()
            seen["same"] = refused(pilot)
            if seen["same"] is None:
                return
            pilot.app.screen.query_one("#name1", Input).value = "ZOË"
            pilot.app.screen.query_one("#name3", Input).value = "zoë"
            await pilot.pause()
            await pilot.press("f5")
            await pilot.pause()
            seen["case"] = refused(pilot)
            pilot.app.screen.query_one("#name3", Input).value = "Ann"
            await pilot.pause()
            await pilot.press("f5")
            await pilot.pause()
            seen["started"] = isinstance(pilot.app.screen, RollAndWriteScreen)

    asyncio.run(run())
    assert seen["same"] == "player names must differ", seen
    assert seen["case"] == "player names must differ: ZOË and zoë differ only in case or spacing", seen
    assert seen["started"], seen
    assert logged_players() == ["ZOË", "José", "Ann"], "the log holds the name in one form"


@pytest.mark.parametrize(("text", "kept"), [("Ann, ", "Ann"), (",,,", ""), ("\nBob", "Bob")])
def test_a_paste_of_one_name_keeps_the_name_and_not_what_parts_names(xdg: Path, text: str, kept: str) -> None:
    """ "Ann, " pasted made a player "Ann,", and ",,," one named so; "\nBob" left the name empty."""
    seen: dict[str, object] = {}

    async def run() -> None:
        async with make_app().run_test(size=(100, 32)) as pilot:
            await paste(pilot, text)
            seen["names"] = names(pilot)

    asyncio.run(run())
    assert seen["names"] == [kept, "", "", "", "", ""]


def test_a_paste_too_long_for_names_is_refused_at_once(xdg: Path) -> None:
    """A 5 MB line held the app for 26 s before the name's length was refused."""
    seen: dict[str, object] = {}

    async def run() -> None:
        async with make_app().run_test(size=(100, 32)) as pilot:
            await paste(pilot, "x" * 5_000_000)
            seen["names"], seen["said"] = names(pilot), message(pilot)

    asyncio.run(run())
    assert seen == {"names": [""] * 6, "said": "pasted 5,000,000 characters: too many for players' names"}
