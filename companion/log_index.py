"""What the game logs were read to, remembered beside them: `<games folder>/.history.sqlite`.

Reading a log back means replaying the whole game; with a thousand finished games that is seconds, each time
`companion history`, `stats` or the start screen lists them. The index keeps each log's read-back (a JSON
value) under the log's path (its bytes), size, modification time and a hash of its first and last bytes; a
log whose key differs is read again. Read-backs are written a batch at a time as the logs are read: a first
reading of a thousand logs that is interrupted keeps what it read. The logs stay the only record: the index
is never needed. One that is damaged is started again; one that cannot be opened or written (locked by another
process, a read-only folder) is passed by and the logs are read themselves, with nothing said to the user.
`unread` says beforehand how many logs a reading would read (the start screen reads many on a worker thread).
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import stat
from collections.abc import Callable, Sequence
from contextlib import closing
from functools import cache
from pathlib import Path
from typing import Any

INDEX_NAME = ".history.sqlite"
VERSION = 7
"""What a read-back holds and how its log is named; another version's index is emptied. Raise it when a
reader's JSON changes. A change of the rules that read the logs empties it too (`readers_code`)."""
ENDS = 4096
"""Bytes at each end of a log hashed into its key: a log rewritten to the same size within the file
system's time resolution (a restored copy) is still told apart."""
WAIT_SECONDS = 1.0
"""How long to wait for another process writing the index before reading the logs themselves."""
BATCH = 50
"""Read-backs written to the index at a time (a second or so of reading logs): what an interrupted reading
loses at most."""

Key = tuple[int, int, bytes]
Read = Callable[[Path], dict[str, Any]]


@cache
def readers_code() -> str:
    """A hash of the code and data that read a log back: the games (rules, scorers, what is printed on their
    components) and the reading itself. An index written by other readers is emptied: a rule checked since
    (Dirk's dealt buildings) kept a pad it refuses in history, with no totals, and F4 crashed on it."""
    here = Path(__file__).parent
    files = [*here.joinpath("games").rglob("*"), here / "saved_games.py", here / "history.py", Path(__file__)]
    digest = hashlib.blake2b(digest_size=16)
    for path in sorted(f for f in files if f.is_file() and "__pycache__" not in f.parts):
        digest.update(path.relative_to(here).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def _current(db: sqlite3.Connection) -> bool:
    """Whether the index holds read-backs of this version and these readers."""
    if db.execute("pragma user_version").fetchone()[0] != VERSION:
        return False
    try:
        row = db.execute("select code from readers").fetchone()
    except sqlite3.OperationalError:  # no such table: written before the readers were told apart
        return False
    return row is not None and row[0] == readers_code()


def _name(path: Path) -> bytes:
    """The log's path as the index keeps it: its bytes, not text. Where the locale is C, a name beyond ASCII
    (`José.jsonl`, copied from elsewhere) is text SQLite cannot store, and history and stats crashed."""
    return os.fsencode(path)


def _key(path: Path) -> Key | None:
    """The log as it is now (None: it cannot be looked at; its reader says why)."""
    try:
        info = path.stat()
        if not stat.S_ISREG(info.st_mode):  # opening a pipe would wait for a writer for ever
            return None
        mtime = info.st_mtime_ns
        with open(path, "rb") as file:
            size = file.seek(0, 2)
            file.seek(0)
            ends = file.read(ENDS)
            if size > ENDS:
                file.seek(max(ENDS, size - ENDS))
                ends += file.read(ENDS)
    except OSError:
        return None
    return size, mtime, hashlib.blake2b(ends, digest_size=16).digest()


def read_through(folder: Path, kind: str, paths: Sequence[Path], read: Read) -> list[dict[str, Any]]:
    """`read(path)` for each of `paths` (logs in `folder`), taken from the index where the log has not
    changed since; `kind` names the reader (each reader has its own read-backs)."""
    index = folder / INDEX_NAME
    for _ in range(2):
        try:
            return _through_index(index, kind, paths, read)
        except sqlite3.OperationalError:  # locked, read-only, no space: not the index's fault
            break
        except sqlite3.DatabaseError:  # not a database, or a damaged one: start it again
            try:
                index.unlink(missing_ok=True)
            except OSError:
                break
    return [read(path) for path in paths]


def unread(folder: Path, kind: str, paths: Sequence[Path]) -> list[Path]:
    """Those of `paths` that `read_through` would read now, not take from the index: all of them while the
    index is missing, of another version or readers, or cannot be read. The index is only looked at here."""
    index = (folder / INDEX_NAME).absolute().as_uri()
    try:
        with closing(sqlite3.connect(f"{index}?mode=ro", uri=True, timeout=WAIT_SECONDS)) as db:
            if not _current(db):
                return list(paths)
            stored = _stored(db, kind)
    except sqlite3.Error:  # none yet, locked, damaged: `read_through` reads them all
        return list(paths)
    return [path for path in paths if _kept(stored, path, _key(path)) is None]


def _through_index(index: Path, kind: str, paths: Sequence[Path], read: Read) -> list[dict[str, Any]]:
    with closing(sqlite3.connect(index, timeout=WAIT_SECONDS)) as db:
        if not _current(db):
            with db:
                db.execute("drop table if exists readbacks")
                db.execute("drop table if exists readers")
                db.execute("create table readers (code text)")
                db.execute("insert into readers values (?)", (readers_code(),))
                db.execute(f"pragma user_version = {VERSION}")
        db.execute(
            "create table if not exists readbacks (kind text, log blob, size integer, mtime_ns integer,"
            " ends blob, value text, primary key (kind, log))"
        )
        stored = _stored(db, kind)
        values, fresh = [], []
        for path in paths:
            # The key is taken before the log is read: a log written to meanwhile is read again next time.
            key = _key(path)
            value = _kept(stored, path, key)
            if value is None:
                value = read(path)
                if key is not None:
                    fresh.append((kind, _name(path), *key, json.dumps(value)))
                if len(fresh) == BATCH:
                    _write(db, fresh)
                    fresh = []
            values.append(value)
        gone = stored.keys() - {_name(path) for path in paths}
        _write(db, fresh, [(kind, log) for log in gone])
    return values


Stored = dict[bytes, tuple[Key, str]]
"""A reader's read-backs in the index, each under its log's path with the log's key then."""


def _stored(db: sqlite3.Connection, kind: str) -> Stored:
    return {
        log: ((size, mtime, ends), value)
        for log, size, mtime, ends, value in db.execute(
            "select log, size, mtime_ns, ends, value from readbacks where kind = ?", (kind,)
        )
    }


def _kept(stored: Stored, path: Path, key: Key | None) -> dict[str, Any] | None:
    """The read-back of the log at `path` as it is now (`key`) in the index (None: none, or not of the log
    as it is now, or damaged: it is read again)."""
    known = stored.get(_name(path))
    return _value(known[1]) if known is not None and known[0] == key else None


def _write(
    db: sqlite3.Connection, fresh: list[tuple[Any, ...]], gone: Sequence[tuple[str, bytes]] = ()
) -> None:
    """Store the `fresh` read-backs and forget those of the logs `gone` (kind, log), in one transaction."""
    if fresh or gone:
        with db:
            db.executemany("insert or replace into readbacks values (?, ?, ?, ?, ?, ?)", fresh)
            db.executemany("delete from readbacks where kind = ? and log = ?", gone)


def _value(text: str) -> dict[str, Any] | None:
    """A stored read-back (None: damaged, so the log is read again)."""
    try:
        value = json.loads(text)
    except (TypeError, ValueError):
        return None
    return value if isinstance(value, dict) else None
