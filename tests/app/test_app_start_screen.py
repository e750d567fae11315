"""The start screen after a game left by one Esc too many (a roll typed there is no player's name), and a
first run with many saved games (read on a worker thread while the form can be used)."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import cast

import pytest
from app_driver import continue_first, make_app, random_game, saved_game
from textual.pilot import Pilot
from textual.widgets import Input, OptionList, Static
from textual.worker import WorkerState

from companion import saved_games as saved_games_module
from companion.app import paths
from companion.app.screens.roll_and_write import RollAndWriteScreen
from companion.app.screens.start import StartScreen
from companion.history_bench import write_games

KEYS = {" ": "space"}

REFUSED = "looks like a roll, not a player's name (a name has a word of two letters or more)"
CONTINUES = ": Enter in the saved games continues one"
"""Said after the refusal where a saved game waits to be continued (with none, it misled)."""


def message(pilot: Pilot[None]) -> str:
    return str(pilot.app.screen.query_one("#message", Static).render())


def listed(pilot: Pilot[None]) -> list[str]:
    options = pilot.app.screen.query_one("#saved", OptionList)
    return [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]


async def left_by_esc(pilot: Pilot[None], path: Path) -> str:
    """Continue the saved game at `path`, leave it by Esc (clears the entry) and Esc again; what the start
    screen's message line says then."""
    await continue_first(pilot, RollAndWriteScreen, path)
    await pilot.press("escape", "escape")
    await pilot.pause()
    assert isinstance(pilot.app.screen, StartScreen)
    return message(pilot)


@pytest.mark.parametrize("roll", ["3 4 5", "1 0 2 0 1 2"])
def test_a_roll_of_counts_typed_back_from_a_game_is_no_name_and_enter_continues_the_game(
    xdg: Path, roll: str
) -> None:
    """Typed on the saved games, a digit went into player 1's name, and Enter started a Roll & Write game for
    a player named "3 4 5". A name begins with a letter: Enter continues the game left."""
    path = saved_game(random_game(1, ("Barbara", "Dirk"), ("Ani",))[:60], "a.jsonl")
    seen: dict[str, object] = {}

    async def run() -> None:
        async with make_app().run_test(size=(100, 32)) as pilot:
            seen["back"] = await left_by_esc(pilot, path)
            await pilot.press(*(KEYS.get(c, c) for c in roll))
            seen["names"] = [pilot.app.screen.query_one(f"#name{n}", Input).value for n in (1, 2)]
            await pilot.press("enter")
            await pilot.pause()
            screen = pilot.app.screen
            seen["continued"] = isinstance(screen, RollAndWriteScreen) and screen.session.path == path

    asyncio.run(run())
    assert [p.name for p in paths.games_dir().glob("*.jsonl")] == ["a.jsonl"], "no game started"
    assert seen["names"] == ["", ""] and seen["continued"], seen
    back = str(seen["back"])
    assert back.startswith("Enter continues Roll & Write · Barbara, Dirk, Ani ◇ · round "), back


@pytest.mark.parametrize("roll", ["y3 b5", "p s a", "ssaacggt", "y3b5"])
def test_a_roll_of_letters_typed_back_from_a_game_is_refused_as_a_name(xdg: Path, roll: str) -> None:
    """Begun with a letter, a roll goes into player 1's name; Enter started a game for it. It is refused,
    saying why, and Enter in the saved games continues the game left."""
    path = saved_game(random_game(1, ("Barbara", "Dirk"), ("Ani",))[:60], "a.jsonl")
    seen: dict[str, object] = {}

    async def run() -> None:
        async with make_app().run_test(size=(100, 32)) as pilot:
            await left_by_esc(pilot, path)
            await pilot.press(*(KEYS.get(c, c) for c in roll), "enter")
            await pilot.pause()
            seen["refused"] = isinstance(pilot.app.screen, StartScreen), message(pilot)
            await pilot.press("shift+tab", "shift+tab", "enter")  # back over the game's choice to the list
            await pilot.pause()
            screen = pilot.app.screen
            seen["continued"] = isinstance(screen, RollAndWriteScreen) and screen.session.path == path

    asyncio.run(run())
    assert [p.name for p in paths.games_dir().glob("*.jsonl")] == ["a.jsonl"], "no game started"
    why = f"'{roll}' {REFUSED}{CONTINUES}"
    assert seen["refused"] == (True, why) and seen["continued"], seen


def test_real_names_start_a_game_and_a_roll_among_them_is_named(xdg: Path) -> None:
    """The rule refuses rolls, not names with digits, hyphens, spaces or letters beyond ASCII."""
    names = ["Jo", "Anne-Marie", "R2D2", "Li Lei"]
    seen: dict[str, object] = {}

    async def run() -> None:
        async with make_app().run_test(size=(100, 32)) as pilot:
            start = pilot.app.screen
            for n, name in enumerate([*names, "p s a"], 1):
                start.query_one(f"#name{n}", Input).value = name
            await pilot.pause()
            await pilot.press("f5")
            await pilot.pause()
            seen["refused"] = pilot.app.screen is start, message(pilot)
            start.query_one("#name5", Input).value = "José"
            await pilot.pause()
            await pilot.press("f5")
            await pilot.pause()
            screen = pilot.app.screen
            assert isinstance(screen, RollAndWriteScreen), message(pilot)
            seen["players"] = sorted(p.name for p in screen.session.state.players if not p.imaginary)

    asyncio.run(run())
    assert seen["refused"] == (
        True,
        f"'p s a' {REFUSED}",
    )
    assert seen["players"] == sorted([*names, "José"])


class HeldReading:
    """`saved_games.read_back` holding its first read until released (the test looks at the screen while the
    worker reads), counting the files read."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.release = threading.Event()
        self.read: list[Path] = []
        real = saved_games_module.read_back

        def held(path: Path) -> object:
            if not self.read:
                self.release.wait(5)
            self.read.append(path)
            return real(path)

        monkeypatch.setattr(saved_games_module, "read_back", held)


def test_many_saved_games_are_read_on_a_worker_while_the_form_can_be_used(
    xdg: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A first run with a thousand logs showed nothing for seconds while each was read. The screen shows at
    once, the list saying it reads; Enter there does nothing, a name can be typed; then all are listed."""
    write_games(paths.games_dir(), 60)
    reading = HeldReading(monkeypatch)
    seen: dict[str, object] = {}

    async def run() -> None:
        async with make_app().run_test(size=(100, 32)) as pilot:
            try:
                seen["reading"] = listed(pilot), pilot.app.focused and pilot.app.focused.id
                await pilot.press("enter", *"Anna")
                await pilot.pause()
                seen["typed"] = (
                    isinstance(pilot.app.screen, StartScreen),
                    pilot.app.screen.query_one("#name1", Input).value,
                )
            finally:
                reading.release.set()
            await pilot.app.workers.wait_for_complete()
            await pilot.pause()
            seen["listed"] = listed(pilot)

    asyncio.run(run())
    assert seen["reading"] == (["reading saved games: 0 of 60…"], "saved"), seen
    assert seen["typed"] == (True, "Anna"), seen
    games = [label for label in cast(list[str], seen["listed"]) if " · " in label]
    assert len(games) == 60 and len(reading.read) == 60, seen["listed"]


def test_a_game_started_while_the_saved_games_are_read_stops_the_reading(
    xdg: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Starting a game leaves the start screen: its worker is cancelled and stops after the file it reads."""
    write_games(paths.games_dir(), 60)
    reading = HeldReading(monkeypatch)
    seen: dict[str, object] = {}

    async def run() -> None:
        async with make_app().run_test(size=(100, 32)) as pilot:
            start = pilot.app.screen
            workers = [w for w in pilot.app.workers if w.node is start]
            try:
                for n, name in enumerate(["Anna", "Ben", "Cleo"], 1):
                    start.query_one(f"#name{n}", Input).value = name
                await pilot.pause()
                await pilot.press("f5")
                await pilot.pause()
                seen["game"] = type(pilot.app.screen)
            finally:
                reading.release.set()
            await pilot.pause()
            seen["worker"] = [w.state for w in workers]

    asyncio.run(run())
    # The worker's thread is joined as the app's loop closes: what it read is all it will read.
    assert seen["game"] is RollAndWriteScreen, seen
    assert seen["worker"] == [WorkerState.CANCELLED] and len(reading.read) == 1, (seen, len(reading.read))


def test_f4_waits_for_the_saved_games_being_read(xdg: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """F4 while the worker read the logs read them all again on the app's own thread (14 s with 600 logs,
    nothing drawn); it says to wait, and the past games open by themselves once the list is read (refused,
    F4 had to be pressed again: with 1,000 games a player waited for a screen that never came)."""
    write_games(paths.games_dir(), 30)
    reading = HeldReading(monkeypatch)
    seen: dict[str, object] = {}

    async def run() -> None:
        async with make_app().run_test(size=(100, 32)) as pilot:
            try:
                await pilot.press("f4")
                await pilot.pause()
                seen["while"] = isinstance(pilot.app.screen, StartScreen), message(pilot)
            finally:
                reading.release.set()
            await pilot.app.workers.wait_for_complete()
            await pilot.pause()
            seen["after"] = type(pilot.app.screen).__name__

    asyncio.run(run())
    assert seen == {
        "while": (True, "reading the saved games first: the past games open once the list is read"),
        "after": "HistoryScreen",
    }
