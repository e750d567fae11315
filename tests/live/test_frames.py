"""The camera's evidence on disk: frames written small and whole, read back with the reader's dice, and a
failed write or a torn file never more than a frame lost."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from calibration.table_area import TableArea
from companion.live.frames import (
    DIE_SIDE,
    LONGEST,
    MAX_BYTES,
    MAX_SIDE,
    FrameKeeper,
    Sighting,
    frames_dir,
    load_frame,
    write_frame,
)
from vision.reading import Box, DiceReading, Die
from vision.simulated_table.rolling import RollingTable


def noisy_sighting(width: int = 1280, height: int = 720) -> Sighting:
    """The worst a JPEG can be asked to hold: every pixel random; two dice read on it."""
    image = np.random.default_rng(0).integers(0, 256, (height, width, 3), dtype=np.uint8)
    dice = (
        Die(Box(700, 100, 760, 160), "pip", "yellow", 0.97, 3),
        Die(Box(1000, 400, 1060, 460), "symbol", "white", 0.62, face="tower", rotation=90),
    )
    return Sighting(image, DiceReading(dice, 0.0))


def table_sighting() -> Sighting:
    """A settled throw on the rendered table, its dice as the table knows them."""
    table = RollingTable(seed=3, roll_frames=4, rest_frames=0, idle_frames=None)
    table.throw([("yellow", 5), ("blue", 2)])
    frames = iter(table)
    frame = next(f for f in frames if table.settled is not None)
    dice = tuple(Die(d.box, "pip", d.color, 0.99, d.value) for d in table.truth)
    table.close()
    return Sighting(frame.image, DiceReading(dice, 0.0))


@pytest.mark.parametrize("make", [noisy_sighting, table_sighting])
def test_a_frame_is_small_and_reads_back_with_the_readers_dice(tmp_path: Path, make: object) -> None:
    sighting = make()  # type: ignore[operator]
    log = tmp_path / "game.jsonl"
    name = write_frame(frames_dir(log), sighting)
    assert name == "0001.jpg"
    jpeg = frames_dir(log) / name
    assert jpeg.stat().st_size <= MAX_BYTES
    shown = load_frame(log, name)
    assert shown.image is not None and shown.problem == ""
    assert max(shown.image.shape[:2]) <= LONGEST
    scale = shown.image.shape[1] / sighting.image.shape[1]
    assert [(d.value, d.face, d.color) for d in shown.dice] == [
        (d.value, d.face, d.color) for d in sighting.reading.dice
    ]
    first, kept = sighting.reading.dice[0].box, shown.dice[0].box
    assert kept.x0 == pytest.approx(first.x0 * scale, abs=0.2)
    assert kept.y1 == pytest.approx(first.y1 * scale, abs=0.2)
    assert write_frame(frames_dir(log), sighting) == "0002.jpg", "names are never reused"


def test_the_small_dice_of_a_whole_webcam_frame_stay_wide_enough_to_tell_apart(tmp_path: Path) -> None:
    """A 1080p webcam's frame with no dice area calibrated was shrunk to 480 pixels: its 64-pixel dice kept
    16, a 3 and a 5 hardly told apart by looking at them."""
    rng = np.random.default_rng(1)
    image = np.clip(rng.normal(120, 12, (1080, 1920, 3)), 0, 255).astype(np.uint8)  # a wooden table's grain
    boxes = [Box(300 + 200 * n, 500, 364 + 200 * n, 564) for n in range(5)]
    for box in boxes:
        image[int(box.y0) : int(box.y1), int(box.x0) : int(box.x1)] = 230
    dice = tuple(Die(box, "pip", "white", 0.9, 1 + n) for n, box in enumerate(boxes))
    log = tmp_path / "game.jsonl"
    name = write_frame(frames_dir(log), Sighting(image, DiceReading(dice, 0.0)))
    assert (frames_dir(log) / name).stat().st_size <= MAX_BYTES
    shown = load_frame(log, name)
    assert shown.image is not None and max(shown.image.shape[:2]) <= LONGEST
    assert min(d.box.x1 - d.box.x0 for d in shown.dice) >= DIE_SIDE - 0.5


def test_dice_of_no_size_leave_the_frame_at_its_usual_side(tmp_path: Path) -> None:
    """A die's box of no size (a point) gives no die side to keep: the frame is shrunk as any other."""
    image = np.full((1080, 1920, 3), 100, np.uint8)
    dice = (Die(Box(10, 10, 10, 10), "pip", "white", 0.9, 3),)
    log = tmp_path / "game.jsonl"
    shown = load_frame(log, write_frame(frames_dir(log), Sighting(image, DiceReading(dice, 0.0))))
    assert shown.image is not None and max(shown.image.shape[:2]) == MAX_SIDE


def test_only_the_calibrated_dice_area_is_kept(tmp_path: Path) -> None:
    sighting = noisy_sighting(400, 200)
    log = tmp_path / "g.jsonl"
    name = write_frame(frames_dir(log), sighting, TableArea(0.5, 0.0, 1.0, 1.0))
    shown = load_frame(log, name)
    assert shown.image is not None and shown.image.shape[:2] == (200, 200)
    yellow = shown.dice[0].box
    assert (yellow.x0, yellow.y0) == (pytest.approx(500.0), pytest.approx(100.0))


def test_a_missing_or_torn_frame_says_so_where_it_would_be_shown(tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    name = write_frame(frames_dir(log), noisy_sighting(320, 240))
    jpeg = frames_dir(log) / name
    jpeg.write_bytes(jpeg.read_bytes()[: jpeg.stat().st_size // 2])  # a copy cut off half way
    torn = load_frame(log, name)
    assert torn.image is None and torn.problem.startswith("frame missing") and "torn" in torn.problem
    jpeg.unlink()
    missing = load_frame(log, name)
    assert missing.image is None and missing.problem.startswith("frame missing")
    assert load_frame(log, "../game.jsonl").problem.startswith("frame missing"), "no path out of the folder"
    second = write_frame(frames_dir(log), noisy_sighting(320, 240))
    (frames_dir(log) / second).with_suffix(".json").write_text("{not json", encoding="utf-8")
    unboxed = load_frame(log, second)
    assert unboxed.image is not None and unboxed.dice == () and "boxes are missing" in unboxed.problem


def test_a_torn_or_missing_picture_keeps_what_the_reader_saw(tmp_path: Path) -> None:
    """A picture cut short hid the reader's dice too, though their own file was intact: the view said only
    "frame missing", not what the reader saw. The dice are read whatever became of the picture."""
    log = tmp_path / "game.jsonl"
    sighting = noisy_sighting(320, 240)
    name = write_frame(frames_dir(log), sighting)
    jpeg = frames_dir(log) / name
    jpeg.write_bytes(jpeg.read_bytes()[:500])
    read = [(d.kind, d.value, d.face, d.confidence) for d in sighting.reading.dice]
    torn = load_frame(log, name)
    assert torn.image is None and torn.problem == f"frame missing: {jpeg} is torn"
    assert [(d.kind, d.value, d.face, d.confidence) for d in torn.dice] == read
    jpeg.unlink()
    missing = load_frame(log, name)
    assert missing.image is None and missing.problem.startswith("frame missing")
    assert [(d.kind, d.value, d.face, d.confidence) for d in missing.dice] == read
    jpeg.with_suffix(".json").unlink()
    gone = load_frame(log, name)
    assert gone.dice == () and gone.problem == missing.problem, "the lost picture is said, not the boxes"


FULL_DISK = """
import json, resource, sys
from pathlib import Path
sys.path.insert(0, sys.argv[2])
from test_frames import noisy_sighting
from companion.live.frames import FrameKeeper, frames_dir

log = Path(sys.argv[1]) / "game.jsonl"
seen = noisy_sighting(320, 240)
resource.setrlimit(resource.RLIMIT_FSIZE, (1000, 1000))
keeper = FrameKeeper(log, lambda: seen)
kept = [keeper.keep(), keeper.keep()]
news = [keeper.news(), keeper.news()]
print(json.dumps({"kept": kept, "news": news, "left": sorted(p.name for p in frames_dir(log).iterdir())}))
"""


def test_a_frame_that_cannot_be_written_is_told_once_and_nothing_else_happens(tmp_path: Path) -> None:
    """The file-size limit of a child process stands in for a full disk (root writes anywhere else)."""
    run = subprocess.run(
        [sys.executable, "-c", FULL_DISK, str(tmp_path), str(Path(__file__).parent)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    assert out["kept"] == ["", ""], "no frame kept, the rolls go on without one"
    assert "not kept" in out["news"][0] and out["news"][1] == "", "said once"
    assert out["left"] == [], "no half-written file left behind"


def test_a_file_in_the_folders_place_loses_the_frame_only(tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    frames_dir(log).write_text("in the way", encoding="utf-8")
    keeper = FrameKeeper(log, lambda: noisy_sighting(320, 240))
    assert keeper.keep() == "" and "not kept" in keeper.news()


def test_no_frame_is_kept_off_or_without_dice_settled(tmp_path: Path) -> None:
    assert FrameKeeper.off().keep() == ""
    assert FrameKeeper(tmp_path / "game.jsonl", lambda: None).keep() == ""
    assert not frames_dir(tmp_path / "game.jsonl").exists()
