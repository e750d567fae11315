"""Undo wrapped a game's whole log again for the screen, line by line: at 10,000 turns each ctrl+z froze the
screen for 3 s. The lines an undo keeps keep their rows; only what is written anew is wrapped."""

from __future__ import annotations

import asyncio
import random
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from app_driver import continue_first, make_app, random_game, saved_game, saved_log

from companion.app.carcassonne_dice_words import describe as carcassonne_words
from companion.app.roll_and_write_words import describe as roll_and_write_words
from companion.app.screens.carcassonne_dice import CarcassonneDiceScreen
from companion.app.screens.play import PlayScreen
from companion.app.screens.roll_and_write import RollAndWriteScreen
from companion.app.widgets import wrapped_log
from companion.app.widgets.wrapped_log import WrappedLog
from companion.games import alhambra_rw as rw
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


def _undo_and_redo_said(path: Path, kind: type[PlayScreen]) -> tuple[str, str]:
    said: list[str] = []

    async def play() -> None:
        async with make_app().run_test(size=(110, 34)) as pilot:
            _, screen = await continue_first(pilot, kind, path)
            for key in ("ctrl+z", "ctrl+y"):
                await pilot.press(key)
                await pilot.pause()
                said.append(screen.message)

    asyncio.run(play())
    return said[0], said[1]


def test_an_undo_names_every_line_of_the_move_as_the_log_words_it(xdg: Path) -> None:
    """Roll & Write's undo named a move's first line alone: a roll that won an award or ended a round was
    "undone: Ann rolled y3 b5", the award or round taken back with it unsaid (the dice games name them)."""
    events = random_game(2, ("Ann", "Ben", "Cleo"))
    worded = [
        roll_and_write_words(rw.replay(events[:n]), events[n], rw.replay(events[: n + 1]))
        for n in range(1, 40)
    ]
    at = next(n for n, lines in enumerate(worded, 1) if len(lines) > 1)
    lines = worded[at - 1]
    path = saved_game(events[: at + 1], "award.jsonl")
    undone, redone = _undo_and_redo_said(path, RollAndWriteScreen)
    assert len(lines) > 1 and undone == f"undone: {'; '.join(lines)} (ctrl+y redoes it)", (lines, undone)
    assert redone == f"redone: {'; '.join(lines)}"


def test_an_undo_leaves_the_cameras_note_to_the_log(xdg: Path) -> None:
    """The dice games' undo said a roll's note line too ("undone: Ann rolled 3 city …;   (camera read …)"):
    the note is the log's, kept to settle disputes; the message names the move."""
    _, events = play_random_game(cd.GameStarted(("Ann", "Ben")), random.Random(5))
    at = max(n for n, event in enumerate(events[:20]) if isinstance(event, cd.Rolled))
    events = [*events[:at], replace(events[at], source="camera", note="camera read 2 city, 1 knight")]
    state = cd.replay(events[:-1])
    lines = carcassonne_words(state, events[-1], cd.apply(state, events[-1]))
    path = saved_log(log_text(events), "noted.jsonl")
    undone, redone = _undo_and_redo_said(path, CarcassonneDiceScreen)
    assert lines[-1] == "  (camera read 2 city, 1 knight)"
    assert undone == f"undone: {'; '.join(lines[:-1])} (ctrl+y redoes it)", undone
    assert redone == f"redone: {'; '.join(lines[:-1])}"
