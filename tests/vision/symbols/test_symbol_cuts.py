"""The working crop a symbol die's face is cut from: the box and its margin, scaled, the frame's border
replicated beyond its edge, large dice shrunk without aliasing."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.reading import Box
from vision.symbols.locate import MARGIN, WORK, _work_crop


def frame() -> np.ndarray:
    rng = np.random.default_rng(7)
    noise = (rng.random((180, 260, 3)) * 255).astype(np.uint8)
    return np.asarray(cv2.GaussianBlur(noise, (0, 0), 2))


def whole_frame_warp(image: np.ndarray, box: Box, shape: tuple[int, ...]) -> np.ndarray:
    """The crop as one warp of the whole frame in float: what reading only the pixels under it must give."""
    side = max(box.width, box.height)
    scale, margin = WORK / side, MARGIN * side
    to_crop = np.array([[scale, 0, -(box.x0 - margin) * scale], [0, scale, -(box.y0 - margin) * scale]])
    size, border = (shape[1], shape[0]), cv2.BORDER_REPLICATE
    return np.asarray(cv2.warpAffine(image.astype(np.float32), to_crop, size, borderMode=border))


@pytest.mark.parametrize(
    "box",
    [Box(100, 60, 140, 98), Box(-20, -15, 30, 40), Box(230, 150, 290, 200), Box(300, 10, 340, 50)],
    ids=["inside", "over the top left corner", "over the bottom right corner", "beyond the frame"],
)
def test_the_crop_reads_the_frame_as_one_warp_of_it_would(box: Box) -> None:
    image = frame()
    crop = _work_crop(image, box)
    assert crop.dtype == np.float32 and max(crop.shape[:2]) == round(WORK * 1.24)
    assert np.abs(crop - whole_frame_warp(image, box, crop.shape)).max() < 0.01


def test_a_large_die_is_averaged_not_sampled() -> None:
    # Fine stripes one pixel wide: a plain 4x shrink by sampling keeps them as stripes, averaging greys them.
    image = np.zeros((600, 600, 3), np.uint8)
    image[:, ::2] = 255
    crop = _work_crop(image, Box(100, 100, 356, 356))
    assert max(crop.shape[:2]) == round(WORK * 1.24)
    assert np.abs(crop[5:-5, 5:-5] - 127.5).max() < 20
