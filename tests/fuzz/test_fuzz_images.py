"""`python -m vision read` given a thousand damaged and odd image files, ten at a time with one good photo.

Every file gets one line, a reading or `error: FILE: why`; the good photo is read whatever lies beside it; the
exit status is 1 when any file failed. Never a traceback, a cv2 assertion or a hang.
"""

from __future__ import annotations

import json
import struct
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest
from fuzz_inputs import Damage, assert_one_error_line, byte_damage, run_main
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.cli import main
from vision.pips import PipReader
from vision.reader import DiceReader

FILES, BATCHES = 10, 100
FORMATS = (".png", ".jpg", ".bmp", ".webp", ".tif")


@st.composite
def encoded(draw: st.DrawFn) -> tuple[str, bytes]:
    """A small good image in one of the formats, of any size from 1x1 up."""
    suffix = draw(st.sampled_from(FORMATS))
    height, width = draw(st.integers(1, 40)), draw(st.integers(1, 40))
    channels = draw(st.sampled_from([1, 3, 4] if suffix != ".jpg" else [1, 3]))
    shape = (height, width) if channels == 1 else (height, width, channels)
    image = np.random.default_rng(draw(st.integers(0, 99))).integers(0, 256, shape, np.uint8)
    return suffix, cv2.imencode(suffix, image)[1].tobytes()


def claimed_size(data: bytes, width: int, height: int) -> bytes:
    """A PNG whose header claims another size (its checksum then fails, as a forged or damaged file's)."""
    return data[:16] + struct.pack(">II", width, height) + data[24:]


@st.composite
def odd_image(draw: st.DrawFn) -> Damage:
    suffix, good = draw(encoded())
    kind = draw(st.sampled_from(["good", "damaged", "claims", "junk"]))
    if kind == "good":
        return Damage(good, f"a good {suffix}")
    if kind == "damaged":
        return draw(byte_damage(good))
    if kind == "claims" and suffix == ".png":
        side = draw(st.sampled_from([0, 1, 7, 20000, 2**31 - 1]))
        return Damage(claimed_size(good, side, side), f"a PNG claiming {side}x{side}")
    return Damage(draw(st.binary(max_size=64)), "junk bytes")


@pytest.fixture(scope="module")
def photo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("photo") / "table.png"
    cv2.imwrite(str(path), np.full((48, 64, 3), (60, 120, 40), np.uint8))
    return path


def test_damaged_images_each_get_one_line_and_the_batch_goes_on(photo: Path, tmp_path: Path) -> None:
    batches = []

    @settings(max_examples=BATCHES, deadline=None, database=None)
    @given(st.lists(odd_image(), min_size=FILES, max_size=FILES), st.sampled_from(FORMATS))
    def one(images: list[Damage], suffix: str) -> None:
        batches.append(len(images))
        paths = [tmp_path / f"{i}{suffix}" for i in range(len(images))]
        for path, image in zip(paths, images, strict=True):
            path.write_bytes(image.data)
        run = run_main(main, ["read", "--json", *map(str, paths[:5]), str(photo), *map(str, paths[5:])])
        read = {json.loads(line)["image"] for line in run.out.splitlines()}
        errors = run.err.splitlines()
        assert str(photo) in read and "Traceback" not in run.err, run.err
        for path, image in zip(paths, images, strict=True):
            mine = [line for line in errors if line.startswith(f"error: {path}: ")]
            assert (str(path) in read) + len(mine) == 1, (image.what, run.err)
            if mine:
                assert_one_error_line(mine[0], "error: ", str(path))
        assert len(errors) + len(read) == len(images) + 1, run.err
        assert run.code == (1 if errors else 0)

    one()
    assert sum(batches) >= FILES * BATCHES


def test_the_reports_images_in_one_folder(photo: Path, tmp_path: Path) -> None:
    """Tiny images of every format beside good photos, and a PNG of 20000x20000 refused from its header
    (before, 400 megapixels were decoded first), read by `python -m vision` as a user runs it."""
    folder = tmp_path / "photos"
    folder.mkdir()
    for suffix in FORMATS:
        cv2.imwrite(str(folder / f"tiny{suffix}"), np.full((3, 5, 3), 128, np.uint8))
    for n in range(3):
        (folder / f"good{n}.png").write_bytes(photo.read_bytes())
    huge = folder / "huge.png"
    huge.write_bytes(claimed_size(photo.read_bytes(), 20000, 20000))
    run = subprocess.run(
        [sys.executable, "-m", "vision", "read", str(folder)], capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 1 and "Traceback" not in run.stderr
    read = [line.split(":")[0] for line in run.stdout.splitlines()]
    assert read == [str(folder / f"good{n}.png") for n in range(3)]
    errors = run.stderr.splitlines()
    assert len(errors) == len(FORMATS) + 1
    assert f"error: {huge}: too large (20000x20000" in run.stderr
    assert all("too small (5x3 pixels" in line for line in errors if "tiny" in line)


@pytest.mark.parametrize("shape", [(0, 0, 3), (0, 640, 3), (1, 1, 3), (7, 640, 3), (480, 5, 3)])
def test_an_empty_or_tiny_camera_frame_shows_no_dice(reader: PipReader, shape: tuple[int, ...]) -> None:
    """A camera's hiccup (an empty or cut frame) reads as a bare table, not an OpenCV assertion."""
    frame = np.zeros(shape, np.uint8)
    assert reader.read(frame).dice == ()
    assert DiceReader(reader).read(frame).dice == ()
