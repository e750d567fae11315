"""Snapshots of every screen at a fixed size (SVG files in `__snapshots__`, updated with --snapshot-update).

Everything on screen is fixed: names, the clock, the dice (typed, or from a seeded game), file times.
"""

from __future__ import annotations

from pathlib import Path

from app_driver import make_app, new_game, random_game, saved_game, send_keys
from textual.pilot import Pilot

SETUP = [f"y{v}b{v}" for v in (1, 1, 1, 2, 2, 2, 3, 3, 3)] + ["y1b1", "y4b4", "y5b5", "y2b3"]
SETUP_KEYS = [key for dice in SETUP for key in [*dice, "enter"]]


async def play_set_up(pilot: Pilot[None]) -> None:
    await new_game(pilot, ["Anna", "Ben", "Cleo"])
    await send_keys(pilot, SETUP_KEYS)


def test_start_screen(xdg: Path, snap_compare) -> None:  # type: ignore[no-untyped-def]
    saved_game(random_game(1, ("Barbara", "Dirk"), ("Ani",))[:60], "20261122-193000-barbara-dirk.jsonl")
    assert snap_compare(make_app(), terminal_size=(100, 32))


def test_start_screen_at_a_phones_width(xdg: Path, snap_compare) -> None:  # type: ignore[no-untyped-def]
    # The saved games above the new game's form, each field whole (a terminal on a phone, or a narrow split).
    saved_game(random_game(1, ("Barbara", "Dirk"), ("Ani",))[:60], "20261122-193000-barbara-dirk.jsonl")
    assert snap_compare(make_app(), terminal_size=(40, 40))


def test_start_screen_asks_before_deleting_a_finished_game(xdg: Path, snap_compare) -> None:  # type: ignore[no-untyped-def]
    # The finished game listed apart under its heading; `delete` on it asks, naming the game and its files.
    saved_game(random_game(1, ("Barbara", "Dirk"), ("Ani",))[:60], "20261122-193000-barbara-dirk.jsonl")
    saved_game(random_game(2, ("Anna", "Ben", "Cleo")), "20261122-203000-anna-ben-cleo.jsonl")
    assert snap_compare(make_app(), press=["down", "delete"], terminal_size=(100, 32))


def test_sheet_editor(xdg: Path, snap_compare) -> None:  # type: ignore[no-untyped-def]
    # F2 opens the example sheet; clearing the first cell makes it invalid (one pavilion short).
    assert snap_compare(make_app(), press=["f2", "backspace"], terminal_size=(100, 32))


def test_game_screen(xdg: Path, snap_compare) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(make_app(), run_before=play_set_up, terminal_size=(100, 32))


def test_game_screen_80x24(xdg: Path, snap_compare) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(make_app(), run_before=play_set_up, terminal_size=(80, 24))


def test_end_screen(xdg: Path, snap_compare) -> None:  # type: ignore[no-untyped-def]
    saved_game(random_game(2, ("Anna", "Ben", "Cleo")), "20261122-193000-anna-ben-cleo.jsonl")
    assert snap_compare(make_app(), press=["enter"], terminal_size=(100, 32))


def test_end_screen_every_grid(xdg: Path, snap_compare) -> None:  # type: ignore[no-untyped-def]
    # g scrolls to every real player's grid: the ones a dispute about rows and columns needs.
    saved_game(random_game(2, ("Anna", "Ben", "Cleo")), "20261122-193000-anna-ben-cleo.jsonl")
    assert snap_compare(make_app(), press=["enter", "g"], terminal_size=(100, 32))


def test_help_screen(xdg: Path, snap_compare) -> None:  # type: ignore[no-untyped-def]
    async def open_help(pilot: Pilot[None]) -> None:
        await play_set_up(pilot)
        await pilot.press("question_mark")

    assert snap_compare(make_app(), run_before=open_help, terminal_size=(100, 32))


def test_end_screen_every_grid_80x24(xdg: Path, snap_compare) -> None:  # type: ignore[no-untyped-def]
    # The smallest terminal: every grid still whole (they stack when three do not fit side by side).
    saved_game(random_game(2, ("Anna", "Ben", "Cleo")), "20261122-193000-anna-ben-cleo.jsonl")
    assert snap_compare(make_app(), press=["enter", "g"], terminal_size=(80, 24))
