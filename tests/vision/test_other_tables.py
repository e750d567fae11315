"""Real tables other than d6-tray's: crops of translucent dice read alone, a webcam's scene given its values,
a large frame with small dice looked at again, and the confidence rule measured."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest
from vision_data import CASINO_CROPS, D6_TRAY, WEBCAM

from lab.train.webcam import labelled_scenes
from vision.cli import main
from vision.dataset import LabelledDie, LabelledImage, load_crop_set, load_set
from vision.detect import Detector
from vision.evaluate import Scores, match
from vision.images import load_image
from vision.pips import PipReader, tempered
from vision.reading import SURE_READ, Box, DiceReading, Die


def test_a_folder_of_crops_by_value_is_measured_with_the_classifier_alone(
    capsys: pytest.CaptureFixture[str],
) -> None:
    items = load_crop_set(CASINO_CROPS)
    assert sorted(it.dice[0].value for it in items) == [1, 2, 3, 4, 5, 6]
    assert all(it.dice[0].box == Box(0.0, 0.0, it.width, it.height) for it in items)
    assert main(["eval", "--json", str(CASINO_CROPS)]) == 0
    scores = json.loads(capsys.readouterr().out)
    assert scores["images"] == scores["labelled_dice"] == 6
    assert scores["found_dice"] >= 4 and scores["die_accuracy"] >= 0.5  # translucent dice: the hard case


def test_a_crop_set_has_no_held_out_split(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", str(CASINO_CROPS), "--split", "held-out"]) == 2
    assert capsys.readouterr().err.startswith(f"error: {CASINO_CROPS}: a folder of crops by value has no")


def die(value: int, x: float, confidence: float) -> Die:
    return Die(Box(x, 0, x + 10, 10), "pip", "red", confidence, value=value)


def test_the_confidence_rule_counts_sure_reads_right_and_wrong_and_asked_ones() -> None:
    dice = tuple(LabelledDie(v, Box(20.0 * v, 0, 20.0 * v + 10, 10)) for v in (1, 2, 3))
    truth = LabelledImage(Path("x.jpg"), dice, 100, 10)
    reading = DiceReading((die(1, 20, 0.95), die(5, 40, 0.9), die(3, 60, 0.5), die(4, 80, SURE_READ)), 0.0)
    scores = Scores()
    scores.add(truth, reading)
    s = scores.to_json()
    # Sure: the right 1, the 2 read as 5, and a false find read at exactly 0.8; asked: the 3.
    assert s["sure_right"] == round(1 / 3, 4)
    assert s["sure_but_wrong"] == round(2 / 3, 4)  # two wrong sure reads over three labelled dice
    assert s["asked"] == 0.25
    assert scores.asked_dice == 1  # of the labelled dice, the 3; the false find is no question about a die


def test_a_temperature_keeps_the_order_of_the_classes_and_changes_how_sure() -> None:
    probs = np.array([[0.05, 0.9, 0.05], [0.3, 0.3, 0.4]], np.float32)
    assert tempered(probs, 1.0) is probs
    soft, sharp = tempered(probs, 2.0), tempered(probs, 0.5)
    for p in (soft, sharp):
        assert np.allclose(p.sum(axis=1), 1) and (p.argmax(axis=1) == probs.argmax(axis=1)).all()
    assert soft[0, 1] < 0.9 < sharp[0, 1]
    assert np.allclose(tempered(soft, 0.5), probs, atol=1e-5)


def test_a_webcam_scene_gets_its_values_from_the_crops_cut_from_it() -> None:
    (scene,) = labelled_scenes(WEBCAM)
    assert scene.image.name == "WIN_20221211_13_08_50_Pro.jpg" and (scene.width, scene.height) == (1920, 1080)
    # The crops sort one die as a 2 and the other as a 3; each is boxed where its crop was cut.
    assert sorted(d.value for d in scene.dice) == [2, 3]
    crops = {2: "two/WIN_20221211_13_08_50_Pro-die-0.jpg", 3: "three/WIN_20221211_13_08_50_Pro-die-1.jpg"}
    image = load_image(scene.image)
    for d in scene.dice:
        crop = load_image(WEBCAM / "die_classification" / "training" / crops[d.value])
        found = cv2.matchTemplate(image, crop, cv2.TM_SQDIFF_NORMED)
        x, y = cv2.minMaxLoc(found)[2]
        cx, cy = d.box.center
        assert x < cx < x + crop.shape[1] and y < cy < y + crop.shape[0]


def mosaic(images: list[np.ndarray], columns: int) -> np.ndarray:
    rows = [np.hstack(images[i : i + columns]) for i in range(0, len(images), columns)]
    return np.vstack(rows)


def test_small_dice_in_a_large_frame_are_looked_for_again_at_a_larger_scale() -> None:
    detector = Detector()
    items = load_set(D6_TRAY)
    tiles = [items[k % len(items)] for k in range(6)]
    # 1920x1280, six real photos of 640 px: their dice a third of the size the detector knows at 384 px.
    big = mosaic([load_image(item.image) for item in tiles], 3)
    shifts = [(640.0 * (k % 3), 640.0 * (k // 3)) for k in range(len(tiles))]
    truth = [
        Box(d.box.x0 + dx, d.box.y0 + dy, d.box.x1 + dx, d.box.y1 + dy)
        for item, (dx, dy) in zip(tiles, shifts, strict=True)
        for d in item.dice
    ]
    once = detector.at(big, detector.long_side)
    again = detector(big)
    assert len(match(truth, [d.box for d in once])) < 0.7 * len(truth)
    assert len(match(truth, [d.box for d in again])) >= 0.95 * len(truth)


def test_the_webcam_scene_is_read_at_its_dice_size(reader: PipReader) -> None:
    (scene,) = labelled_scenes(WEBCAM)
    reading = reader.read(load_image(scene.image))
    pairs = match([d.box for d in scene.dice], [d.box for d in reading.dice])
    assert len(pairs) == 2
