"""`python -m vision`: output formats, every kind of bad input, eval and bench."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest
from vision_data import D6_TRAY

from vision.cli import main
from vision.simulated_table.scene import random_scene

PHOTO = D6_TRAY / "images" / "IMG_20191209_100649.jpg"


def test_read_json_lines(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["read", "--json", str(PHOTO), str(D6_TRAY / "images")]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(lines) == 5 and lines[0]["image"] == str(PHOTO)
    assert set(lines[0]) == {"image", "ms", "dice"} and isinstance(lines[0]["ms"], float)
    die = lines[0]["dice"][0]
    assert list(die) == ["box", "kind", "value", "color", "confidence"]
    assert die["kind"] == "pip" and len(die["box"]) == 4 and 1 <= die["value"] <= 6
    assert sorted(d["value"] for d in lines[0]["dice"]) == [1, 1, 1, 3, 4, 6]


def test_read_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["read", str(PHOTO)]) == 0
    assert capsys.readouterr().out.startswith(f"{PHOTO}: 6 dice: ")


def bad_inputs(tmp: Path) -> list[Path]:
    empty = tmp / "empty.png"
    empty.write_bytes(b"")
    text = tmp / "notes.jpg"
    text.write_text("these are not pixels")
    truncated = tmp / "cut.jpg"
    truncated.write_bytes(PHOTO.read_bytes()[:300])
    huge = tmp / "huge.png"
    cv2.imwrite(str(huge), np.zeros((7000, 7000), np.uint8), [cv2.IMWRITE_PNG_COMPRESSION, 9])
    no_photos = tmp / "no photos"
    no_photos.mkdir()
    (no_photos / "notes.txt").write_text("not a photo")
    return [empty, text, truncated, huge, tmp / "missing.jpg", no_photos]


def test_every_bad_input_is_one_error_line_and_the_rest_is_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = bad_inputs(tmp_path)
    assert main(["read", "--json", str(bad[0]), str(PHOTO), *map(str, bad[1:])]) == 1
    out, err = capsys.readouterr()
    assert [json.loads(line)["image"] for line in out.splitlines()] == [str(PHOTO)]
    errors = err.splitlines()
    assert len(errors) == len(bad) and "Traceback" not in err
    reasons = ["empty", "not an image", "truncated", "too large", "cannot read", "no image files"]
    for path, line, why in zip(bad, errors, reasons, strict=True):
        assert line.startswith(f"error: {path}") and why in line


def test_no_traceback_from_a_subprocess(tmp_path: Path) -> None:
    bad = tmp_path / "x.png"
    bad.write_bytes(b"\x89PNG\r\n\x1a\n broken")
    run = subprocess.run([sys.executable, "-m", "vision", "read", str(bad)], capture_output=True, text=True)
    assert run.returncode == 1 and run.stdout == ""
    assert run.stderr.strip() == f"error: {bad}: not an image, or a truncated one"


def test_read_with_a_colour_profile_and_a_bad_one(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    profile = tmp_path / "colours.json"
    profile.write_text('{"format": "dice-colour-profile/1", "colours": []}')
    assert main(["read", "--colours", str(profile), str(PHOTO)]) == 2
    assert "'colours'" in capsys.readouterr().err


def test_teaching_colours(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for colour in ("yellow", "blue"):
        (tmp_path / colour).mkdir()
        scene = random_scene(np.random.default_rng(len(colour)), 480, 640, n_dice=5, colors=[colour])
        cv2.imwrite(str(tmp_path / colour / "a.png"), scene.image)
    out = tmp_path / "colours.json"
    assert main(["colour", "--out", str(out), str(tmp_path)]) == 0
    assert "yellow (" in capsys.readouterr().out
    assert main(["read", "--colours", str(out), "--json", str(PHOTO)]) == 0


def test_eval_json_and_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", "--json", str(D6_TRAY)]) == 0
    scores = json.loads(capsys.readouterr().out)
    assert scores["images"] == 4 and scores["labelled_dice"] == 52
    assert scores["die_accuracy"] >= 0.8 and len(scores["confusion"]["counts"]) == 6
    assert main(["eval", str(D6_TRAY), "--split", "held-out"]) == 0
    text = capsys.readouterr().out
    assert "die accuracy" in text and "fully right images" in text
    assert main(["eval", str(D6_TRAY), "--split", "train"]) == 1


def test_bench_names_the_machine_then_prints_both_sizes(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--frames", "2"]) == 0
    machine, *sizes = capsys.readouterr().out.splitlines()
    assert machine.startswith("machine: ") and f"{os.cpu_count()} cores, onnxruntime" in machine
    assert [line.split(",")[1].strip() for line in sizes] == ["640x640", "1280x720"]
    assert all("ms/frame" in line for line in sizes)
