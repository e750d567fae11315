"""The labelled-set layout, the fixed held-out split, the detector's targets, scoring rendered tables."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest
from vision_data import D6_TRAY

from lab.train.split import LABEL_FAULTS, LabelFix, load_fixes, mend, training_part, write_held_out
from lab.train.split import main as split_main
from vision.dataset import DatasetError, is_held_out, label_line, load_set, parse_labels
from vision.detect import Detection, decode, die_sized, encode_targets, strongest_apart
from vision.evaluate import evaluate_rendered
from vision.reading import Box, DiceReading, Die, Image
from vision.simulated_table.scene import random_scene


def test_the_split_depends_on_the_file_stem_only() -> None:
    assert is_held_out("IMG_20191208_111246.jpg") and is_held_out("IMG_20191208_111246.png")
    names = [f"photo_{i}.jpg" for i in range(2000)]
    share = sum(map(is_held_out, names)) / len(names)
    assert 0.17 < share < 0.23


def test_the_test_photos_are_held_out_ones() -> None:
    items = load_set(D6_TRAY)
    assert len(items) == 4 and all(is_held_out(i.image.name) for i in items)
    assert load_set(D6_TRAY, "train") == []
    assert sum(len(i.dice) for i in items) == 52


@pytest.mark.parametrize(
    "line", ["7 0.5 0.5 0.1 0.1", "3 0.5 0.5 0.1", "x 0.5 0.5 0.1 0.1", "3 0.5 0.5 0.1 0.1 9"]
)
def test_bad_label_lines_name_the_file_and_line(line: str) -> None:
    with pytest.raises(DatasetError, match=r"lab\.txt:2"):
        parse_labels(f"1 0.5 0.5 0.1 0.1\n{line}\n", 100, 100, "lab.txt")


def test_a_set_without_images(tmp_path: Path) -> None:
    with pytest.raises(DatasetError, match="no images/"):
        load_set(tmp_path)


def test_detector_targets_decode_back_to_the_boxes() -> None:
    boxes = np.array([[10.0, 20, 40, 50], [100, 60, 124, 92], [200, 200, 260, 250]])
    heat, reg, _ = encode_targets(boxes, np.array([10.0, 40, 80]), 256, 320)
    found = decode(heat, reg, scale=1.0, threshold=0.5)
    assert len(found) == 3
    for det in found:
        b = det.box
        assert np.abs(boxes - [b.x0, b.y0, b.x1, b.y1]).max(1).min() < 0.01
    assert sorted(round(d.angle) for d in found) == [10, 40, 80]


def test_two_peaks_on_one_die_give_one_detection() -> None:
    # Two peaks two cells apart whose boxes overlap (IoU 0.67), and a die apart: the weaker of the pair goes.
    boxes = np.array([[40.0, 40, 80, 80], [48, 40, 88, 80], [160, 40, 200, 80]])
    heat, reg, _ = encode_targets(boxes, None, 128, 256)
    heat[0, 15, 17] = 0.9  # the second box's peak, a little weaker than the first's
    assert len(decode(heat, reg, scale=1.0, threshold=0.95)) == 2  # the pair's weaker peak is below this
    found = decode(heat, reg, scale=1.0, threshold=0.5)
    assert [round(d.box.x0) for d in found] == [40, 160]
    assert strongest_apart(np.array([[0.0, 0, 10, 10], [1, 1, 11, 11], [5, 0, 15, 10]])) == [0, 2]


def test_a_die_far_larger_or_smaller_than_the_others_is_not_a_die() -> None:
    def die(x0: float, side: float, angle: float = 0.0, found: float = 0.9) -> Detection:
        extent = side * (abs(np.cos(np.deg2rad(angle))) + abs(np.sin(np.deg2rad(angle))))
        return Detection(Box(x0, 0, x0 + extent, extent), found, angle)

    # Dice of about 40 pixels and a disc of 100 (a coaster) read as a die: the disc goes.
    assert die_sized([die(0, 100), die(200, 40), die(300, 36), die(400, 44)]) == [1, 2, 3]
    # A die at 45° has a box 1.4 times its side; a die 1.7 times the others' side is still a die.
    assert die_sized([die(0, 45, 45.0), die(200, 24), die(300, 22), die(400, 20)]) == [0, 1, 2, 3]
    assert die_sized([die(0, 68), die(200, 40), die(300, 40)]) == [0, 1, 2]
    # Two dice give no fair median: both stay.
    assert die_sized([die(0, 100), die(200, 40)]) == [0, 1]
    # A speck of the tray of 16 pixels among dice of about 38 (read as a 1 at 0.84 by a reader that never saw
    # the tray) goes; a die 0.64 times the others' side (d6-tray's smallest) stays.
    assert die_sized([die(0, 16), die(200, 38), die(300, 36), die(400, 40)]) == [1, 2, 3]
    assert die_sized([die(0, 25), die(200, 38), die(300, 40), die(400, 40)]) == [0, 1, 2, 3]
    # Grain the detector found at 0.3-0.45, of 25-30 pixels (a webcam photo read by a detector that never saw
    # its table), does not make a die of 61 pixels found at 0.85 a coaster: the median is the surely found
    # dice's where there are three, and with fewer only the unsure finds are judged against all.
    grain = [die(100 * k, 25 + k, found=0.35) for k in range(1, 6)]
    assert die_sized([die(0, 61, found=0.85), *grain]) == list(range(6))
    sure = [die(1000 + 100 * k, 40 + k) for k in range(3)]
    assert die_sized([die(0, 61, found=0.85), *grain, *sure]) == list(range(9))
    # A speck goes however many finds of grain there are, and beside two sure dice alone when found unsurely.
    assert die_sized([die(0, 16), *grain, *sure]) == list(range(1, 9))
    assert die_sized([die(0, 12, found=0.35), *sure[:2]]) == [1, 2]


def test_rendered_tables_are_scored_against_their_truth() -> None:
    seeds = iter(range(5, 8))

    def perfect(image: Image) -> DiceReading:
        scene = random_scene(np.random.default_rng(next(seeds)))
        assert np.array_equal(scene.image, image)
        return DiceReading(tuple(Die(d.box, "pip", d.color, 1.0, d.value) for d in scene.dice[1:]), 0.0)

    scores = evaluate_rendered(perfect, 3, 5)  # each table's first die left unread
    assert scores.images == 3 and scores.labelled > 3
    assert scores.right_value == scores.matched == scores.found == scores.labelled - 3


def test_the_listed_label_faults_are_mended_in_the_held_out_copy(tmp_path: Path) -> None:
    fixes = load_fixes(LABEL_FAULTS)
    assert any(is_held_out(f.image) for f in fixes)  # and some of training photos, not in the copy
    write_held_out(D6_TRAY, tmp_path, fixes)
    before = {i.image.name: i.dice for i in load_set(D6_TRAY)}
    after = {i.image.name: i.dice for i in load_set(tmp_path)}
    # IMG_20191209_095533 has an unlabelled green 6: one die more, the others untouched.
    name = "IMG_20191209_095533.jpg"
    assert len(after[name]) == len(before[name]) + 1
    added = set(after[name]) - set(before[name])
    assert [d.value for d in added] == [6]
    assert all(after[n] == before[n] for n in before if n != name)


def test_training_reads_the_training_photos_with_their_labels_mended(tmp_path: Path) -> None:
    """IMG_20191209_095954 (a training photo) has a teal 3 labelled 2; a held-out photo is not trained on."""
    fault = next(f for f in load_fixes(LABEL_FAULTS) if f.image == "IMG_20191209_095954.jpg")
    (tmp_path / "images").mkdir()
    (tmp_path / "labels").mkdir()
    photo = D6_TRAY / "images" / "IMG_20191208_111246.jpg"  # 640 × 640
    for name in (fault.image, "IMG_20191209_095533.jpg"):
        shutil.copy(photo, tmp_path / "images" / name)
        (tmp_path / "labels" / f"{Path(name).stem}.txt").write_text(label_line(2, fault.box, 640, 640) + "\n")
    assert not is_held_out(fault.image) and is_held_out("IMG_20191209_095533.jpg")
    [item] = training_part(tmp_path)
    assert item.image.name == fault.image and [d.value for d in item.dice] == [3]


def test_a_fix_replaces_the_label_on_its_die() -> None:
    labels = "2 0.5 0.5 0.1 0.1\n4 0.2 0.2 0.1 0.1\n"
    fixed = mend(labels, [LabelFix("x.jpg", Box(48, 49, 59, 60), 3, "three pips")], 100, 100)
    dice = parse_labels(fixed, 100, 100, "fixed")
    assert sorted(d.value for d in dice) == [3, 4]


def test_a_bad_fix_row_names_its_line_and_field(tmp_path: Path) -> None:
    path = tmp_path / "fixes.csv"
    path.write_text("image,x0,y0,x1,y1,value,fault\nIMG.jpg,1,2,3,4,9,nine pips\n")
    with pytest.raises(DatasetError, match=r"fixes\.csv:2: field 'value'"):
        load_fixes(path)
    path.write_text("image,x0,y0,x1,y1,value,fault\nIMG.jpg,3,2,1,4,3,box upside down\n")
    with pytest.raises(DatasetError, match=r"fixes\.csv:2: fields 'x0'..'y1' give an empty box"):
        load_fixes(path)
    path.write_text("image,x0,y0,x1,y1,value,fault\nIMG.jpg,1,2,3,4,3,\n")
    with pytest.raises(DatasetError, match=r"fixes\.csv:2: field 'fault' is empty"):
        load_fixes(path)


def test_the_split_without_the_set_says_where_to_get_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Run from a clone without `../shared`, the documented command ended in a FileNotFoundError traceback."""
    with pytest.raises(SystemExit) as stopped:
        split_main(["--data", str(tmp_path / "nowhere"), "--out", str(tmp_path / "out")])
    said = capsys.readouterr().err
    assert stopped.value.code == 2 and "no d6-tray set here" in said and "Traceback" not in said
