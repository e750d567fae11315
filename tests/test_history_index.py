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
from companion import log_index
from companion import saved_games as session
from companion.history import history
from companion.history_bench import EXAMPLES, write_games
from companion.log_index import INDEX_NAME, read_through
from companion.saved_games import saved_games

CARCASSONNE = EXAMPLES[3]

Reader = Callable[[Path], Any]


def _reading(monkeypatch: pytest.MonkeyPatch, reader: Callable[[Reader], Reader]) -> None:
    """History and the start screen read each log they do not take from the index with `reader(read)`."""

    def through(folder: Path, kind: str, paths: Sequence[Path], read: Reader) -> list[Any]:
        return read_through(folder, kind, paths, reader(read))

    for module in (history_module, session):
        monkeypatch.setattr(module, "read_through", through)


def _reads(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """The logs history and the start screen read from now on (not taken from the index)."""
    read: list[Path] = []

    def counted(real: Reader) -> Reader:
        def count(path: Path) -> Any:
            read.append(path)
            return real(path)

        return count

    _reading(monkeypatch, counted)
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
    read = _reads(monkeypatch)
    assert _listed(folder) == expected
    assert len(read) == 1000, "each log read once, to build the index"
    assert _listed(folder) == expected and history(folder).problems == ()
    assert len(read) == 1000, "then none: all from the index"


def test_a_changed_or_removed_log_is_read_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "games"
    paths = write_games(folder, 8)
    before = _listed(folder)
    read = _reads(monkeypatch)
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
    read = _reads(monkeypatch)
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
    read = _reads(monkeypatch)
    assert _listed(folder) == expected and len(read) == 1


def test_read_backs_of_other_rules_are_read_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The index outlives an update of the program: read-backs of other rules (a rule checked since refuses
    a pad they counted, and F4 crashed on it) or of an index from before the rules were told apart are read
    again."""
    folder = tmp_path / "games"
    write_games(folder, 3)
    expected = _listed(folder)
    with monkeypatch.context() as other:
        other.setattr(log_index, "readers_code", lambda: "the rules of another version")
        read = _reads(other)
        assert _listed(folder) == expected and len(read) == 3
    read = _reads(monkeypatch)
    assert _listed(folder) == expected and len(read) == 3, "this version's rules read them again"
    assert _listed(folder) == expected and len(read) == 3, "then taken from the index"
    with sqlite3.connect(folder / INDEX_NAME) as db:
        db.execute("drop table readers")
    assert _listed(folder) == expected and len(read) == 6


def test_a_locked_index_is_passed_by(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "games"
    write_games(folder, 8)
    expected = _listed(folder)
    monkeypatch.setattr("companion.log_index.WAIT_SECONDS", 0.05)
    holder = sqlite3.connect(folder / INDEX_NAME, isolation_level=None)
    try:
        holder.execute("begin exclusive")
        read = _reads(monkeypatch)
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
    read = _reads(monkeypatch)
    assert saved_games(folder) == expected and read == []
    assert [g.path.name for g in expected if g.problem] == ["broken.jsonl"], "listed with why"


def test_history_and_the_start_screen_read_a_log_once_for_both(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Each read its logs for its own read-back: a thousand games were read for the start screen, then all
    # again when F4 showed the history.
    folder = tmp_path / "games"
    paths = write_games(folder, 8)
    read = _reads(monkeypatch)
    assert len(saved_games(folder)) == 8 and read == paths
    assert len(history(folder).games) == 8 and read == paths, "history's read-backs came with them"
    paths[0].write_bytes(paths[0].read_bytes() + b"\n")
    assert len(history(folder).games) == 8 and len(saved_games(folder)) == 8
    assert read == [*paths, paths[0]], "a changed log is read again once for both"


class Interrupted(Exception):
    """The reading stopped half-way (ctrl+c, the window closed)."""


def test_an_interrupted_first_reading_keeps_what_it_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The index was written once every log had been read: a first start screen of a thousand games (seconds)
    # closed before it appeared threw all the reading away, and the next started from nothing again.
    folder = tmp_path / "games"
    paths = write_games(folder, 12)
    monkeypatch.setattr(log_index, "BATCH", 4)

    def stopping(real: Reader) -> Reader:
        def read_until(path: Path) -> Any:
            if path == paths[9]:
                raise Interrupted
            return real(path)

        return read_until

    with monkeypatch.context() as stopped:
        _reading(stopped, stopping)
        with pytest.raises(Interrupted):
            saved_games(folder)
    read = _reads(monkeypatch)
    assert len(history(folder).games) == 12
    assert read == paths[8:], "the two batches read before it stopped were kept"


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
