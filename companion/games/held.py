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


def hold(file: Any) -> None:
    """Hold the open `file` for this program until it is closed, or raise `InUse`."""
    if sys.platform == "win32":
        return
    import fcntl

    try:
        fcntl.flock(file.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError as exc:
        raise InUse("open in another window of the companion: quit it there (ctrl+q) first") from exc
    except OSError:
        pass  # a file system without locks: played unheld, as before


def refuse_if_held(path: Path) -> None:
    """`InUse` if another program holds the file at `path`."""
    try:
        file = open(path, "rb")  # noqa: SIM115 - closed below, after the check
    except OSError:
        return  # nothing there to hold
    with file:
        hold(file)


class HeldFile:
    """A file saved whole (a new file renamed over the old) and held between saves: `renew` after each save
    moves the hold to the file now at `path`."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._file = self._held()

    def _held(self) -> Any:
        file = open(self.path, "rb")  # noqa: SIM115 - kept open while the game is
        try:
            hold(file)
        except InUse:
            file.close()
            raise
        return file

    def renew(self) -> None:
        """Hold the file saved at `path` since (the old one's hold goes with it)."""
        if os.path.samestat(os.fstat(self._file.fileno()), os.stat(self.path)):
            return
        renewed = self._held()
        self._file.close()
        self._file = renewed

    def close(self) -> None:
        self._file.close()
