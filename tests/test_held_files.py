"""A file saved whole and held (the original Alhambra's scoring pad): another window never finds it unheld,
one that lost it never writes over another's file, and each save is on disk before it takes the old one's
place."""

from __future__ import annotations

import asyncio
import fcntl
import json
import os
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from textual.app import App
from textual.widgets import Input

from companion.app.screens.alhambra_pad import AlhambraPadScreen
from companion.games.alhambra.pad import load_pad, new_pad
from companion.games.held import HeldFile, InUse
from jsonfile.whole import write_whole


class OnePad(App[None]):
    """The pad's screen alone, on the pad at `path`."""

    def __init__(self, path: Path) -> None:
        super().__init__()
        self.path = path

    def on_mount(self) -> None:
        self.push_screen(AlhambraPadScreen(self.path, load_pad(self.path)))


def type_tower(
    app: OnePad, value: str, first: Callable[[], object] = lambda: None
) -> tuple[AlhambraPadScreen, list[str]]:
    """`value` typed as the first player's towers on the app's pad, once the pad is open and `first` done:
    the screen, and what it said."""

    async def typed() -> tuple[AlhambraPadScreen, list[str]]:
        async with app.run_test(size=(110, 34)) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, AlhambraPadScreen)
            first()
            screen.query_one("#p0-tower", Input).value = value
            await pilot.pause()
            return screen, [n.message for n in app._notifications]

    return asyncio.run(typed())


def test_a_second_window_never_finds_a_pad_unheld_while_it_is_saved(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Between the rename of the new pad over the old and the hold moved to it, a second window opened the
    pad as nobody's (129833 times of 327861 in a race), and the first then wrote over its typing."""
    path = new_pad(tmp_path, ["Ann", "Ben"], datetime(2024, 5, 1, 20, 0))
    second_window: list[str] = []
    replace = os.replace

    def replaced_then_opened(src: Any, dst: Any) -> None:
        replace(src, dst)
        if Path(dst) == path:
            try:
                HeldFile(path).close()
                second_window.append("opened it")
            except InUse:
                second_window.append("refused")

    monkeypatch.setattr(os, "replace", replaced_then_opened)
    screen, said = type_tower(OnePad(path), "2")
    assert second_window and set(second_window) == {"refused"}, second_window
    assert not said, said
    assert json.loads(path.read_text())["players"][0]["scorings"][0]["buildings"]["tower"] == 2
    assert screen.pad["players"][0]["scorings"][0]["buildings"]["tower"] == 2


def test_a_window_whose_pad_was_replaced_says_so_and_never_writes_over_it(tmp_path: Path) -> None:
    """Another file put in the pad's place (a second window that got it unheld saved its own typing there):
    the first window's next change went over it all the same."""
    path = new_pad(tmp_path, ["Ann", "Ben"], datetime(2024, 5, 1, 20, 0))
    theirs = '{"theirs": true}\n'
    screen, said = type_tower(OnePad(path), "2", first=lambda: write_whole(path, theirs))
    assert path.read_text() == theirs
    assert said == [
        f"{path}: cannot save the pad (another file was put in its place since this window opened it: "
        "left as it is)"
    ]
    assert screen.pad["players"][0]["scorings"][0]["buildings"]["tower"] == 2, "the typing stays on screen"


def test_a_held_file_deleted_is_saved_again_and_held(tmp_path: Path) -> None:
    path = tmp_path / "p.pad.json"
    path.write_text("one")
    held = HeldFile(path)
    path.unlink()
    held.save("two")
    assert path.read_text() == "two"
    with pytest.raises(InUse):
        HeldFile(path)
    held.close()
    HeldFile(path).close()


def test_a_window_opening_a_file_as_it_is_saved_whole_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Opened just before a save renamed the new file over it, a second window locked the old file once the
    saver let go of it: the game held twice."""
    path = tmp_path / "p.pad.json"
    path.write_text("one")
    saver = HeldFile(path)
    old = path.stat().st_ino
    lock = fcntl.flock

    def saved_before_locked(fd: int, operation: int) -> None:
        if os.fstat(fd).st_ino == old and path.stat().st_ino == old:
            saver.save("two")  # between the second window's open and its lock
        lock(fd, operation)

    monkeypatch.setattr(fcntl, "flock", saved_before_locked)
    with pytest.raises(InUse):
        HeldFile(path)
    saver.close()


def test_a_file_is_on_disk_before_it_takes_the_old_ones_place(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A power cut after the rename could leave an empty file where the last good one was: the side file
    was never synced to disk. The rename is synced too (its folder), so the old file does not come back."""
    path = tmp_path / "profile.json"
    path.write_text("old")
    done: list[tuple[str, int]] = []
    fsync, replace = os.fsync, os.replace

    def synced(fd: int) -> None:
        done.append(("fsync", os.fstat(fd).st_ino))
        fsync(fd)

    def replaced(src: Any, dst: Any) -> None:
        done.append(("replace", os.stat(src).st_ino))
        replace(src, dst)

    monkeypatch.setattr(os, "fsync", synced)
    monkeypatch.setattr(os, "replace", replaced)
    write_whole(path, "new")
    side = next(ino for what, ino in done if what == "replace")
    assert done == [("fsync", side), ("replace", side), ("fsync", tmp_path.stat().st_ino)]
    assert path.read_text() == "new"
