"""Writing a file whole: under a side name, synced to disk and renamed over the file once complete. A crash or
a full disk part way leaves the file as it was (or absent), never half written, and the side file is
removed."""

from __future__ import annotations

import errno
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

SIDE_SUFFIX = ".part"
"""What the side file's name adds to the file's: one left by a program killed as it wrote is half written."""


@contextmanager
def written_whole(path: Path) -> Iterator[Path]:
    """The side file to write `path`'s content to; renamed to `path` when the block ends without an error
    (`OSError` from the writing or the rename goes on to the caller, naming `path`)."""
    if path.is_symlink():
        path = path.resolve()  # the file it points to is written, the link kept (it was replaced by a file)
    if path.exists() and not path.is_file() and not path.is_dir():
        # A device or a pipe is no file to write whole (as root, renaming over /dev/full replaced it).
        raise OSError(errno.EINVAL, "not a regular file", str(path))
    side = path.with_name(path.name + SIDE_SUFFIX)
    try:
        yield side
        _synced(side)
        os.replace(side, path)
        _folder_synced(path.parent)
    except OSError as err:
        if err.errno is None:
            raise
        # The side file is this module's own: the error names the file the caller asked for, never one the
        # user did not ("[Errno 21] Is a directory: 'out.part' -> 'out'").
        raise type(err)(err.errno, err.strerror, str(path)) from None
    finally:
        with suppress(OSError):  # a side file that cannot be removed is only a file too many
            side.unlink(missing_ok=True)


def _synced(side: Path) -> None:
    # On disk before it takes the file's place: after a crash some file systems hold the rename but not
    # the content written just before it (an empty file where the last good one was).
    with open(side, "r+b") as file:
        os.fsync(file.fileno())


def _folder_synced(folder: Path) -> None:
    # The rename on disk too, as the content is: a crash does not bring the file before it back.
    if sys.platform == "win32":
        return  # no folder is opened there (nor needs its own sync)
    with suppress(OSError):  # a file system that syncs no folder: the file is in place all the same
        descriptor = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(descriptor)
        finally:
            os.close(descriptor)


def write_whole(path: Path, data: str | bytes) -> None:
    """`path` made to hold `data` (text as UTF-8) through `written_whole`, its folder made where missing;
    `OSError` (a full disk, a folder not writable) goes on to the caller."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with written_whole(path) as side:
        side.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)


WHY_NOT_WRITTEN = {
    errno.EISDIR: "is a folder",
    errno.ENOENT: "no such folder",
    errno.ENOTDIR: "a part of the path is a file, not a folder",
    errno.EEXIST: "a part of the path is a file, not a folder",  # from making the missing folders
    errno.EACCES: "not allowed (permissions)",
    errno.EPERM: "not allowed (permissions)",
    errno.EROFS: "on a read-only file system",
    errno.ENOSPC: "the disk is full",
}


def cannot_write(path: Path | str, err: OSError) -> str:
    """Why `path` (or the standard output) could not be written, in words, naming it as the user typed it (the
    error names it resolved, its reason in the system's words)."""
    why = WHY_NOT_WRITTEN.get(err.errno or 0) or (err.strerror or str(err)).lower()
    return f"cannot write {path}: {why}"
