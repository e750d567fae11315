"""Reading pip dice: rendered tables with known truth, and real held-out photos from d6-tray."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from vision_data import CASINO_CROPS, D6_TRAY, SIDE_PIPS

from vision import pips
from vision.dataset import load_set
from vision.detect import Detection
from vision.evaluate import evaluate, match
from vision.images import load_image
from vision.pips import Classified, PipReader, read_pips
from vision.reading import SURE_READ, Box, Frame
from vision.settle import SettleSettings, settle
from vision.simulated_table.painters import GlyphPainter, PipPainter
from vision.simulated_table.scene import random_scene


def test_reading_rendered_tables(reader: PipReader) -> None:
    truth = right_value = right_colour = found = false = 0
    for seed in range(12):
        scene = random_scene(np.random.default_rng(1000 + seed), 480, 640, n_dice=10)
        reading = reader.read(scene.image, time=seed)
        assert reading.time == seed
        pairs = match([d.box for d in scene.dice], [d.box for d in reading.dice])
        truth += len(scene.dice)
        found += len(pairs)
        false += len(reading.dice) - len(pairs)
        right_value += sum(reading.dice[j].value == scene.dice[i].value for i, j in pairs)
        right_colour += sum(reading.dice[j].color == scene.dice[i].color for i, j in pairs)
    assert found >= 0.95 * truth
    assert false <= 0.02 * truth
    assert right_value >= 0.95 * truth
    assert right_colour >= 0.7 * found  # the renderer's "other" colours and marbled dice have no one name


def test_symbol_dice_are_not_read_as_pips(reader: PipReader) -> None:
    pips = symbols = 0
    for seed in range(6):
        scene = random_scene(np.random.default_rng(seed), 480, 640, n_dice=8, painters=(GlyphPainter(),))
        symbols += len(scene.dice)
        pips += len(reader.read(scene.image).dice)
    assert pips <= 0.25 * symbols  # a glyph may be a lone dot: a fair "1"


def test_reading_held_out_photos(reader: PipReader) -> None:
    scores = evaluate(load_set(D6_TRAY), reader.read)
    assert scores.labelled == 52
    assert scores.right_value >= 48  # 92%; the figure on all 339 held-out dice is in the model cards
    assert scores.found - scores.matched <= 2


def test_the_module_level_reader_fills_every_field() -> None:
    image = load_image(D6_TRAY / "images" / "IMG_20191209_100649.jpg")
    reading = read_pips(image, time=2.5)
    assert sorted(reading.values()) == [1, 1, 1, 3, 4, 6]
    for die in reading.dice:
        assert die.kind == "pip" and 0.0 < die.confidence <= 1.0
        assert die.color in {"yellow", "blue", "red", "green", "white", "black", "purple", "orange", "other"}
        assert 0 <= die.box.x0 < die.box.x1 <= image.shape[1]


def test_empty_tables_have_almost_no_dice(reader: PipReader) -> None:
    tables = [
        random_scene(np.random.default_rng(s), 480, 640, n_dice=0, painters=(PipPainter(),)) for s in range(8)
    ]
    assert all(t.dice == () for t in tables)
    assert sum(len(reader.read(t.image).dice) for t in tables) <= 2  # cards, coins and pencils are drawn too


def test_unsure_crops_are_read_again_turned(reader: PipReader, monkeypatch: pytest.MonkeyPatch) -> None:
    scene = random_scene(np.random.default_rng(77), 480, 640, n_dice=6)
    classifier = reader.classifier
    crops = classifier.crops(scene.image, reader.detector(scene.image))
    first = classifier(crops)
    sure = first.max(axis=1) >= pips.SURE
    assert sure.any() and np.array_equal(classifier.with_second_looks(crops, first)[sure], first[sure])
    monkeypatch.setattr(pips, "SURE", 1.01)  # every crop unsure: each is read at four quarter turns
    turns = [classifier(np.ascontiguousarray(np.rot90(crops, k, axes=(1, 2)))) for k in range(4)]
    assert np.allclose(classifier.with_second_looks(crops, first), np.mean(turns, axis=0), atol=1e-6)


def classified(crop: list[float], box_alone: list[float]) -> Classified:
    """One die's reading: class probabilities (not a pip die, 1-6) of its crop and of its box alone."""
    return Classified(np.zeros((1, 32, 32, 3), np.uint8), np.array([crop], np.float32),
                      np.array([box_alone], np.float32))  # fmt: skip


def test_a_sure_read_needs_the_box_alone_to_name_the_same_value() -> None:
    agreed = classified([0, 0, 0.01, 0.98, 0.01, 0, 0], [0, 0, 0.05, 0.9, 0.05, 0, 0])
    assert agreed.values().tolist() == [3] and agreed.confidences()[0] >= SURE_READ
    # The box alone names 2: the crop's 3 stays the value read, but is asked about, not entered unasked.
    disputed = classified([0, 0, 0.01, 0.98, 0.01, 0, 0], [0, 0, 0.55, 0.45, 0, 0, 0])
    assert disputed.values().tolist() == [3] and disputed.confidences()[0] < SURE_READ


def test_a_die_the_detector_is_unsure_of_is_asked_about(reader: PipReader) -> None:
    sure_three = classified([0, 0, 0, 0.99, 0.01, 0, 0], [0, 0, 0, 0.99, 0.01, 0, 0])
    box = Box(10.0, 10.0, 50.0, 50.0)
    (found_surely,) = reader.pip_dice([Detection(box, pips.SURE_FIND, 0.0)], sure_three)
    assert found_surely.value == 3 and found_surely.confidence >= SURE_READ
    # The same crop where the detector was less sure it is a die at all (a new table's grain, say): the
    # value is still offered, but asked.
    (found_faintly,) = reader.pip_dice([Detection(box, pips.SURE_FIND - 0.05, 0.0)], sure_three)
    assert found_faintly.value == 3 and found_faintly.confidence < SURE_READ


def test_a_die_the_classifier_cannot_make_out_is_offered_its_likeliest_value_and_asked(
    reader: PipReader,
) -> None:
    unclear_two = classified([0.6, 0.05, 0.3, 0.05, 0, 0, 0], [0.3, 0.1, 0.6, 0, 0, 0, 0])
    box = Box(10.0, 10.0, 50.0, 50.0)
    (offered,) = reader.pip_dice([Detection(box, pips.OFFERED_FIND, 0.0)], unclear_two)
    assert offered.value == 2 and offered.confidence < SURE_READ
    # Found less surely (a tray's hole, a laptop key), or given no value at all (a symbol die): no die.
    assert reader.pip_dice([Detection(box, pips.OFFERED_FIND - 0.05, 0.0)], unclear_two) == ()
    symbol = classified([0.95, 0.01, 0.01, 0.01, 0.01, 0.01, 0], [0.9, 0.02, 0.02, 0.02, 0.02, 0.02, 0])
    assert reader.pip_dice([Detection(box, 0.99, 0.0)], symbol) == ()
    # However surely the box alone names it, a value the crop puts below "not a pip die" is asked about.
    tied = classified([0.5, 0, 0, 0.5, 0, 0, 0], [0, 0, 0, 1.0, 0, 0, 0])
    (most,) = reader.pip_dice([Detection(box, 0.99, 0.0)], tied)
    assert most.value == 3 and most.confidence < SURE_READ


def test_a_real_die_a_classifier_never_shown_its_table_cannot_make_out_is_offered() -> None:
    """Casino's row classifier (trained without casino-crops) calls a translucent 1 rather no pip die than a 1
    in its crop, while its box alone reads 1: the die is offered as a 1 and asked about, not lost."""
    one = CASINO_CROPS / "1" / "DJI_20241005231541_0119_D_detection_2.jpg"
    left_out = PipReader(models=Path(__file__).resolve().parents[2] / "lab" / "left_out_models" / "casino")
    (die,) = left_out.read_crop(load_image(one)).dice
    assert die.value == 1 and die.confidence < SURE_READ


def test_a_die_read_under_settlings_floor_but_found_surely_stays_in_the_settled_throw() -> None:
    """The tray's row models (which never saw the tray) read two dice of this photo under settling's floor
    of 0.5; the detector is sure of both, so the still photo settles with every labelled die in it, those
    two asked about, instead of a throw short of two dice that the players would type in full."""
    (item,) = [i for i in load_set(D6_TRAY) if i.image.name == "IMG_20191208_112300.jpg"]
    left_out = PipReader(models=Path(__file__).resolve().parents[2] / "lab" / "left_out_models" / "tray")
    image = load_image(item.image)
    floor = SettleSettings().min_confidence
    unsure = [d for d in left_out.read(image).dice if d.confidence < floor and (d.found or 0) >= 0.7]
    assert len(unsure) == 2
    rested = settle((Frame(image, n / 10, n) for n in range(20)), left_out.read)
    assert rested is not None
    settled = rested.reading.dice
    assert len(match([d.box for d in item.dice], [d.box for d in settled])) == len(item.dice)
    assert all(any(d.box == u.box and d.confidence < SURE_READ for d in settled) for u in unsure)


def test_a_die_whose_side_faces_pips_show_is_asked_about(reader: PipReader) -> None:
    (photo,) = load_set(SIDE_PIPS)
    marbled_three = photo.dice[3]
    assert marbled_three.value == 3
    image = load_image(photo.image)
    found = reader.detector(image)
    (pair,) = [j for i, j in match([d.box for d in photo.dice], [d.box for d in found]) if i == 3]
    crop_read = reader.classifier(reader.classifier.crops(image, [found[pair]]))[0]
    # The crop names a 2 (its two nets' mean: one net alone read it surely); only how sure the reader is keeps
    # it off the sheet.
    assert crop_read.argmax() == 2
    read = reader.read(image).dice
    (die,) = [read[j] for i, j in match([marbled_three.box], [d.box for d in read])]
    assert die.confidence < SURE_READ
    assert sum(d.confidence >= SURE_READ for d in read) == len(photo.dice) - 1  # its other dice stay sure
