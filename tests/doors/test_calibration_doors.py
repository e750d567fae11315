"""The calibration doors at their edges: `companion calibrate` with an output that cannot be written or is
closed early, its `area --help`, `python -m calibration.table_area` (no command), and `python -m
calibration.faces` leaving nothing behind when the camera fails."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import cv2
import pytest

from companion.app.paths import table_area_path

COMPANION = str(Path(sys.executable).parent / "companion")
MISSING_CAMERA = "97"
"""A camera number no test machine has."""

needs_dev_full = pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full on this system")


def python_m(module: str, *arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", module, *arguments], capture_output=True, text=True, timeout=60
    )


def to_dev_full(command: list[str]) -> subprocess.CompletedProcess[str]:
    with open("/dev/full", "w") as full:
        return subprocess.run(command, stdout=full, stderr=subprocess.PIPE, text=True, timeout=60)


@needs_dev_full
def test_a_full_output_after_saving_the_area_says_it_was_saved_and_where(home: Path) -> None:
    """It said "cannot save: None: No space left on device", though the area was saved."""
    result = to_dev_full([COMPANION, "calibrate", "area", "0.1", "0.1", "0.9", "0.9"])
    assert result.returncode == 2
    assert result.stderr == (
        "companion calibrate: cannot write the standard output: the disk is full"
        f" (the dice zone was saved, to {table_area_path()})\n"
    )
    assert '"x1": 0.9' in table_area_path().read_text()


@needs_dev_full
def test_a_full_output_of_show_is_named_as_the_standard_output(home: Path) -> None:
    """`show` saves nothing, and said "cannot save: None: ..." all the same."""
    result = to_dev_full([COMPANION, "calibrate", "show"])
    assert result.returncode == 2
    assert result.stderr == "companion calibrate: cannot write the standard output: the disk is full\n"


def test_show_to_a_reader_gone_before_it_prints_is_no_error(home: Path) -> None:
    """`companion calibrate show | true`: the broken pipe was said as "cannot save: None: Broken pipe"."""
    child = subprocess.Popen(
        [COMPANION, "calibrate", "show"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    assert child.stdout is not None
    child.stdout.close()  # before the command has started: nothing it prints is read
    _, err = child.communicate(timeout=60)
    assert child.returncode == 0 and err == ""


def test_area_help_says_which_edge_each_number_is() -> None:
    """`calibrate area --help` listed x0 y0 x1 y1 with no word of what they are."""
    shown = subprocess.run(
        [COMPANION, "calibrate", "area", "--help"], capture_output=True, text=True, timeout=60, check=True
    ).stdout
    for name, edge in (("x0", "left"), ("y0", "top"), ("x1", "right"), ("y1", "bottom")):
        assert f"  {name}  " in shown and f"the {edge} edge, a fraction 0-1 of the frame" in shown, shown


@pytest.mark.parametrize("arguments", [[], ["--help"]])
def test_the_table_area_module_is_no_command_and_says_which_is(arguments: list[str]) -> None:
    """`python -m calibration.table_area --help` printed nothing and ended with 0, as if it had done
    something."""
    result = python_m("calibration.table_area", *arguments)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.startswith("python -m calibration.table_area: not a command:")
    assert "`companion calibrate area" in result.stderr and len(result.stderr.splitlines()) == 1


def empty_video(path: Path) -> str:
    """A video that opens and holds no frame: a camera that gives no picture."""
    cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"MJPG"), 10, (64, 64)).release()
    assert cv2.VideoCapture(str(path)).isOpened()
    return str(path)


@pytest.mark.parametrize(
    ("failing", "said"),
    [
        ("does not open", f"camera '{MISSING_CAMERA}' does not open: is it plugged in"),
        ("gives no picture", "face 'arrow': the camera gave no picture"),
    ],
)
def test_a_failing_camera_leaves_no_folder_behind(tmp_path: Path, failing: str, said: str) -> None:
    """An `x-faces/` folder (a log, an empty face folder) was left beside the profile that was never saved."""
    spec = MISSING_CAMERA if failing == "does not open" else empty_video(tmp_path / "empty.avi")
    before = sorted(tmp_path.iterdir())
    out = tmp_path / "profiles" / "x.json"
    result = python_m("calibration.faces", "--camera", spec, "--faces", "arrow", "moon", "--out", str(out))
    assert result.returncode == 2
    assert result.stderr.startswith(f"error: {said}") and len(result.stderr.splitlines()) == 1
    assert sorted(tmp_path.iterdir()) == before


def test_a_keep_folder_that_was_there_is_left_with_what_it_held(tmp_path: Path) -> None:
    """Only what the run made is removed: a --keep folder that was there stays, with what it held."""
    keep = tmp_path / "pictures"
    keep.mkdir()
    (keep / "mine.txt").write_text("the user's\n")
    camera = ["--camera", MISSING_CAMERA, "--faces", "arrow"]
    result = python_m("calibration.faces", *camera, "--keep", str(keep), "--out", str(tmp_path / "x.json"))
    assert result.returncode == 2, result.stderr
    assert (keep / "mine.txt").read_text() == "the user's\n"
