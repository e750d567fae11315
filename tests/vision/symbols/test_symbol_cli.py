"""The `read --profile` and `bench --profile` commands: one reader for pip and symbol dice, JSON lines, bad
files, and the benchmark's report."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

import vision
from lab.symbol_evaluate import taught_profile
from vision.cli import main
from vision.simulated_table.scene import random_scene
from vision.simulated_table.symbol_art import ALHAMBRA, GLYPHS, SymbolPainter, symbol_table
from vision.symbols import cli


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
    assert main(["read", "--profile", str(profile_path), "--json", str(tmp_path)]) == 1
    out, err = capsys.readouterr()
    assert "b.png: not an image" in err
    (line,) = [json.loads(text) for text in out.splitlines()]
    assert line["image"] == str(tmp_path / "a.png") and line["ms"] > 0
    assert len(line["dice"]) == len(scene.dice)
    for die in line["dice"]:
        assert set(die) >= {"box", "kind", "face", "rotation", "color", "confidence"}
        assert die["kind"] == "symbol" and 0 <= die["confidence"] <= 1
        assert die["rotation"] in (0, 90, 180, 270) and len(die["box"]) == 4
    assert sorted(d["face"] for d in line["dice"]) == sorted(d.label for d in scene.dice)


def test_bad_profile_is_an_error_naming_the_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "p.json"
    bad.write_text('{"format": "symbol-dice-profile"')
    assert main(["read", "--profile", str(bad), str(tmp_path)]) == 2
    assert f"error: {bad}: " in capsys.readouterr().err


def test_bench_reports_the_median(profile_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    assert cli.bench_with_profile(profile_path, frames=3) == 0
    out = capfd.readouterr().out
    assert out.startswith("machine: ")
    assert "640x640" in out and "one thread: median" in out and "ms/frame" in out


def test_pip_and_symbol_dice_on_one_table_are_read_in_one_frame(
    tmp_path: Path, profile_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    symbols = symbol_table(
        SymbolPainter(ALHAMBRA), np.random.default_rng(4601), n_dice=4, colors=("white",), plain=True
    )
    pips = random_scene(np.random.default_rng(8), 640, 640, n_dice=4, colors=["yellow", "blue"])
    # One table: the pip dice's half of their photo beside the symbol dice's half of theirs.
    table = np.concatenate([pips.image[:, :320], symbols.image[:, 320:]], axis=1)
    cv2.imwrite(str(tmp_path / "table.png"), table)
    assert main(["read", "--profile", str(profile_path), "--json", str(tmp_path / "table.png")]) == 0
    dice = json.loads(capsys.readouterr().out)["dice"]
    want_pips = sorted(d.value for d in pips.dice if d.box.x1 < 320)
    want_faces = sorted(d.label for d in symbols.dice if d.box.x0 > 320)
    assert want_pips and want_faces, "both kinds of dice on the table"
    assert sorted(d["value"] for d in dice if d["kind"] == "pip") == want_pips
    assert sorted(d["face"] for d in dice if d["kind"] == "symbol") == want_faces


def test_symbol_dice_are_named_by_the_taught_colours_like_pip_dice(
    tmp_path: Path, profile_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """One colour namer: a colour profile taught from photos names symbol dice as it names pip dice. The
    palette rules alone name barely half of these black dice under the renderer's coloured light."""
    for colour, seed in (("black", 4700), ("white", 4701)):
        (tmp_path / "colours" / colour).mkdir(parents=True)
        scene = symbol_table(SymbolPainter(GLYPHS), np.random.default_rng(seed), colors=(colour,), plain=True)
        cv2.imwrite(str(tmp_path / "colours" / colour / "a.png"), scene.image)
    colours = tmp_path / "colours.json"
    assert main(["colour", "--out", str(colours), str(tmp_path / "colours")]) == 0
    tables = tmp_path / "tables"
    tables.mkdir()
    for seed in range(4600, 4606):
        scene = symbol_table(
            SymbolPainter(ALHAMBRA), np.random.default_rng(seed), colors=("black",), plain=True
        )
        cv2.imwrite(str(tables / f"{seed}.png"), scene.image)
    capsys.readouterr()
    assert (
        main(["read", "--profile", str(profile_path), "--colours", str(colours), "--json", str(tables)]) == 0
    )
    names = [d["color"] for line in capsys.readouterr().out.splitlines() for d in json.loads(line)["dice"]]
    assert len(names) >= 50 and names.count("black") >= 0.85 * len(names)


def test_the_bench_times_this_copy_of_the_code(tmp_path: Path) -> None:
    """The fresh one-thread interpreter imports the code of the process that started it, not whichever copy is
    installed: a benchmark of the code before a change, run in a git worktree, times that code."""
    copy = tmp_path / "vision"
    shutil.copytree(Path(vision.__file__).parent, copy, ignore=shutil.ignore_patterns("__pycache__"))
    asks = (
        "import subprocess, sys; sys.path.insert(0, sys.argv[1]); from vision.symbols import cli;"
        " child = 'import vision; print(vision.__file__)';"
        " subprocess.run([sys.executable, '-P', '-c', child], env=cli.one_thread_env(), check=True)"
    )
    found = subprocess.run(
        [sys.executable, "-P", "-c", asks, str(tmp_path)], capture_output=True, text=True, check=True
    )
    assert Path(found.stdout.strip()) == copy / "__init__.py"


def test_ctrl_c_in_the_symbol_bench_is_one_line_and_status_130(profile_path: Path) -> None:
    """Ctrl+C reaches every process of the terminal's group: the bench's timing interpreter printed a
    KeyboardInterrupt's traceback above the "error: stopped" its parent said."""
    child = subprocess.Popen(
        [sys.executable, "-m", "vision", "bench", "--profile", str(profile_path), "--frames", "2000"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    assert child.stdout is not None
    first = child.stdout.readline()  # the machine named by the timing interpreter: the work is under way
    assert first.startswith("machine: "), child.communicate(timeout=60)[1]
    os.killpg(child.pid, signal.SIGINT)  # as the terminal sends Ctrl+C: to the whole group
    _, err = child.communicate(timeout=60)
    assert child.returncode == 130, err
    assert err == "error: stopped\n"
