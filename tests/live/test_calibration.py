"""Calibration: the dice zone and the colour profile, taught from the app and the command line, remembered."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest
from live_driver import synchronous
from test_live_app import TableReader, new_session

from calibration.table_area import AreaReader, TableArea, TableAreaError, load_area, parse_area
from companion.app import paths
from companion.app.app import CameraSetup, CompanionApp
from companion.app.screens.calibrate import CalibrateScreen
from companion.games import alhambra_rw as rw
from vision.colour_profile import load_profile
from vision.reading import Box, DiceReading, Die, Image
from vision.simulated_table.rolling import RollingTable
from vision.simulated_table.scene import random_scene


class OneDie:
    def read(self, image: Image, time: float = 0.0) -> DiceReading:
        h, w = image.shape[:2]
        return DiceReading((Die(Box(0, 0, w / 2, h / 2), "pip", "yellow", 0.9, 4),), time)


def test_the_area_reader_reads_only_the_dice_zone_and_answers_in_frame_pixels() -> None:
    reader = AreaReader(OneDie(), TableArea(0.25, 0.5, 0.75, 1.0))
    reading = reader.read(np.zeros((400, 800, 3), np.uint8))
    assert reading.dice[0].box == Box(200, 200, 400, 300)


def test_a_bad_area_names_the_field(tmp_path: Path) -> None:
    with pytest.raises(TableAreaError, match="x1: must be a fraction"):
        TableArea(0.1, 0.1, 1.5, 0.9)
    with pytest.raises(TableAreaError, match="y0: expected a number"):
        parse_area({"format": "table-area/1", "x0": 0, "y0": "top", "x1": 1, "y1": 1})
    broken = tmp_path / "area.json"
    broken.write_text("{")
    with pytest.raises(TableAreaError, match="not valid JSON"):
        load_area(broken)


def run_companion(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "companion", *args], capture_output=True, text=True, env=env, check=False
    )


def test_the_command_line_remembers_the_area_and_refuses_a_bad_one(tmp_path: Path) -> None:
    env = {"XDG_CONFIG_HOME": str(tmp_path), "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    done = run_companion("calibrate", "area", "0.1", "0.2", "0.9", "0.8", env=env)
    assert done.returncode == 0, done.stderr
    saved = json.loads((tmp_path / "table-companion" / "table-area.json").read_text())
    assert (saved["x0"], saved["y1"]) == (0.1, 0.8)
    shown = run_companion("calibrate", "show", env=env)
    # In words, not a Python repr (issue 29): the area as the frame's share on each side.
    assert "dice zone: " in shown.stdout and "left 0.1, top 0.2, right 0.9, bottom 0.8" in shown.stdout
    bad = run_companion("calibrate", "area", "0.5", "0.2", "0.52", "0.8", env=env)
    assert bad.returncode == 2 and "at least 5% of the frame" in bad.stderr
    swapped = run_companion("calibrate", "area", "0.9", "0.2", "0.1", "0.8", env=env)
    assert swapped.returncode == 2 and swapped.stderr == (
        "companion calibrate: x1: the right edge (0.1) must lie past the left edge (0.9): give left top right"
        " bottom\n"
    )


def test_an_area_that_cannot_be_saved_is_one_line_and_the_last_one_kept(tmp_path: Path) -> None:
    env = {"XDG_CONFIG_HOME": str(tmp_path), "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    assert run_companion("calibrate", "area", "0.1", "0.2", "0.9", "0.8", env=env).returncode == 0
    saved = tmp_path / "table-companion" / "table-area.json"
    # The side file the area is written through cannot be made: a save fails as on a full disk.
    saved.with_name(saved.name + ".part").mkdir()
    failed = run_companion("calibrate", "area", "0", "0", "1", "1", env=env)
    assert failed.returncode == 2, failed.stderr
    # The file asked for is named, not the side file it is written through.
    assert failed.stderr == f"companion calibrate: cannot save: {saved}: Is a directory\n", failed.stderr
    assert json.loads(saved.read_text())["x0"] == 0.1


def test_show_says_each_file_and_the_options_are_checked(tmp_path: Path) -> None:
    """`calibrate show` stopped at a colour profile it could not read and never said the dice zone; `-0`
    was shown as `left -0`; a photo folder and a camera given together were taken as the folder."""
    env = {"XDG_CONFIG_HOME": str(tmp_path), "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    assert run_companion("calibrate", "area", "--", "-0", "0.2", "0.9", "0.8", env=env).returncode == 0
    profile = tmp_path / "table-companion" / "colour-profile.json"
    profile.write_text("{")
    shown = run_companion("calibrate", "show", env=env)
    assert shown.returncode == 2
    assert "left 0, top 0.2, right 0.9, bottom 0.8" in shown.stdout
    assert (
        shown.stderr
        == f"companion calibrate: colour profile: {profile}: line 1, column 2: not valid JSON "
        + ("(Expecting property name enclosed in double quotes)\n")
    )
    both = run_companion("calibrate", "colours", str(tmp_path), "--camera", "0", env=env)
    assert (both.returncode, both.stderr) == (
        2,
        "companion calibrate colours: give COLOURS_DIR or --camera SPEC, not both\n",
    )


def test_colours_taught_without_blue_say_so(tmp_path: Path) -> None:
    """A COLOURS_DIR of yellow/ alone was saved without a word: the blue dice were named by the camera's
    guess alone."""
    env = {"XDG_CONFIG_HOME": str(tmp_path), "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    (tmp_path / "colours" / "yellow").mkdir(parents=True)
    scene = random_scene(np.random.default_rng(6), 480, 640, n_dice=5, colors=["yellow"])
    cv2.imwrite(str(tmp_path / "colours" / "yellow" / "a.png"), scene.image)
    taught = run_companion("calibrate", "colours", str(tmp_path / "colours"), env=env)
    assert taught.returncode == 0, taught.stderr
    assert "note: no blue dice taught: the game's yellow and blue dice are told apart best with both" in (
        taught.stdout
    )
    assert set(load_profile(tmp_path / "table-companion" / "colour-profile.json").colours) == {"yellow"}


@synchronous
async def test_f3_teaches_the_colours_from_the_dice_in_view_and_the_reader_uses_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    used = []
    table = RollingTable(seed=9, idle_frames=None)
    setup = rw.GameStarted(rw.load_shipped_sheet("example"), ("Barbara", "Dirk", "Patricia"))
    camera = CameraSetup(_no_camera, TableReader(table), used.append)
    app = CompanionApp(rng=random.Random(0), camera=camera, game=new_session(tmp_path, setup))
    frames = iter(table)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.press("f3")
        screen = app.screen
        assert isinstance(screen, CalibrateScreen)
        await pilot.press("s")
        assert "yellow" in str(screen.query_one("#steps").render())  # too few samples: says which colour
        for colour, key in (("yellow", "y"), ("blue", "b")):
            for _ in range(2):
                table.throw([(colour, 2), (colour, 5)])
                # The throw lands a few frames on: until then the table shows (and its truth says) the last
                # one's dice, and blue was taught from the yellow dice.
                frame = next(f for f in frames if table.truth and table.truth[0].color == colour)
                screen.see(frame.image, TableReader(table).read(frame.image))
                await pilot.press(key)
        side = paths.colour_profile_path().with_name(paths.colour_profile_path().name + ".part")
        side.mkdir(parents=True)  # a save fails as on a full disk: said, and the samples kept
        await pilot.press("s")
        await pilot.pause()
        assert isinstance(app.screen, CalibrateScreen)
        assert "cannot save the colours: " in str(screen.query_one("#steps").render())
        side.rmdir()
        await pilot.press("s")
        await pilot.pause()
        assert not isinstance(app.screen, CalibrateScreen)
    profile = load_profile(paths.colour_profile_path())
    assert set(profile.colours) == {"yellow", "blue"}
    assert len(used) == 1 and set(used[0].colours) == {"yellow", "blue"}
    table.close()


def _no_camera() -> object:
    raise OSError("no camera in this test")


@synchronous
async def test_f3_without_a_camera_says_how_to_teach_the_colours(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """F3 once did nothing at all without `--camera`: the key is out of the footer there, and F1 names it."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    app = CompanionApp(rng=random.Random(0))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f3")
        await pilot.pause()
        assert not isinstance(app.screen, CalibrateScreen)
        told = [n.message for n in app._notifications]
        assert len(told) == 1 and "--camera" in told[0] and "companion calibrate colours" in told[0]
