"""A damaged JPEG is refused by name, with libjpeg's reason: libjpeg decodes one anyway (grey below the
damage) and said so only in a line of its own on stderr, naming no file, among the command's lines."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np
import pytest
from vision_data import D6_TRAY

from vision.images import ImageError, load_image

PHOTO = D6_TRAY / "images" / "IMG_20191209_100649.jpg"
END = b"\xff\xd9"


def cut_and_ended(data: bytes) -> bytes:
    """The first 60% of a JPEG's bytes and its end marker, as a copy stopped half way and closed may be."""
    return data[: len(data) * 6 // 10] + END


def bytes_inserted(data: bytes) -> bytes:
    """A JPEG with garbage before its end marker; a few bytes there are read into libjpeg's bit buffer
    unseen, so there are more than it reads ahead."""
    end = data.rindex(END)
    return data[:end] + b"garbage!" * 2 + data[end:]


DAMAGES: dict[str, tuple[Callable[[bytes], bytes], str]] = {
    "cut": (cut_and_ended, r"premature end of data segment"),
    "inserted": (bytes_inserted, r"\d+ extraneous bytes before marker 0xd9"),
}


@pytest.mark.parametrize("damage", DAMAGES)
def test_load_image_names_a_damaged_jpeg_and_what_libjpeg_found(
    damage: str, tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    damaged, why = DAMAGES[damage]
    path = tmp_path / f"{damage}.jpg"
    path.write_bytes(damaged(PHOTO.read_bytes()))
    with pytest.raises(ImageError) as refused:
        load_image(path)
    assert re.fullmatch(rf"{re.escape(str(path))}: a damaged JPEG \(libjpeg: {why}\)", str(refused.value))
    assert capfd.readouterr().err == "", "libjpeg's own line is not left on stderr"


def test_a_whole_jpeg_loads_as_before_even_with_data_after_its_end(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    """A phone's motion photo carries a video after the JPEG's end marker: the picture is whole."""
    motion = tmp_path / "motion.jpg"
    motion.write_bytes(PHOTO.read_bytes() + b"\0\0\0\x18ftypmp42" + bytes(range(256)) * 8)
    expected = cv2.imread(str(PHOTO), cv2.IMREAD_COLOR)
    assert (
        expected is not None
        and np.array_equal(load_image(PHOTO), expected)
        and np.array_equal(load_image(motion), expected)
    )
    assert capfd.readouterr().err == ""


def test_other_output_while_a_jpeg_decodes_is_passed_on(
    monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    """stderr is borrowed only to hear libjpeg: what another thread or library writes meanwhile shows."""
    imdecode = cv2.imdecode

    def decode_beside_another_writer(*args: object) -> object:
        os.write(2, b"another thread's line\n")
        return imdecode(*args)  # type: ignore[call-overload]

    monkeypatch.setattr(cv2, "imdecode", decode_beside_another_writer)
    assert load_image(PHOTO).shape == (640, 640, 3)
    assert capfd.readouterr().err == "another thread's line\n"


def test_read_names_the_damaged_photos_of_a_folder_and_reads_the_others(tmp_path: Path) -> None:
    photos = tmp_path / "photos"
    photos.mkdir()
    data = PHOTO.read_bytes()
    (photos / "a-whole.jpg").write_bytes(data)
    for damage, (damaged, _) in DAMAGES.items():
        (photos / f"{damage}.jpg").write_bytes(damaged(data))
    run = subprocess.run(
        [sys.executable, "-m", "vision", "read", "--json", str(photos)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 1 and "Corrupt JPEG data" not in run.stderr
    lines = run.stderr.splitlines()
    assert len(lines) == 2
    for line, (damage, (_, why)) in zip(lines, DAMAGES.items(), strict=True):
        assert re.fullmatch(
            rf"error: {re.escape(str(photos / damage))}\.jpg: a damaged JPEG \(libjpeg: {why}\)", line
        )
    assert [line.split('"')[3] for line in run.stdout.splitlines()] == [str(photos / "a-whole.jpg")]
