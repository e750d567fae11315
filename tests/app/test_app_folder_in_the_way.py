"""A games folder that cannot be made is said in one sentence naming what is in its way, for every game the
start screen starts: F5 said the bare "[Errno 20] Not a directory: '…/games'"."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from app_driver import make_app
from textual.widgets import Input, Static


def test_a_file_in_the_way_of_the_games_folder_is_said_for_every_game(
    xdg: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    in_the_way = xdg / "a-file"
    in_the_way.write_text("not a folder")
    monkeypatch.setenv("XDG_DATA_HOME", str(in_the_way))
    said: dict[str, str] = {}

    async def run() -> None:
        async with make_app().run_test(size=(100, 32)) as pilot:
            start = pilot.app.screen
            start.query_one("#name1", Input).value = "Ann"
            start.query_one("#name2", Input).value = "Ben"
            await pilot.pause()
            for key in ("f5", "f7", "f8", "f9"):
                await pilot.press(key)
                await pilot.pause()
                assert pilot.app.screen is start
                said[key] = str(start.query_one("#message", Static).render())

    asyncio.run(run())
    games = in_the_way / "table-companion" / "games"
    why = f"cannot make the games folder {games}: {in_the_way} is a file, not a folder"
    assert said == {
        "f5": why,
        "f7": f"Alhambra scoring pad: {why}",
        "f8": f"Alhambra dice game: {why}",
        "f9": f"Carcassonne dice game: {why}",
    }
