"""Kill the app with SIGKILL mid-game; a new app continues the same game from the start screen."""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from app_driver import game_screen, make_app, play_to_end

from companion.app.screens.start import StartScreen
from companion.cli import main as companion_main
from companion.games import alhambra_rw as rw

HERE = Path(__file__).parent


def run_until_report(report: Path, decisions: int) -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(HERE), os.environ.get("PYTHONPATH", "")])}
    child = subprocess.Popen(
        [sys.executable, str(HERE / "crash_child.py"), str(report), str(decisions)], env=env
    )
    try:
        deadline = time.monotonic() + 60
        while not report.exists():
            assert child.poll() is None, f"the app stopped by itself (exit {child.returncode})"
            assert time.monotonic() < deadline, "the app did not reach the turn to kill it at"
            time.sleep(0.05)
    finally:
        os.kill(child.pid, signal.SIGKILL)
        child.wait()
    assert child.returncode == -signal.SIGKILL


def test_killed_mid_game_continues_with_nothing_lost(xdg: Path, capsys: pytest.CaptureFixture[str]) -> None:
    report = xdg / "played.json"
    run_until_report(report, decisions=25)
    played = json.loads(report.read_text(encoding="utf-8"))
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
