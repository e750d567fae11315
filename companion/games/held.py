"""A saved game held by the one program writing it: the same game open in a second window is refused.

Two writers of one game would each write their own moves: a log's moves would interleave and one's undo
would cut the other's; a pad would keep only the last window's typing. The hold is an advisory lock on the
open file, which the system lets go of when the program ends, even killed, so no stale lock is ever left.
Where there are no such locks (Windows, some network shares) a game is played unheld.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any


class InUse(OSError):
    """The game's file is held by another program (the game open in another window)."""


def open_held(path: Path, mode: str = "rb", buffering: int = -1) -> Any:
    """`path` opened and held for this program until the file is closed, or `InUse` (the file closed)."""
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
        pass  # a file system without locks: played unheld, as before
    return file


def refuse_if_held(path: Path) -> None:
    """`InUse` if another program holds the file at `path`."""
    try:
        open_held(path).close()
    except InUse:
        raise
    except OSError:
        return  # nothing there to hold


class HeldFile:
    """A file saved whole (a new file renamed over the old) and held between saves: `renew` after each save
    moves the hold to the file now at `path`."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._file = open_held(path)

    def renew(self) -> None:
        """Hold the file saved at `path` since (the old one's hold goes with it)."""
        if os.path.samestat(os.fstat(self._file.fileno()), os.stat(self.path)):
            return
        renewed = open_held(self.path)
        self._file.close()
        self._file = renewed

    def close(self) -> None:
        self._file.close()
