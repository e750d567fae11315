"""What native libraries print about cameras goes to a log file, not over the program's own output.

OpenCV and FFmpeg write their warnings (`[ WARN:0@39.8] global cap_v4l.cpp ...`, `[tcp @ 0x...] ...`)
straight to the process's file descriptor 2, past Python: on top of the app's score sheet at every camera
retry, and before a command's one clear error line. Textual draws on `sys.__stderr__`; while the block runs,
that (and `sys.stderr`) becomes a copy of the terminal's descriptor and descriptor 2 itself points at the log.
A log that cannot be written (no home, a state folder that is a file or read-only) is said in one line, and
what they print then goes nowhere: on the terminal it would still be drawn over the app.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from datetime import datetime
from pathlib import Path
from typing import BinaryIO

import cv2

from jsonfile import complain

LOG_LIMIT = 1_000_000
"""The size in bytes over which the log is started afresh as a program opens it, the last one kept beside
it: it grew for ever, a line per start, and an OpenCV warning every few seconds while a camera is missing."""


@contextmanager
def native_output_to(log: Path, prefix: str | None = None) -> Iterator[None]:
    """Send what is written to descriptor 2 to the end of `log` while the block runs; Python's stderr (and
    Textual with it) keeps the terminal. A log that cannot be written is said once, as `PREFIX: ...`
    (by default the program's name)."""
    terminal_stream = sys.__stderr__
    if terminal_stream is None:  # no stderr at all: nothing would reach a screen
        yield
        return
    terminal_stream.flush()
    # Before descriptor 2 moves: whatever fails from here on is said on the terminal, not lost in the log.
    opencv_level = cv2.utils.logging.getLogLevel()
    with _opened(log, prefix or Path(sys.argv[0]).name) as out:
        terminal_fd = os.dup(2)
        os.dup2(out.fileno(), 2)
    terminal = os.fdopen(terminal_fd, "w", encoding=terminal_stream.encoding, errors="replace")
    # A command may have silenced OpenCV for its own output; its warnings are what the log is for.
    cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_WARNING)
    saved = sys.__stderr__, sys.stderr
    # typeshed calls `sys.__stderr__` final; Textual reads it as its driver starts: it must be reassigned.
    setattr(sys, "__stderr__", terminal)  # noqa: B010
    sys.stderr = terminal
    try:
        yield
    finally:
        terminal.flush()
        cv2.utils.logging.setLogLevel(opencv_level)
        os.dup2(terminal_fd, 2)
        setattr(sys, "__stderr__", saved[0])  # noqa: B010
        sys.stderr = saved[1]
        terminal.close()


def _opened(log: Path, prefix: str) -> BinaryIO:
    """`log` opened at its end, this run's heading written; the null device when it cannot be opened."""
    try:
        log.parent.mkdir(parents=True, exist_ok=True)
        _rotated(log)
        out = log.open("ab", buffering=0)  # unbuffered: nothing of ours is left to write on closing
    except OSError as exc:
        why = f"{exc.filename}: {exc.strerror}" if exc.filename and exc.strerror else str(exc)
        complain(prefix, f"cannot write the log {log} ({why}): what OpenCV and FFmpeg print is not kept")
        return open(os.devnull, "wb", buffering=0)
    with suppress(OSError):  # a full disk: the log loses its heading, as it would lose what follows
        out.write(f"--- {' '.join(sys.argv)} at {datetime.now():%Y-%m-%d %H:%M:%S}\n".encode())
    return out


def _rotated(log: Path) -> None:
    """`log` moved to `LOG.1` (replacing an older one) when it has grown over `LOG_LIMIT`: the next line
    starts a new one."""
    with suppress(OSError):  # none yet, or it cannot be moved: written on at its end
        if log.stat().st_size > LOG_LIMIT:
            os.replace(log, log.with_name(log.name + ".1"))
