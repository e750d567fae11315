"""The folders the program makes for its files, and why one cannot be made, in one sentence naming it."""

from __future__ import annotations

import os
from pathlib import Path


class FolderError(OSError):
    """A folder the program needs that cannot be, said in one sentence naming it and why. An `OSError`: where
    a folder that cannot be made is already caught (the start screen's new game), so is this."""


def make_folder(folder: Path) -> Path:
    """`folder`, made (with the folders above it) where it is not yet; `FolderError` says why it cannot be:
    a file or a link to nowhere in its way, no permission to write where it goes."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        why = _why_not_made(folder, exc)
        raise FolderError(f"cannot make the {folder.name} folder {folder}: {why}") from exc
    return folder


def _why_not_made(folder: Path, error: OSError) -> str:
    """What stands in the way of `folder`: the nearest of it and the folders above it that is there."""
    # os.path's tests, not Path's: those raise where a folder above cannot be searched.
    there = next(path for path in (folder, *folder.parents) if os.path.lexists(path))
    if os.path.islink(there) and not os.path.exists(there):
        return f"{there} is a link to nowhere ({os.readlink(there)})"
    if not os.path.isdir(there):
        return f"{there} is a file, not a folder"
    if isinstance(error, PermissionError):
        return f"no permission to write in {there}"
    return error.strerror or str(error)  # a read-only file system, a full disk


def free_path(folder: Path, stem: str, suffix: str) -> Path:
    """`STEM+SUFFIX` in `folder`, or the first of `STEM-2+SUFFIX`, `STEM-3+SUFFIX`… that no file has taken: a
    game begun the same second as another, or written again beside a file that took its log's place, is
    never written over another."""
    path, n = folder / f"{stem}{suffix}", 2
    while path.exists():
        path, n = folder / f"{stem}-{n}{suffix}", n + 1
    return path


def claim_free_path(folder: Path, stem: str, suffix: str) -> Path:
    """`free_path`, taken at once as an empty file made only where none is (`O_EXCL`): where another process
    took the name between the two (two demos started in the same second), the next free one is taken."""
    while True:
        path = free_path(folder, stem, suffix)
        try:
            path.touch(exist_ok=False)
        except FileExistsError:
            continue
        return path
