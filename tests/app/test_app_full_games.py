"""Complete games played through keys only; the end screen's totals equal `companion score` on the log."""

from __future__ import annotations

import asyncio
import json
import random
import time
from pathlib import Path

import pytest
from app_driver import make_app, new_game, play_to_end

from companion.cli import main as companion_main
from companion.games import alhambra_rw as rw


def scored_by_cli(log: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, int]:
    capsys.readouterr()
    assert companion_main(["score", str(log), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    return {p["name"]: p["total"] for p in data["players"]}


def test_three_player_game(xdg: Path, capsys: pytest.CaptureFixture[str]) -> None:
    async def play() -> tuple[Path, dict[str, int]]:
        app = make_app(seed=3)
        async with app.run_test(size=(100, 32)) as pilot:
            screen = await new_game(pilot, ["Anna", "Ben", "Cleo"])
            end = await play_to_end(pilot, random.Random(11))
            return screen.session.path, {p.name: p.total for p in end.board.players}

    t0 = time.perf_counter()
    log, totals = asyncio.run(play())
    print("elapsed", time.perf_counter() - t0)
    assert set(totals) == {"Anna", "Ben", "Cleo"}
    assert totals == scored_by_cli(log, capsys)


def test_two_players_and_an_imaginary_player(xdg: Path, capsys: pytest.CaptureFixture[str]) -> None:
    async def play() -> tuple[Path, dict[str, int], tuple[str, ...]]:
        app = make_app(seed=5)
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await new_game(pilot, ["Anna", "Ben"])
            imaginary = screen.session.setup.imaginary
            end = await play_to_end(pilot, random.Random(12))
            return screen.session.path, {p.name: p.total for p in end.board.players}, imaginary

    log, totals, imaginary = asyncio.run(play())
    assert len(imaginary) == 1
    assert set(totals) == {"Anna", "Ben", *imaginary}
    assert totals == scored_by_cli(log, capsys)


def test_solo_against_three_imaginary_players(xdg: Path, capsys: pytest.CaptureFixture[str]) -> None:
    async def play() -> tuple[Path, dict[str, int], rw.GameStarted]:
        app = make_app(seed=6)
        async with app.run_test(size=(80, 24)) as pilot:
            # Variants for one player: 2 imaginary (standard, against), 3 (standard, against), ...
            screen = await new_game(pilot, ["Sol"], variant_downs=3)
            end = await play_to_end(pilot, random.Random(13))
            return screen.session.path, {p.name: p.total for p in end.board.players}, screen.session.setup

    log, totals, setup = asyncio.run(play())
    assert setup.variant == rw.VERSUS_IMAGINARY
    assert len(setup.imaginary) == 3
    assert totals == scored_by_cli(log, capsys)
    # Against the imaginary players they score their building VP plus the extra points.
    assert all(totals[name] > 0 for name in setup.imaginary)
