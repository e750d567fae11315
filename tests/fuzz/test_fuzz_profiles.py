"""Damaged colour profiles, symbol profiles and table areas, a thousand of each, at the commands reading them.

`python -m vision read --colours|--profile FILE PHOTO` must read the photo (exit 0) or say in one line what
is wrong with the file (exit 2); the table area, read when the camera starts, is a `TableArea` or one
`TableAreaError` line naming the file. Never a traceback or a hang.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from fuzz_inputs import (
    HUGE_VALUES,
    MAX_LINE,
    Damage,
    assert_one_error_line,
    cases_line,
    damaged_json,
    every_dropped_key,
    run_main,
    same_shape,
)
from hypothesis import given, settings

from calibration.table_area import TableArea, TableAreaError, load_area
from models import model_card
from vision.cli import main
from vision.colour_profile import FORMAT
from vision.symbols.locate import PATCH
from vision.symbols.profile import SymbolProfile, TaughtFace

CASES = 1000
COLOURS = {
    "format": FORMAT,
    "space": "CIE Lab",
    "colours": {
        "yellow": {"mean": [80.0, 5.0, 70.0], "covariance": [[9, 1, 0], [1, 9, 0], [0, 0, 16]], "samples": 6},
        "blue": {"mean": [40.0, 10.0, -50.0], "covariance": [[9, 0, 0], [0, 9, 0], [0, 0, 9]], "samples": 5},
    },
}
AREA = TableArea(0.1, 0.2, 0.9, 0.8).to_json()


def symbols() -> dict[str, Any]:
    """A profile of two faces with the installed embedder's vectors (random unit vectors, one photo each) and
    the photos' cuts (random squares)."""
    rng = np.random.default_rng(0)
    card = model_card("face_embedder")
    dims = int(card["dims"])  # type: ignore[call-overload]
    size = int(card["input_size"])  # type: ignore[call-overload]

    def turns() -> np.ndarray:
        v = rng.normal(size=(4, dims))
        return np.asarray(v / np.linalg.norm(v, axis=1, keepdims=True), np.float32)

    faces = tuple(
        TaughtFace(
            label,
            (rng.integers(0, 256, (PATCH, PATCH), np.uint8),),
            0.7,
            frozenset(edges),
            (turns(),),
            (rng.integers(0, 256, (size, size, 3), np.uint8),),
        )
        for label, edges in (("tower", ()), ("city", ("top",)))
    )
    return SymbolProfile(faces, (90.0, 0.5, 1.0), 0.1, embedder=str(card["version"])).to_json()


@pytest.fixture(scope="module")
def photo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small photo of a bare table: reading it with a good profile takes milliseconds."""
    path = tmp_path_factory.mktemp("photo") / "table.png"
    cv2.imwrite(str(path), np.full((24, 32, 3), (60, 120, 40), np.uint8))
    return path


def fuzz_read(option: str, good: dict[str, Any], photo: Path, tmp: Path) -> int:
    """Throw CASES damaged copies of `good` at `read OPTION FILE PHOTO`, then each with one key dropped; the
    number of damaged copies drawn."""
    path, cases = tmp / "profile.json", []

    def check(damage: Damage) -> None:
        path.write_bytes(damage.data)
        run = run_main(main, ["read", option, str(path), str(photo)])
        if run.code == 2:
            assert run.out == "", damage.what
            assert_one_error_line(run.err, "error: ", str(path))
        else:
            assert run.code == 0 and run.err == "", (damage.what, run.err)
            assert run.out.startswith(f"{photo}: "), damage.what

    @settings(max_examples=CASES, deadline=None, database=None)
    @given(damaged_json(good))
    def one(damage: Damage) -> None:
        cases.append(damage.what)
        check(damage)

    one()
    sweep = every_dropped_key(good)
    for damage in sweep:
        check(damage)
    print(cases_line(len(cases), len(sweep)))
    return len(cases)


def test_damaged_colour_profiles(photo: Path, tmp_path: Path) -> None:
    assert fuzz_read("--colours", COLOURS, photo, tmp_path) >= CASES


def test_damaged_symbol_profiles(photo: Path, tmp_path: Path) -> None:
    assert fuzz_read("--profile", symbols(), photo, tmp_path) >= CASES


def test_damaged_table_areas(tmp_path: Path) -> None:
    """Read as the camera starts: the area, or one line naming the file; an area read from a file that lost a
    key or changed its kind is the good one (no edge of it has a default)."""
    path, cases, good = tmp_path / "area.json", [], TableArea(0.1, 0.2, 0.9, 0.8)

    def check(damage: Damage) -> None:
        path.write_bytes(damage.data)
        try:
            area = load_area(path)
        except TableAreaError as err:
            message = str(err)
            assert "\n" not in message and message.startswith(str(path)), damage.what
            assert len(message.replace(str(path), "")) <= MAX_LINE, message
            return
        assert area == good or same_shape(damage.data, json.dumps(AREA).encode()), damage.what

    @settings(max_examples=CASES, deadline=None, database=None)
    @given(damaged_json(AREA))
    def one(damage: Damage) -> None:
        cases.append(damage.what)
        check(damage)

    one()
    sweep = every_dropped_key(AREA)
    for damage in sweep:
        check(damage)
    print(cases_line(len(cases), len(sweep)))
    assert len(cases) >= CASES


def test_the_reports_profiles_end_in_one_line_each(photo: Path, tmp_path: Path) -> None:
    """The issue's crashing profiles, read by `python -m vision` as a user runs it."""
    good = json.dumps(symbols())
    cases = {
        "latin-1.json": ("--colours", json.dumps(COLOURS).replace("CIE", "CIÉ").encode("latin-1")),
        "binary.json": ("--profile", bytes(range(256)) * 4),
        "overflow.json": ("--colours", json.dumps(COLOURS).replace("80.0", "1" + "0" * 400).encode()),
        "float.json": ("--profile", good.replace("90.0", "1e400").encode()),
        "digits.json": ("--profile", good.replace("0.7", HUGE_VALUES[3]).encode()),
        "deep.json": ("--colours", json.dumps(COLOURS).replace("9", "[" * 5000 + "]" * 5000, 1).encode()),
    }
    for name, (option, data) in cases.items():
        path = tmp_path / name
        path.write_bytes(data)
        run = subprocess.run(
            [sys.executable, "-m", "vision", "read", option, str(path), str(photo)],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert run.returncode == 2 and run.stdout == "", (name, run.stderr)
        assert_one_error_line(run.stderr, "error: ", str(path))
