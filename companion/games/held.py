"""A saved game held by the one program writing it: the same game open in a second window is refused.

Two writers of one game would each write their own moves: a log's moves would interleave and one's undo
would cut the other's; a pad would keep only the last window's typing. The hold is an advisory lock on the
open file, which the system lets go of when the program ends, even killed, so no stale lock is ever left.
Where there are no such locks (Windows, some network shares) a game is played unheld.
"""

from __future__ import annotations

import os
import sys
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from jsonfile.whole import written_whole


class InUse(OSError):
    """The game's file is held by another program (the game open in another window)."""


def open_held(path: Path, mode: str = "rb", buffering: int = -1) -> Any:
    """`path` opened and held for this program until the file is closed, or `InUse` (the file closed)."""
    while True:
        file = open(path, mode, buffering=buffering)  # noqa: SIM115 - the caller's to close
        if sys.platform == "win32":
            return file
        import fcntl

        try:
            fcntl.flock(file.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError as exc:
            file.close()
            raise InUse("open in another window of the companion: quit it there (ctrl+q) first") from exc
        except OSError:
            return file  # a file system without locks: played unheld, as before
        if _at(path, file) is not False:
            return file
        # Saved whole while it was being opened: the file held is the one let go, and the one at `path` the
        # one its holder holds now (or nobody does: held on the next try).
        file.close()


def _at(path: Path, file: Any) -> bool | None:
    """Whether `file` is the file at `path` (None: none is there, or it cannot be looked at)."""
    try:
        return os.path.samestat(os.fstat(file.fileno()), os.stat(path))
    except OSError:
        return None


def refuse_if_held(path: Path) -> None:
    """`InUse` if another program holds the file at `path`."""
    try:
        open_held(path).close()
    except InUse:
        raise
    except OSError:
        return  # nothing there to hold


class HeldLost(OSError):
    """The file at a held path is no longer the one held (another program put its own there): a save would
    write over it."""


class HeldFile:
    """A file saved whole (a new file renamed over the old) and held all along: `save` holds the new file
    before it takes the old one's place, so another window never finds it unheld."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._file = open_held(path)

    def save(self, text: str) -> None:
        """`text` written whole at `path` (`written_whole`, its folder made where missing), the hold moving
        to the new file; `HeldLost`, nothing written, where another file has taken the held one's place (one
        deleted is written again)."""
        if _at(self.path, self._file) is False:
            raise HeldLost("another file was put in its place since this window opened it: left as it is")
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with ExitStack() as kept:
            with written_whole(self.path) as side:
                side.write_bytes(text.encode("utf-8"))
                # Nobody else knows the side file yet: held now, it is held when it takes the path.
                renewed = kept.enter_context(open_held(side))
            kept.pop_all()
        self._file.close()
        self._file = renewed

    def close(self) -> None:
        self._file.close()
