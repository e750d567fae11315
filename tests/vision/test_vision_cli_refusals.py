"""`python -m vision` refuses what it cannot use with one line naming it, never a traceback: bad counts, sets
with unusable images or labels, model folders, output paths, paths that are no image files."""

from __future__ import annotations

import errno
import json
import os
import shutil
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import numpy as np
import pytest
from vision_data import D6_TRAY

from jsonfile.whole import cannot_write
from vision.cli import main
from vision.dataset import DatasetError, parse_labels
from vision.evaluate import Scores, format_scores
from vision.images import MAX_BYTES, ImageError, load_image
from vision.simulated_table.scene import random_scene

PHOTO = D6_TRAY / "images" / "IMG_20191209_100649.jpg"
MODELS = Path(__file__).parent.parent.parent / "models"


def png_header(width: int, height: int) -> bytes:
    """The start of a PNG claiming `width` × `height` pixels: a bomb, as far as its header says."""
    ihdr = b"IHDR" + struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + struct.pack(">I", 13) + ihdr + struct.pack(">I", zlib.crc32(ihdr))


def photo_set(root: Path, labels: bool = True) -> Path:
    """A set of one labelled d6-tray photo, `good.jpg`."""
    (root / "images").mkdir(parents=True)
    shutil.copy(PHOTO, root / "images" / "good.jpg")
    if labels:
        (root / "labels").mkdir()
        shutil.copy(D6_TRAY / "labels" / f"{PHOTO.stem}.txt", root / "labels" / "good.txt")
    return root


@pytest.mark.parametrize("frames", ["0", "-3"])
@pytest.mark.parametrize("profile", [[], ["--profile", "p.json"]])
def test_bench_refuses_no_frames(frames: str, profile: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit:
        main(["bench", *profile, "--frames", frames])
    assert exit.value.code == 2
    assert "--frames: must be 1 or more" in capsys.readouterr().err


def test_eval_names_each_unusable_image_and_measures_the_rest(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    images = photo_set(tmp_path) / "images"
    bad = {
        images / "bomb.png": "too large",  # OpenCV's own reading raised cv2.error on this one
        images / "cut.jpg": "truncated",
        images / "dot.png": "too small",
        images / "notes.jpg": "not an image",
    }
    (images / "bomb.png").write_bytes(png_header(50_000, 50_000))
    (images / "cut.jpg").write_bytes(PHOTO.read_bytes()[:300])
    (images / "dot.png").write_bytes(png_header(1, 1))
    (images / "notes.jpg").write_text("these are not pixels")
    assert main(["eval", "--json", str(tmp_path)]) == 1
    out, err = capsys.readouterr()
    assert json.loads(out)["images"] == 1 and "Traceback" not in err
    for path, line in zip(sorted(bad), err.splitlines(), strict=True):
        assert line.startswith(f"error: {path}: ") and bad[path] in line


def test_eval_refuses_a_label_file_that_is_not_utf8(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    label = photo_set(tmp_path) / "labels" / "good.txt"
    label.write_bytes(b"\xf5\x00\xff 0.5 0.5 0.1 0.1\n")
    assert main(["eval", str(tmp_path)]) == 2
    assert capsys.readouterr().err.strip() == f"error: {label}: not UTF-8 text (byte 0xf5); save it as UTF-8"


def test_eval_reads_a_label_file_saved_with_a_byte_order_mark(tmp_path: Path) -> None:
    label = photo_set(tmp_path) / "labels" / "good.txt"
    label.write_bytes(b"\xef\xbb\xbf" + label.read_bytes())
    assert main(["eval", "--json", str(tmp_path)]) == 0


def test_eval_refuses_a_set_without_labels(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    photo_set(tmp_path, labels=False)
    assert main(["eval", str(tmp_path)]) == 2
    assert capsys.readouterr().err.startswith(f"error: {tmp_path}: no labels/ folder")


def test_eval_refuses_a_label_path_that_is_a_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    label = photo_set(tmp_path) / "labels" / "good.txt"
    label.unlink()
    label.mkdir()
    assert main(["eval", str(tmp_path)]) == 2
    assert capsys.readouterr().err.startswith(f"error: {label}: not a file")


def test_a_set_without_labelled_dice_gives_no_percentages(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (photo_set(tmp_path) / "labels" / "good.txt").write_text("")
    assert main(["eval", str(tmp_path)]) == 0
    text = capsys.readouterr().out
    assert "labelled dice 0" in text and "no labelled dice" in text and "%" not in text
    assert main(["eval", "--json", str(tmp_path)]) == 0
    scores = json.loads(capsys.readouterr().out)
    assert scores["recall"] is None and scores["die_accuracy"] is None and scores["sure_but_wrong"] is None


def test_shares_of_nothing_are_dashes_not_100_percent() -> None:
    scores = Scores(images=1, labelled=3, confusion=[[0] * 7 for _ in range(7)]).to_json()
    assert scores["precision"] is None and scores["recall"] == 0.0
    text = format_scores(scores)
    assert "precision -" in text and "100" not in text


@pytest.mark.parametrize(
    "line",
    [
        "3 nan 0.5 0.1 0.1",
        "3 0.5 NaN 0.1 0.1",
        "3 1.5 0.5 0.1 0.1",
        "3 0.5 -0.1 0.1 0.1",
        "3 0.5 0.5 0 0.1",
        "3 0.5 0.5 0.1 -0.1",
        "3 0.5 0.5 1.5 0.1",
        "3 0.5 0.5 0.1 inf",
    ],
)
def test_label_lines_with_impossible_coordinates_are_refused(line: str) -> None:
    with pytest.raises(DatasetError, match=r"lab\.txt:2: .*cx, cy 0-1"):
        parse_labels(f"1 0.5 0.5 0.1 0.1\n{line}\n", 100, 100, "lab.txt")


def test_label_lines_at_the_limits_are_read() -> None:
    (die,) = parse_labels("6 0 1 1 0.5\n", 100, 100, "lab.txt")
    assert die.value == 6 and die.box.width == 100


def model_folder(tmp: Path) -> Path:
    folder = tmp / "models"
    folder.mkdir()
    for name in ("die_detector", "pip_classifier"):
        for suffix in (".json", ".onnx"):
            shutil.copy(MODELS / f"{name}{suffix}", folder / f"{name}{suffix}")
    return folder


@pytest.mark.parametrize(
    ("file", "content", "why"),
    [
        ("die_detector.json", '{"task": ', "not valid JSON"),
        ("pip_classifier.json", "{}", "no field 'input_size'"),
        ("die_detector.json", "{}", "no field 'input_long_side'"),
        ("pip_classifier.json", '{"input_size": 0}', "field 'input_size' must be a whole number"),
        ("die_detector.json", "[1, 2]", "a JSON object"),
        ("pip_classifier.onnx", "not a model", "not a model onnxruntime can load"),
    ],
)
def test_a_bad_model_folder_is_one_line_naming_the_file(
    file: str, content: str, why: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = model_folder(tmp_path)
    (folder / file).write_text(content)
    assert main(["eval", "--models", str(folder), str(D6_TRAY)]) == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith(f"error: {folder / file}: ") and why in line
    assert main(["bench", "--models", str(folder), "--frames", "1"]) == 2
    assert capsys.readouterr() == ("", f"{line}\n")


def test_a_missing_model_folder_or_file_is_a_bad_setup(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["eval", "--models", str(tmp_path / "nowhere"), str(D6_TRAY)]) == 2
    assert capsys.readouterr().err == f"error: {tmp_path / 'nowhere'}: no such folder\n"
    folder = model_folder(tmp_path)
    (folder / "pip_classifier.onnx").unlink()
    assert main(["eval", "--models", str(folder), str(D6_TRAY)]) == 2
    assert capsys.readouterr().err.startswith(f"error: {folder / 'pip_classifier.onnx'}: missing")


def test_a_good_model_folder_is_used(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", "--json", "--models", str(model_folder(tmp_path)), str(D6_TRAY)]) == 0
    assert json.loads(capsys.readouterr().out)["labelled_dice"] == 52


def test_colour_refuses_a_folder_as_its_out_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["colour", "--out", str(tmp_path), str(tmp_path)]) == 2
    assert capsys.readouterr().err == f"error: cannot write {tmp_path}: is a folder\n"


def test_colour_names_the_out_file_it_cannot_write(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import cv2

    for colour in ("yellow", "blue"):
        (tmp_path / colour).mkdir()
        scene = random_scene(np.random.default_rng(len(colour)), 480, 640, n_dice=5, colors=[colour])
        cv2.imwrite(str(tmp_path / colour / "a.png"), scene.image)
    (tmp_path / "file").write_text("a file where a folder should be")
    out = tmp_path / "file" / "colours.json"
    assert main(["colour", "--out", str(out), str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err == f"error: cannot write {out}: a part of the path is a file, not a folder\n"


@pytest.mark.parametrize(
    ("error", "why"),
    [
        (IsADirectoryError(errno.EISDIR, "Is a directory", "out.part", None, "out"), "is a folder"),
        (FileNotFoundError(errno.ENOENT, "No such file or directory", "/proc/x.json.part"), "no such folder"),
        (OSError(errno.EIO, "Input/output error", "x.part"), "input/output error"),
    ],
)
def test_a_write_error_names_the_path_typed_not_the_side_file(error: OSError, why: str) -> None:
    assert cannot_write(Path("x.json"), error) == f"cannot write x.json: {why}"


def test_read_refuses_an_empty_path_and_reads_the_others(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["read", "", str(PHOTO)]) == 1
    out, err = capsys.readouterr()
    assert err == "error: an empty path\n" and out.startswith(f"{PHOTO}: 6 dice")


def test_read_refuses_a_file_too_large_unread(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    huge = tmp_path / "huge.png"
    with huge.open("wb") as file:
        file.write(png_header(1000, 1000))
        file.truncate(MAX_BYTES + 1)  # sparse: no disk is used
    assert main(["read", str(huge), str(PHOTO)]) == 1
    out, err = capsys.readouterr()
    assert err == f"error: {huge}: too large ({MAX_BYTES + 1:,} bytes; at most 200 MB)\n" and out.startswith(
        str(PHOTO)
    )


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_read_refuses_a_pipe_and_a_device_without_reading_them(tmp_path: Path) -> None:
    pipe = tmp_path / "pipe.jpg"
    os.mkfifo(pipe)
    paths = [str(pipe), *(["/dev/zero"] if Path("/dev/zero").exists() else [])]
    # A subprocess with a time limit: reading either would wait for ever (or fill the memory).
    run = subprocess.run(
        [sys.executable, "-m", "vision", "read", *paths], capture_output=True, text=True, timeout=60
    )
    assert run.returncode == 1 and run.stdout == ""
    lines = run.stderr.splitlines()
    assert lines[0] == f"error: {pipe}: a pipe or socket, not an image file"
    assert lines[1:] in ([], ["error: /dev/zero: a device or other special file, not an image file"])


def test_load_image_refuses_a_folder(tmp_path: Path) -> None:
    with pytest.raises(ImageError, match="a folder, not an image file"):
        load_image(tmp_path)
