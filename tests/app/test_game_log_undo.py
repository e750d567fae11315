"""Undo wrapped a game's whole log again for the screen, line by line: at 10,000 turns each ctrl+z froze the
screen for 3 s. The lines an undo keeps keep their rows; only what is written anew is wrapped."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import pytest
from app_driver import continue_first, make_app, saved_log

from companion.app.screens.carcassonne_dice import CarcassonneDiceScreen
from companion.app.widgets import wrapped_log
from companion.app.widgets.wrapped_log import WrappedLog
from companion.games import carcassonne_dice as cd
from companion.games.carcassonne_dice.scorefile import log_text
from companion.games.carcassonne_dice.simulate import play_random_game


def test_undo_and_redo_wrap_only_the_lines_they_change(xdg: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _, events = play_random_game(cd.GameStarted(("Ann", "Ben", "Cleo")), random.Random(3))
    path = saved_log(log_text(events[: len(events) // 2]), "long.jsonl")
    wrapped: list[str] = []
    hanging_rows = wrapped_log.hanging_rows

    def counted(console: Any, line: str, width: int, hang: int) -> list[str]:
        wrapped.append(line)
        return hanging_rows(console, line, width, hang)

    seen: dict[str, Any] = {}

    async def play() -> None:
        async with make_app().run_test(size=(100, 32)) as pilot:
            _, screen = await continue_first(pilot, CarcassonneDiceScreen, path)
            log = screen.query_one("#log", WrappedLog)
            seen["opened"] = list(log.lines)
            monkeypatch.setattr(wrapped_log, "hanging_rows", counted)
            await pilot.press("ctrl+z")
            await pilot.pause()
            seen["undone"] = (list(log.lines), [line for lines in screen.worded for line in lines])
            seen["undo wrapped"] = list(wrapped)
            await pilot.press("ctrl+y")
            await pilot.pause()
            seen["redone"] = list(log.lines)

    asyncio.run(play())
    undone, worded = seen["undone"]
    assert len(seen["opened"]) > 50 and undone == worded and len(undone) < len(seen["opened"])
    assert seen["undo wrapped"] == [], "no line the undo kept was wrapped again"
    assert seen["redone"] == seen["opened"]
