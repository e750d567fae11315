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
from pathlib import Path
from typing import Any

INDEX_NAME = ".history.sqlite"
VERSION = 7
"""What a read-back holds and how its log is named; another version's index is emptied. Raise it when a
reader's JSON changes."""
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
    index is missing, of another version, or cannot be read. The index is only looked at here."""
    index = (folder / INDEX_NAME).absolute().as_uri()
    try:
        with closing(sqlite3.connect(f"{index}?mode=ro", uri=True, timeout=WAIT_SECONDS)) as db:
            if db.execute("pragma user_version").fetchone()[0] != VERSION:
                return list(paths)
            stored = _stored(db, kind)
    except sqlite3.Error:  # none yet, locked, damaged: `read_through` reads them all
        return list(paths)
    return [path for path in paths if _kept(stored, path, _key(path)) is None]


def _through_index(index: Path, kind: str, paths: Sequence[Path], read: Read) -> list[dict[str, Any]]:
    with closing(sqlite3.connect(index, timeout=WAIT_SECONDS)) as db:
        if db.execute("pragma user_version").fetchone()[0] != VERSION:
            with db:
                db.execute("drop table if exists readbacks")
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
