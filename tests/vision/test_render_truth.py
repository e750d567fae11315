"""The renderer's truth: every die it reports is where it drew it, with the face it reports."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.simulated_table import DieSpec, Look, PipPainter, Placement, draw_scene, random_scene

CLEAN = Look(
    side_dir=(0.0, 0.0),
    light_dir=(0.0, 0.0),
    gain=(1.0, 1.0, 1.0),
    gradient=(0.0, 0.0, 0.0),
    tilt=0.0,
    blur=0.0,
    noise=0.0,
    jpeg=100,
    specular=0.0,
)


def clean_die(value: int, place: Placement, rng: np.random.Generator) -> tuple[DieSpec, Placement]:
    return DieSpec(PipPainter(), str(value), "white", (235, 235, 235), (20, 20, 20)), place


@pytest.mark.parametrize("seed", range(3))
def test_drawn_pixels_lie_in_the_true_boxes(seed: int) -> None:
    rng = np.random.default_rng(seed)
    table = np.full((240, 320, 3), 120, np.uint8)
    dice = [clean_die(v, Placement(60 + 90 * i, 120, 40, 30.0 * i + 7), rng) for i, v in enumerate((2, 5, 6))]
    scene = draw_scene(table, dice, CLEAN, rng)
    # The white dice are lighter than the table; their soft shadows (darker) may spill past the box.
    changed = (scene.image.astype(int) - table).min(2) > 8
    inside = np.zeros_like(changed)
    for die in scene.dice:
        b = die.box
        inside[int(b.y0) : int(np.ceil(b.y1)) + 1, int(b.x0) : int(np.ceil(b.x1)) + 1] = True
        assert changed[int(b.y0) : int(b.y1), int(b.x0) : int(b.x1)].sum() > 0.6 * 40**2  # face minus pips
    assert not (changed & ~inside).any()


@pytest.mark.parametrize("value", range(1, 7))
def test_the_drawn_face_shows_the_true_value(value: int) -> None:
    rng = np.random.default_rng(value)
    table = np.full((120, 120, 3), 120, np.uint8)
    scene = draw_scene(table, [clean_die(value, Placement(60, 60, 80, 20), rng)], CLEAN, rng)
    assert scene.dice[0].value == value
    dark = (cv2.cvtColor(scene.image, cv2.COLOR_BGR2GRAY) < 70).astype(np.uint8)
    count, _ = cv2.connectedComponents(dark)
    assert count - 1 == value  # one component is the background


def test_random_scenes_keep_their_dice_inside_the_frame() -> None:
    for seed in range(5):
        scene = random_scene(np.random.default_rng(seed), 300, 400, n_dice=12)
        assert 1 <= len(scene.dice) <= 12
        for die in scene.dice:
            assert 0 <= die.box.x0 < die.box.x1 <= 400 and 0 <= die.box.y0 < die.box.y1 <= 300
            assert die.kind == "pip" and 1 <= (die.value or 0) <= 6
            assert 0 <= die.angle < 90
