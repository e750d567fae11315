"""A file written whole: never half written, and a failure names the file asked for."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from jsonfile.whole import write_whole


def test_a_failed_write_names_the_file_asked_for_not_its_side_file(tmp_path: Path) -> None:
    """`vision enroll --out FOLDER` said "[Errno 21] Is a directory: 'out.part' -> 'out'": a side file the
    user never asked for."""
    (tmp_path / "out").mkdir()
    with pytest.raises(IsADirectoryError) as failed:
        write_whole(tmp_path / "out", "{}")
    assert str(failed.value) == f"[Errno 21] Is a directory: '{tmp_path / 'out'}'"
    assert not (tmp_path / "out.part").exists()


def test_a_whole_write_replaces_the_file(tmp_path: Path) -> None:
    path = tmp_path / "a" / "p.json"
    write_whole(path, "one")
    write_whole(path, b"two")
    assert path.read_text() == "two" and sorted(p.name for p in path.parent.iterdir()) == ["p.json"]


def test_a_link_has_its_file_written_and_a_device_is_refused(tmp_path: Path) -> None:
    """An --out that was a symbolic link became a plain file, its target unchanged; as root, /dev/full was
    replaced by a file."""
    target = tmp_path / "profiles" / "alhambra.json"
    target.parent.mkdir()
    target.write_text("old")
    (tmp_path / "link.json").symlink_to(target)
    write_whole(tmp_path / "link.json", "new")
    assert (tmp_path / "link.json").is_symlink() and target.read_text() == "new"
    pipe = tmp_path / "pipe"  # as a device is: no regular file (a test must not risk a real device)
    os.mkfifo(pipe)
    with pytest.raises(OSError, match=f"not a regular file: '{pipe}'"):
        write_whole(pipe, "x")
    assert pipe.is_fifo()
