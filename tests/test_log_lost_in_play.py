"""A game's log deleted, or another file put in its place, while the game is played: the moves after it were
written into a file nobody could open again, and undo cut the last line of the file now at the path (another
game's). The session writes the game again whole (beside that other file, never touching it), refuses the
move that found it so, saying where the game goes on, and the players make it again."""

from __future__ import annotations

import os
import random
import shutil
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from companion.games.entry import GameEntry
from companion.games.eventlog import LogWriteError, load_log, log_text
from companion.games.session import Session
from companion.games.table import FIRST_GAME, PLAYED

NOW = datetime(2026, 11, 26, 20, 0)


def played(game: str, folder: Path, moves: int) -> tuple[GameEntry, list[Any], Session[Any, Any, Any]]:
    """A new game of `game` in `folder` with its first `moves` moves made; its entry and all its events."""
    entry = PLAYED[game]
    assert entry.rules is not None and entry.random_game is not None
    events = entry.random_game(entry.players[0], random.Random(5))
    session = Session.create(entry.rules, folder, events[0], NOW)
    for event in events[1 : moves + 1]:
        session.submit(event)
    return entry, events, session


def on_disk(entry: GameEntry, path: Path) -> list[Any]:
    assert entry.rules is not None
    return list(load_log(path, entry.rules.log).events)


@pytest.mark.parametrize("game", list(PLAYED))
def test_a_log_deleted_in_play_is_written_again_whole(game: str, tmp_path: Path) -> None:
    folder = tmp_path / "data" / "games"
    entry, events, session = played(game, folder, 5)
    path = session.path
    shutil.rmtree(tmp_path / "data")  # `rm -rf $XDG_DATA_HOME`: the folder goes with the log
    with pytest.raises(LogWriteError) as refused:
        session.submit(events[6])
    said = str(refused.value)
    assert said.startswith(f"{path}: the game's log was deleted: every move is written again there")
    assert "\n" not in said and "make it again" in said
    assert session.path == path and session.events == events[:6] and on_disk(entry, path) == events[:6]
    session.submit(events[6])  # made again: taken, and said no more
    session.submit(events[7])
    session.close()
    assert on_disk(entry, path) == events[:8]


@pytest.mark.parametrize("game", list(PLAYED))
def test_a_log_replaced_in_play_is_left_alone_and_the_game_goes_on_beside(game: str, tmp_path: Path) -> None:
    entry, events, session = played(game, tmp_path, 5)
    assert entry.rules is not None
    path = session.path
    other = tmp_path / "g0.jsonl"  # a finished game's log, moved over the one being played
    other.write_text(log_text(events, entry.rules.log.encode), encoding="utf-8")
    kept = other.read_bytes()
    os.replace(other, path)
    moved_to = path.with_name(f"{path.stem}-2.jsonl")
    with pytest.raises(LogWriteError) as refused:
        session.undo()
    assert str(refused.value) == (
        f"{path}: the game's log was replaced by another file (left as it is): every move is written again "
        f"at {moved_to}; nothing was undone: undo again"
    )
    assert path.read_bytes() == kept and session.path == moved_to and on_disk(entry, moved_to) == events[:6]
    session.undo()
    session.submit(events[5])
    session.submit(events[6])
    session.undo()
    session.close()
    assert path.read_bytes() == kept, "the other game's log is never touched"
    assert on_disk(entry, moved_to) == events[:6] == session.events


def test_a_move_after_the_log_was_replaced_is_refused_and_the_other_file_kept(tmp_path: Path) -> None:
    entry, events, session = played(FIRST_GAME.id, tmp_path, 5)
    path = session.path
    path.rename(tmp_path / "aside.jsonl")
    path.write_text("not this game's\n", encoding="utf-8")
    with pytest.raises(LogWriteError, match=r"replaced by another file .* make it again$"):
        session.submit(events[6])
    assert path.read_text(encoding="utf-8") == "not this game's\n"
    assert session.events == events[:6] and on_disk(entry, session.path) == events[:6]
    session.submit(events[6])
    session.close()
    assert on_disk(entry, session.path) == events[:7] and session.path.name.endswith("-2.jsonl")


@pytest.mark.parametrize("game", PLAYED)
def test_a_game_begun_in_another_window_in_the_same_second_keeps_its_own_log(
    game: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Each window chose the same free name (its start second, its players) before making the file; the one
    # that made it second stopped the app with a traceback ("a game log already exists there").
    import companion.games.session as session_module

    entry = PLAYED[game]
    assert entry.rules is not None and entry.random_game is not None
    setup = entry.random_game(entry.players[0], random.Random(5))[0]
    chosen = session_module.free_path
    taken: list[Path] = []

    def the_other_window_makes_it_meanwhile(folder: Path, stem: str, suffix: str) -> Path:
        path = chosen(folder, stem, suffix)
        if not taken:
            taken.append(path)
            path.write_text("the other window's game\n")
        return path

    monkeypatch.setattr(session_module, "free_path", the_other_window_makes_it_meanwhile)
    session = Session.create(entry.rules, tmp_path, setup, NOW)
    (other,) = taken
    assert session.path == other.with_name(f"{other.stem}-2{other.suffix}")
    assert other.read_text() == "the other window's game\n"
    assert on_disk(entry, session.path) == [setup]
    session.close()
