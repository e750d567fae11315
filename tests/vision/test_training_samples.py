"""Training material: banks repeat exactly whatever the worker count, and augmentation keeps the truth."""

from __future__ import annotations

import numpy as np
from vision_data import D6_TRAY

from lab.train.bank import make_bank, rendered_tables
from lab.train.samples import NOT_A_DIE, load_photos, rendered_photo, turn
from vision.dataset import load_set


def test_a_crop_bank_is_the_same_with_one_worker_or_two() -> None:
    photos = load_photos(load_set(D6_TRAY)[:2])
    one = make_bank(photos, 12, 32, seed=3, workers=1)
    two = make_bank(photos, 12, 32, seed=3, workers=2)
    assert one[0].shape == (12, 3, 32, 32) and one[0].dtype == np.uint8
    assert np.array_equal(one[0], two[0]) and np.array_equal(one[1], two[1])
    assert set(one[1].tolist()) <= {NOT_A_DIE, 1, 2, 3, 4, 5, 6}


def test_rendered_tables_know_every_die() -> None:
    tables = rendered_tables(3, seed=1, workers=1)
    assert len(tables) == 3
    for table in tables:
        assert table.angles is not None and len(table.angles) == len(table.boxes) == len(table.values)
        h, w = table.image.shape[:2]
        assert 400 <= max(h, w) < 720
        assert ((table.angles >= 0) & (table.angles < 90)).all()


def box_means(img: np.ndarray, boxes: np.ndarray) -> np.ndarray:
    return np.array(
        [img[int(y0) + 2 : int(y1) - 2, int(x0) + 2 : int(x1) - 2].mean((0, 1)) for x0, y0, x1, y1 in boxes]
    )


def test_turning_and_mirroring_keep_boxes_on_their_dice() -> None:
    photo = rendered_photo(np.random.default_rng(7))
    assert photo.angles is not None
    inside = (photo.boxes[:, :2] >= 0).all(1) & (photo.boxes[:, 2:] <= photo.image.shape[1::-1]).all(1)
    before = box_means(photo.image, photo.boxes[inside])
    mirrored = 0
    for seed in range(8):
        img, boxes, angles = turn(photo.image, photo.boxes.copy(), photo.angles, np.random.default_rng(seed))
        assert angles is not None
        assert np.allclose(box_means(img, boxes[inside]), before, atol=4)  # boxes are cut to whole pixels
        if not np.allclose(angles, photo.angles):
            mirrored += 1
            assert np.allclose(angles, (-photo.angles) % 90)
    assert 0 < mirrored < 8
