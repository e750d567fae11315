"""The `read --profile` and `bench --profile` commands: JSON lines, bad files, and the benchmark's report."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.render.symbol_art import ALHAMBRA, SymbolPainter, symbol_table
from vision.symbols import cli
from vision.symbols.evaluate import taught_profile


@pytest.fixture(scope="module")
def profile_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("profile") / "alhambra.json"
    taught_profile("alhambra").save(path)
    return path


def test_read_json_lines_keep_going_past_a_bad_image(
    tmp_path: Path, profile_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    scene = symbol_table(SymbolPainter(ALHAMBRA), np.random.default_rng(4600), colors=("black",), plain=True)
    cv2.imwrite(str(tmp_path / "a.png"), scene.image)
    (tmp_path / "b.png").write_bytes(b"not a png")
    assert cli.read_with_profile([tmp_path], profile_path, as_json=True) == 1
    out, err = capsys.readouterr()
    assert "b.png: not a readable image" in err
    (line,) = [json.loads(text) for text in out.splitlines()]
    assert line["image"] == str(tmp_path / "a.png") and line["ms"] > 0
    assert len(line["dice"]) == len(scene.dice)
    for die in line["dice"]:
        assert set(die) >= {"box", "kind", "face", "rotation", "color", "confidence"}
        assert die["kind"] == "symbol" and die["color"] == "black" and 0 <= die["confidence"] <= 1
        assert die["rotation"] in (0, 90, 180, 270) and len(die["box"]) == 4
    assert sorted(d["face"] for d in line["dice"]) == sorted(d.label for d in scene.dice)


def test_bad_profile_is_an_error_naming_the_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "p.json"
    bad.write_text('{"format": "symbol-dice-profile"')
    assert cli.read_with_profile([tmp_path], bad, as_json=True) == 2
    assert f"error: {bad}: not a JSON file" in capsys.readouterr().err


def test_bench_reports_the_median(profile_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    assert cli.bench_with_profile(profile_path, frames=3) == 0
    out = capfd.readouterr().out
    assert "640x640" in out and "one thread: median" in out and "ms/frame" in out
