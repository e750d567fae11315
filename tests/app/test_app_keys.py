"""One key map for every game: undo, redo, export and back are the same keys on every game screen, every key a
screen answers is in its footer or on its help page, and F1 opens the page of the screen on top, with its own
glossary."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from app_driver import help_text, make_app, new_game, random_game, saved_game, start_named, text_of
from textual.binding import Binding
from textual.geometry import Region
from textual.screen import Screen
from textual.widgets import Input, Static
from textual.widgets._footer import FooterKey

from companion.app.keys import ADVICE, BACK, EXPORT, REDO, UNDO
from companion.app.screens.advice import AdviceScreen
from companion.app.screens.alcazaba import AlcazabaScreen
from companion.app.screens.alhambra_dice import AlhambraDiceScreen
from companion.app.screens.carcassonne_dice import CarcassonneDiceScreen
from companion.app.screens.end import EndScreen, ScoringPanel
from companion.app.screens.help import _bindings
from companion.app.screens.replay import ReplayScreen
from companion.app.screens.roll_and_write import RollAndWriteScreen
from companion.app.screens.roll_and_write_end import RollAndWriteEndScreen
from companion.app.screens.share import ShareScreen
from companion.app.screens.start import StartScreen
from companion.app.widgets.footer import KeysFooter

GAMES = (RollAndWriteScreen, AlhambraDiceScreen, AlcazabaScreen, CarcassonneDiceScreen)
SCREENS = (*GAMES, EndScreen, RollAndWriteEndScreen, ScoringPanel, ReplayScreen, StartScreen)


@pytest.mark.parametrize("screen", GAMES, ids=lambda s: s.__name__)
def test_every_game_screen_answers_the_shared_keys(screen: type[Screen[None]]) -> None:
    actions = {key: b.action for b in _bindings(screen) for key in b.key.split(",")}
    assert (actions[UNDO], actions[REDO], actions[EXPORT], actions[ADVICE], actions[BACK]) == (
        "undo",
        "redo",
        "export",
        "advice",
        "back",
    )


@pytest.mark.parametrize("screen", SCREENS, ids=lambda s: s.__name__)
def test_every_key_a_screen_answers_is_in_its_footer_or_help(screen: type[Screen[None]]) -> None:
    # The help page lists every binding with a description; one without is shown nowhere unless a second
    # binding of the same key (its meaning where the first cannot run) has one.
    found = [b for cls in screen.__mro__ for b in cls.__dict__.get("BINDINGS", []) if isinstance(b, Binding)]
    described = {b.key for b in found if b.description}
    assert [b.key for b in found if not b.description and b.key not in described] == []


def test_f1_opens_the_page_of_the_screen_on_top(xdg: Path) -> None:
    async def pages() -> dict[str, str]:
        seen = {}
        async with make_app().run_test(size=(100, 32)) as pilot:
            seen["start"] = await help_text(pilot)
            await new_game(pilot, ["Anna", "Ben"])
            seen["roll and write"] = await help_text(pilot)
        async with make_app().run_test(size=(100, 32)) as pilot:
            await start_named(pilot, ["Ann", "Ben", "Cleo"], "f8", AlhambraDiceScreen)
            seen["dice"] = await help_text(pilot)
        async with make_app().run_test(size=(100, 32)) as pilot:
            await start_named(pilot, ["Ann", "Ben"], "f9", CarcassonneDiceScreen)
            seen["carcassonne"] = await help_text(pilot)
        return seen

    seen = asyncio.run(pages())
    assert "Keys: Start screen" in seen["start"] and "F8" in seen["start"]
    assert "Keys: Roll & Write" in seen["roll and write"] and "[P]  (P)" in seen["roll and write"]
    assert "line 8 … 1" in seen["dice"] and "[P]" not in seen["dice"] and "ssaacggt" in seen["dice"]
    assert (
        "█" in seen["carcassonne"]
        and "build 4,4:NS" in seen["carcassonne"]
        and "line 8" not in seen["carcassonne"]
    )
    for page in ("roll and write", "dice", "carcassonne"):
        for key, word in (
            ("ctrl+z", "undo"),
            ("ctrl+y", "redo"),
            ("ctrl+e", "export"),
            ("ctrl+a", "advice"),
            ("esc", "back"),
        ):
            assert any(key in line and word in line for line in seen[page].splitlines()), (page, key)
    assert "u" in seen["roll and write"] and "undo (as ctrl+z)" in seen["roll and write"]
    assert "advice (as ctrl+a)" in seen["roll and write"]


def test_f1_on_the_start_screen_lists_the_keys_its_form_answers(xdg: Path) -> None:
    """The README's Enter (start the game) and → (take the name offered) were on no help page: they are the
    form's fields' keys, not the screen's bindings."""

    async def page() -> str:
        async with make_app().run_test(size=(100, 32)) as pilot:
            return await help_text(pilot)

    lines = asyncio.run(page()).splitlines()
    assert any("Enter" in line and "start the game chosen (as F5)" in line for line in lines), lines
    assert any("→" in line and "take the name offered" in line for line in lines), lines


def test_f1_over_a_screen_laid_over_another_opens_its_page(xdg: Path) -> None:
    # A modal screen stops the app's own keys: F1 over the advice or the share screen did nothing.
    async def pages() -> dict[str, str]:
        seen = {}
        async with make_app().run_test(size=(100, 32)) as pilot:
            await pilot.press("f6")
            await pilot.pause()
            assert isinstance(pilot.app.screen, ShareScreen)
            seen["share"] = await help_text(pilot)
            assert isinstance(pilot.app.screen, ShareScreen)
            await pilot.press("escape")
            await new_game(pilot, ["Anna", "Ben"])
            await pilot.press(ADVICE)
            await pilot.pause()
            assert isinstance(pilot.app.screen, AdviceScreen)
            seen["advice"] = await help_text(pilot)
            assert isinstance(pilot.app.screen, AdviceScreen)
        return seen

    seen = asyncio.run(pages())
    assert "Keys: Share screen" in seen["share"] and "close" in seen["share"]
    assert "Keys: Advice screen" in seen["advice"] and "close advice" in seen["advice"]


def test_esc_in_a_dice_game_clears_the_line_then_goes_back_to_the_start_screen(xdg: Path) -> None:
    async def press() -> tuple[str, bool, bool]:
        async with make_app().run_test(size=(100, 32)) as pilot:
            screen = await start_named(pilot, ["Ann", "Ben"], "f9", CarcassonneDiceScreen)
            screen.query_one("#entry", Input).value = "5 3"
            await pilot.press("escape")
            cleared = screen.query_one("#entry", Input).value
            still = pilot.app.screen is screen
            await pilot.press("escape")
            await pilot.pause()
            return cleared, still, isinstance(pilot.app.screen, StartScreen)

    assert asyncio.run(press()) == ("", True, True)


@pytest.mark.parametrize("size", [(40, 40), (110, 34)])
def test_the_help_is_read_whole_at_a_phones_width(xdg: Path, size: tuple[int, int]) -> None:
    """At 40 columns the words beside the keys had 15 columns: "quit: the game is saved after every move"
    took seven lines of a word or two. Where the words have no room beside the keys, each key stands on a
    line of its own with its words under it; where they have, they stand beside it."""

    async def shown() -> tuple[str, int]:
        async with make_app().run_test(size=size) as pilot:
            await pilot.press("f1")
            await pilot.pause()
            keys = pilot.app.screen.query(Static)[1]
            return text_of(keys, keys.content_region.width), keys.content_region.width

    text, width = asyncio.run(shown())
    lines = text.splitlines()
    assert all(len(line) <= width for line in lines), text
    at = next(n for n, line in enumerate(lines) if line.split()[:1] == ["ctrl+q"])
    words = "quit: the game is saved after every move, continue it from the start screen"
    if size[0] < 60:
        assert lines[at].strip() == "ctrl+q" and lines[at + 1].startswith("  quit: the game is saved"), text
        assert " ".join(" ".join(lines[at + 1 : at + 4]).split()) == words, text
    else:
        assert " ".join(lines[at].split()) == f"ctrl+q {words}", text
    assert any(line.split()[:1] == ["F5"] for line in lines), "F5 as the button writes it"


def test_the_footer_writes_function_keys_as_the_help_does(xdg: Path) -> None:
    """The footer wrote f1 and f7 where the help, the buttons and the README write F1 and F7."""

    def shown(screen: Screen[None]) -> list[str]:
        return [str(key.key_display) for key in screen.query("FooterKey")]  # type: ignore[attr-defined]

    async def footers() -> list[list[str]]:
        async with make_app().run_test(size=(160, 34)) as pilot:
            start = shown(pilot.app.screen)
            return [start, shown(await start_named(pilot, ["Ann", "Ben"], "f9", CarcassonneDiceScreen))]

    for keys in asyncio.run(footers()):
        assert "F1" in keys and not any(key[:1] == "f" for key in keys), keys


@pytest.mark.parametrize("key", ["", "f5", "f7", "f8", "f9", "f10"])
def test_on_a_narrow_terminal_the_footer_keeps_f1_in_sight(xdg: Path, key: str) -> None:
    """At 40 columns the footer cut every key after the third or fourth, and F1, the key that lists them all,
    was the last: nobody at a narrow terminal could find the keys that were cut."""

    async def footer() -> tuple[Region, Region]:
        async with make_app().run_test(size=(40, 50)) as pilot:
            if key:
                for n, name in enumerate(["Ann", "Ben"]):
                    pilot.app.screen.query_one(f"#name{n + 1}", Input).value = name
                await pilot.press(key)
                await pilot.pause()
            assert not isinstance(pilot.app.screen, StartScreen) or not key, "a game's screen"
            keys = pilot.app.screen.query("FooterKey")
            help_key = next(k for k in keys if k.key_display == "F1")  # type: ignore[attr-defined]
            return help_key.region, pilot.app.screen.query_one("Footer").region

    region, footer_region = asyncio.run(footer())
    assert region.width > len("F1 help") and footer_region.contains_region(region), (region, footer_region)


FOOTERS = {"start": "", "roll_and_write": "f5", "carcassonne_dice": "f9", "final_scoring": "enter"}
"""A screen of each kind of footer, by the key that opens it from the start screen (Enter: a game over)."""


@pytest.mark.parametrize("screen", FOOTERS)
def test_the_footer_shows_its_keys_whole_and_leaves_out_the_last(xdg: Path, screen: str) -> None:
    """At 60 columns the footer ended mid-word: the start screen's `F10 Alcazab▏F1 help`, Carcassonne's
    `^q qui▏`, the final scoring's `^q q▏`. The keys that fit are shown whole, left of F1 help, the last
    listed left out first; widened again, every key is back."""
    if screen == "final_scoring":
        saved_game(random_game(2, ("Anna", "Ben", "Cleo")), "done.jsonl")

    async def shown() -> dict[int, tuple[list[str], list[str]]]:
        async with make_app().run_test(size=(120, 30)) as pilot:
            if FOOTERS[screen] == "enter":
                await pilot.press("enter")
            elif FOOTERS[screen]:
                await start_named(pilot, ["Ann", "Ben"], FOOTERS[screen], Screen)
            seen = {}
            for width in (60, 40, 80, 120):
                await pilot.resize_terminal(width, 30)
                for _ in range(3):
                    await pilot.pause()
                keys = list(pilot.app.screen.query_one(KeysFooter).query(FooterKey))
                help_key = next(key for key in keys if key.has_class("-help"))
                assert help_key in pilot.app.screen._compositor.visible_widgets, width
                listed = [key for key in keys if key is not help_key]
                for key in listed:
                    assert not key.display or key.region.right <= help_key.region.x, (width, key.key_display)
                seen[width] = (
                    [str(k.key_display) for k in listed],
                    [str(k.key_display) for k in listed if k.display],
                )
            return seen

    for width, (listed, whole) in asyncio.run(shown()).items():
        assert whole == listed[: len(whole)] and len(whole) >= 2, (width, whole)
        assert width < 120 or whole == listed, "every key is back"
