"""Kill the app with SIGKILL mid-game; a new app continues the same game from the start screen. While the
app plays a game, another app neither continues it nor deletes it."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from app_driver import game_screen, make_app, play_to_end
from textual.widgets import Static

from companion.app.screens.start import StartScreen
from companion.cli import main as companion_main
from companion.games import alhambra_rw as rw

HERE = Path(__file__).parent


@contextlib.contextmanager
def another_app(report: Path, decisions: int, game: str = "game") -> Iterator[dict[str, Any]]:
    """An app in another process that starts a game (`pad`: an Alhambra scoring pad), plays `decisions`
    and keeps it open; it is killed with SIGKILL (no clean shutdown) when the block ends. Yields what it
    played."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(HERE), os.environ.get("PYTHONPATH", "")])}
    child = subprocess.Popen(
        [sys.executable, str(HERE / "crash_child.py"), str(report), str(decisions), game], env=env
    )
    try:
        deadline = time.monotonic() + 60
        while not report.exists():
            assert child.poll() is None, f"the app stopped by itself (exit {child.returncode})"
            assert time.monotonic() < deadline, "the app did not reach the turn to kill it at"
            time.sleep(0.05)
        yield json.loads(report.read_text(encoding="utf-8"))
    finally:
        os.kill(child.pid, signal.SIGKILL)
        child.wait()
    assert child.returncode == -signal.SIGKILL


def test_killed_mid_game_continues_with_nothing_lost(xdg: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with another_app(xdg / "played.json", decisions=25) as played:
        pass
    log = Path(played["log"])
    assert log.parent == xdg / "data" / "table-companion" / "games"

    async def resume_and_finish() -> tuple[list[dict[str, object]], str, dict[str, int]]:
        async with make_app(seed=33).run_test(size=(80, 24)) as pilot:
            assert isinstance(pilot.app.screen, StartScreen)
            await pilot.press("enter")  # the saved game is listed first and has the focus
            await pilot.pause()
            session = game_screen(pilot.app).session  # type: ignore[arg-type]
            resumed = [rw.event_to_json(e) for e in session.events]
            prompt = session.expectation().prompt
            end = await play_to_end(pilot, random.Random(34))
            return resumed, prompt, {p.name: p.total for p in end.board.players}

    resumed, prompt, totals = asyncio.run(resume_and_finish())
    assert resumed == played["events"]
    assert prompt == played["prompt"]
    capsys.readouterr()
    assert companion_main(["score", str(log), "--json"]) == 0
    scored = json.loads(capsys.readouterr().out)
    assert totals == {p["name"]: p["total"] for p in scored["players"]}
    # The finished log starts with every event the killed app had played.
    assert [rw.event_to_json(e) for e in rw.load_log(log).events][: len(resumed)] == resumed


def test_a_game_open_in_another_window_is_neither_continued_nor_deleted_until_it_is_closed(xdg: Path) -> None:
    """Two apps writing one log would interleave their moves, and one's undo would cut the other's move."""

    async def open_it() -> tuple[bool, str, str]:
        async with make_app(seed=33).run_test(size=(110, 34)) as pilot:
            await pilot.press("enter")  # the saved game is listed first and has the focus
            await pilot.pause()
            screen = pilot.app.screen
            if not isinstance(screen, StartScreen):
                return True, "", ""
            refused = str(screen.query_one("#message", Static).render())
            await pilot.press("delete")
            await pilot.pause()
            await pilot.press("y")
            await pilot.pause()
            return False, refused, str(pilot.app.screen.query_one("#message", Static).render())

    with another_app(xdg / "played.json", decisions=5) as played:
        log = Path(played["log"])
        opened, refused, deleting = asyncio.run(open_it())
        assert not opened, "the game open in the other app was continued here too"
        assert refused.endswith("open in another window of the companion: quit it there (ctrl+q) first")
        assert deleting.startswith(f"cannot delete {log.name}: open in another window"), deleting
        assert log.exists()

    # The other app is gone (killed: the system lets its hold go): the game goes on here, as it was played.
    async def continue_it() -> list[dict[str, object]]:
        async with make_app(seed=33).run_test(size=(110, 34)) as pilot:
            await pilot.press("enter")
            await pilot.pause()
            return [rw.event_to_json(e) for e in game_screen(pilot.app).session.events]  # type: ignore[arg-type]

    assert asyncio.run(continue_it()) == played["events"]


def test_a_pad_open_in_another_window_is_neither_opened_nor_deleted_until_it_is_closed(xdg: Path) -> None:
    """A pad is saved whole at each change: two windows on one would keep only the last one's typing."""

    async def open_it() -> tuple[str, ...]:
        async with make_app(seed=33).run_test(size=(110, 34)) as pilot:
            said = []
            for keys in (("enter",), ("f7",), ("delete", "y")):  # continue it, F7 with no names, delete it
                pilot.app.screen.query_one("#saved").focus()
                await pilot.press(*keys)
                await pilot.pause()
                assert isinstance(pilot.app.screen, StartScreen), f"{keys}: {pilot.app.screen}"
                said.append(str(pilot.app.screen.query_one("#message", Static).render()))
            return tuple(said)

    with another_app(xdg / "played.json", 0, "pad") as played:
        path = Path(played["log"])
        continued, f7, deleting = asyncio.run(open_it())
        in_use = "open in another window of the companion: quit it there (ctrl+q) first"
        assert continued.endswith(f"{path.name}: {in_use}"), continued
        assert f7.startswith("cannot open the Alhambra scoring pad: ") and "open in another window" in f7
        assert deleting.startswith(f"cannot delete {path.name}: open in another window"), deleting
        assert path.exists()

    async def continue_it() -> dict[str, Any]:
        async with make_app(seed=33).run_test(size=(110, 34)) as pilot:
            await pilot.press("enter")
            await pilot.pause()
            return pilot.app.screen.pad  # type: ignore[attr-defined, no-any-return]

    pad = asyncio.run(continue_it())
    assert pad == played["pad"] and pad["players"][0]["scorings"][0]["buildings"]["pavilion"] == 2
