"""A file's name is the one thing the commands print that no reader checks: a photo named with a terminal's
control characters (ESC starts its commands: retitle the window, clear the screen) drove the terminal of
whoever read or taught from its folder, which the user did not name file by file. Every command writes such a
name with its escapes (`\\x1b`), run as a user types it."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np

from jsonfile import control_character

DATA = Path(__file__).parent / "data"
PHOTO = DATA / "d6-tray" / "images" / "IMG_20191209_100649.jpg"
FACES = DATA / "d6-tray-faces"
CRAFTED = "dice\x1b]0;owned\x07\x1b[2J"
SHOWN = "dice\\x1b]0;owned\\x07\\x1b[2J"
BIN = Path(sys.executable).parent


def run(command: list[str | Path], tmp: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "XDG_CONFIG_HOME": str(tmp / "config"), "XDG_DATA_HOME": str(tmp / "data")}
    return subprocess.run(command, capture_output=True, text=True, timeout=300, env=env)


def said_with_escapes(result: subprocess.CompletedProcess[str]) -> str:
    """What the command printed, checked to hold no control character but its line ends."""
    said = result.stdout + result.stderr
    assert not control_character(said.replace("\n", "")), repr(said)
    return said


def test_reading_a_folder_names_its_photos_with_their_escapes(tmp_path: Path) -> None:
    photos = tmp_path / "photos"
    photos.mkdir()
    shutil.copyfile(PHOTO, photos / f"{CRAFTED}.jpg")
    (photos / f"{CRAFTED}-empty.png").write_bytes(b"")
    result = run([sys.executable, "-m", "vision", "read", photos], tmp_path)
    said = said_with_escapes(result)
    assert result.returncode == 1, said
    assert f"{photos}/{SHOWN}.jpg: " in result.stdout and " dice" in result.stdout
    assert result.stderr.startswith(f"error: {photos}/{SHOWN}-empty.png: "), result.stderr


def test_teaching_faces_names_a_refused_photo_with_its_escapes(tmp_path: Path) -> None:
    faces = tmp_path / "faces"
    for face in ("one", "two"):
        shutil.copytree(FACES / face, faces / face)
    _, plain = cv2.imencode(".jpg", np.full((200, 200, 3), 200, np.uint8))  # a table without a die
    (faces / "one" / f"{CRAFTED}.jpg").write_bytes(plain.tobytes())
    result = run([sys.executable, "-m", "vision", "enroll", "--out", tmp_path / "p.json", faces], tmp_path)
    said = said_with_escapes(result)
    assert f"{SHOWN}.jpg" in result.stderr, said


def test_teaching_colours_names_a_bad_photo_with_its_escapes(tmp_path: Path) -> None:
    colours = tmp_path / "colours"
    for colour in ("yellow", "blue"):
        (colours / colour).mkdir(parents=True)
        (colours / colour / f"{CRAFTED}.jpg").write_bytes(b"not a photo")
    result = run([BIN / "companion", "calibrate", "colours", colours], tmp_path)
    said = said_with_escapes(result)
    assert result.returncode == 2 and f"{SHOWN}.jpg" in result.stderr, said


def test_scoring_names_a_file_with_its_escapes(tmp_path: Path) -> None:
    crafted = tmp_path / f"{CRAFTED}.json"
    crafted.write_text("{")
    result = run([BIN / "companion", "score", crafted], tmp_path)
    said = said_with_escapes(result)
    assert result.returncode == 2, said
    assert result.stderr.startswith(f"companion score: {tmp_path}/{SHOWN}.json: "), said
