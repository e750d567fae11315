"""The game's log deleted (with the whole data folder) in the middle of a game: the moves after it were shown
and never saved, and the game was gone once quit. Now the next move says so and the game is written again
whole; made again, it is kept, and every move is on disk after ctrl+q."""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path

from app_driver import make_app, new_game, send_keys
from textual.widgets import Static

from companion.games import alhambra_rw as rw

SETUP = ["y3 b5", "y4 b4", "y1 b1"]
LATER = ["y2 b2", "y6 b6"]


def typed(dice: str) -> list[str]:
    return [*dice.replace(" ", ""), "enter"]


def test_a_log_deleted_mid_game_is_said_written_again_and_keeps_every_move(xdg: Path) -> None:
    seen: dict[str, object] = {}

    async def play() -> None:
        async with make_app().run_test(size=(100, 32)) as pilot:
            screen = await new_game(pilot, ["Ann", "Ben", "Cy"])
            await send_keys(pilot, [key for dice in SETUP for key in typed(dice)])
            path = screen.session.path
            shutil.rmtree(xdg / "data")  # `rm -rf $XDG_DATA_HOME` in another shell
            await send_keys(pilot, typed(LATER[0]))
            seen["said"] = str(screen.query_one("#turn", Static).content)
            await send_keys(pilot, ["enter"])  # the dice typed are still there: Enter makes the move again
            await send_keys(pilot, typed(LATER[1]))
            seen["played"] = list(screen.session.events)
            seen["path"] = path
            await pilot.press("ctrl+q")

    asyncio.run(play())
    path = seen["path"]
    assert isinstance(path, Path)
    assert f"{path}: the game's log was deleted: every move is written again there" in " ".join(
        str(seen["said"]).split()
    )
    played = seen["played"]
    assert isinstance(played, list) and len(played) == 1 + len(SETUP) + len(LATER)
    assert [f"y{e.yellow[0]} b{e.blue[0]}" for e in played[1:]] == SETUP + LATER
    assert list(rw.load_log(path).events) == played
