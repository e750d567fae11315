"""The index beside the game logs (`.history.sqlite`): history, stats and the start screen read each log once
and then take it from the index while the log stays as it was; the logs stay the record, and an index that
is damaged or locked changes nothing the user sees."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

from companion import history as history_module
from companion import saved_games as session
from companion.history import history
from companion.history_bench import EXAMPLES, write_games
from companion.log_index import INDEX_NAME
from companion.saved_games import saved_games

CARCASSONNE = EXAMPLES[3]


def _counting(monkeypatch: pytest.MonkeyPatch, module: Any, name: str) -> list[Path]:
    """The logs `module.name` (a reader given to the index) reads from now on."""
    read: list[Path] = []
    real = getattr(module, name)

    def counted(path: Path) -> Any:
        read.append(path)
        return real(path)

    monkeypatch.setattr(module, name, counted)
    return read


def _unindexed(folder: Path, kind: str, paths: Sequence[Path], read: Callable[[Path], Any]) -> list[Any]:
    return [read(path) for path in paths]


def _listed(folder: Path) -> list[dict[str, Any]]:
    return [game.to_json() for game in history(folder).games]


def test_a_thousand_games_are_read_once_and_then_from_the_index(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "games"
    write_games(folder, 1000)
    with monkeypatch.context() as plain:
        plain.setattr(history_module, "read_through", _unindexed)
        expected = _listed(folder)
    assert len(expected) == 1000 and not (folder / INDEX_NAME).exists()
    read = _counting(monkeypatch, history_module, "_read_back")
    assert _listed(folder) == expected
    assert len(read) == 1000, "each log read once, to build the index"
    assert _listed(folder) == expected and history(folder).problems == ()
    assert len(read) == 1000, "then none: all from the index"


def test_a_changed_or_removed_log_is_read_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "games"
    paths = write_games(folder, 8)
    before = _listed(folder)
    read = _counting(monkeypatch, history_module, "_read_back")
    # A Carcassonne game cut short, its time kept: still being played, so not history any more.
    cut = paths[3]
    stamp = cut.stat().st_mtime_ns
    lines = CARCASSONNE.read_bytes().splitlines(keepends=True)
    cut.write_bytes(b"".join(lines[: len(lines) // 2]))
    os.utime(cut, ns=(stamp, stamp))
    paths[5].unlink()
    after = _listed(folder)
    assert read == [cut], "only the changed log is read again"
    assert after == [g for g in before if g["log"] not in (str(cut), str(paths[5]))]


def test_a_rewrite_of_the_same_size_and_time_is_read_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "games"
    path = write_games(folder, 1)[0]
    assert "Barbara" in str(_listed(folder))
    stamp = path.stat().st_mtime_ns
    path.write_bytes(path.read_bytes().replace(b"Barbara", b"Barbaro"))
    os.utime(path, ns=(stamp, stamp))
    read = _counting(monkeypatch, history_module, "_read_back")
    listed = str(_listed(folder))
    assert read == [path] and "Barbaro" in listed and "Barbara" not in listed


def test_a_damaged_index_is_started_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "games"
    write_games(folder, 8)
    expected = _listed(folder)
    index = folder / INDEX_NAME
    index.write_bytes(b"not a database, a torn copy of one" * 100)
    assert _listed(folder) == expected and history(folder).problems == ()
    with sqlite3.connect(index) as db:
        assert db.execute("select count(*) from readbacks").fetchone()[0] == 8, "built again"
    # A damaged read-back inside a sound database: that log is read again.
    with sqlite3.connect(index) as db:
        db.execute("update readbacks set value = '{not json' where rowid = 1")
    read = _counting(monkeypatch, history_module, "_read_back")
    assert _listed(folder) == expected and len(read) == 1


def test_a_locked_index_is_passed_by(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "games"
    write_games(folder, 8)
    expected = _listed(folder)
    monkeypatch.setattr("companion.log_index.WAIT_SECONDS", 0.05)
    holder = sqlite3.connect(folder / INDEX_NAME, isolation_level=None)
    try:
        holder.execute("begin exclusive")
        read = _counting(monkeypatch, history_module, "_read_back")
        assert _listed(folder) == expected
        assert len(read) == 8, "the logs read themselves while another process holds the index"
    finally:
        holder.close()


def test_the_start_screen_lists_the_same_games_from_the_index(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "games"
    write_games(folder, 12)
    (folder / "broken.jsonl").write_text("{not json\n")
    with monkeypatch.context() as plain:
        plain.setattr(session, "read_through", _unindexed)
        expected = saved_games(folder)
    assert saved_games(folder) == expected
    read = _counting(monkeypatch, session, "_saved_read_back")
    assert saved_games(folder) == expected and read == []
    assert [g.path.name for g in expected if g.problem] == ["broken.jsonl"], "listed with why"


@pytest.mark.parametrize("size", [3_000_000, 25_000_000])
def test_history_and_the_start_screen_name_one_limit_for_a_log_too_large(tmp_path: Path, size: int) -> None:
    folder = tmp_path / "games"
    folder.mkdir()
    log = folder / "huge.jsonl"
    log.write_bytes(CARCASSONNE.read_bytes() + b" " * size + b"\n")
    (listed,) = saved_games(folder)
    said = f"{log}: too large ({log.stat().st_size:,} bytes; at most 2 MB)"
    assert history(folder).problems == (said,)
    assert listed.problem == said


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_a_pipe_among_the_logs_is_named_not_waited_on(tmp_path: Path) -> None:
    # Opening a pipe waits for a writer for ever: history, stats and `score` hung on one named like a log.
    folder = tmp_path / "data" / "table-companion" / "games"
    folder.mkdir(parents=True)
    pipe = folder / "pipe.jsonl"
    os.mkfifo(pipe)
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data")}
    companion = str(Path(sys.executable).parent / "companion")
    for command in (["history"], ["stats"], ["score", str(pipe)]):
        run = subprocess.run([companion, *command], capture_output=True, text=True, timeout=60, env=env)
        assert f"{pipe}: a pipe or socket, not a file" in run.stderr, (command, run.stderr)
    (listed,) = saved_games(folder)
    assert listed.problem == f"{pipe}: a pipe or socket, not a file"
