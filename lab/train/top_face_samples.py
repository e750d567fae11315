"""The top-face locator's training data: rendered dice seen at an angle, cut as the pip classifier cuts a
find, with where each one's top face lies (`lab.train.top_face` trains on them). Without torch, so the suite
can test it where only the reader is installed."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import numpy.typing as npt

from lab.train.face_samples import ArtPainter
from vision.crops import CROP_MARGIN, crop_squares
from vision.simulated_table.painters import PipPainter
from vision.simulated_table.scene import Placement, draw_scene, random_die, random_look, random_table

SIZE = 32
CHUNK = 500
BOX_ERROR = (0.05, 0.1)
"""The detector's errors on a die's box as the samples get them: centre (share of the side, normal) and side
(factor 1 ± this, uniform)."""


def samples(seed: int) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.float32]]:
    """`CHUNK` cuts (N×S×S×3) of rendered dice, and where each one's top face lies from its cut's centre
    (N×2)."""
    rng = np.random.default_rng(seed)
    cuts = np.zeros((CHUNK, SIZE, SIZE, 3), np.uint8)
    targets = np.zeros((CHUNK, 2), np.float32)
    k = 0
    while k < CHUNK:
        side = float(rng.uniform(16, 90))
        n = int(side * 3.5)
        art = ArtPainter(labels=(str(int(rng.integers(1 << 30))),))
        painter = PipPainter() if rng.random() < 0.5 else art
        look = random_look(rng)
        if rng.random() < 0.5:
            lean, towards = rng.uniform(0.1, 0.75), rng.uniform(0, 2 * np.pi)
            look = replace(look, side_dir=(lean * np.cos(towards), lean * np.sin(towards)))
        die = random_die(painter, rng, real_bodies=True)  # type: ignore[arg-type]
        dice = [(die, Placement(n / 2, n / 2, side, float(rng.uniform(0, 90))))]
        if rng.random() < 0.3:  # a neighbour touching it, whose faces the locator must not take
            t = rng.uniform(0, 2 * np.pi)
            x, y = n / 2 + np.cos(t) * side * 1.3, n / 2 + np.sin(t) * side * 1.3
            near = Placement(x, y, side, rng.uniform(0, 360))
            dice.insert(0, (random_die(PipPainter(), rng, real_bodies=True), near))
        scene = draw_scene(random_table(rng, n, n), dice, look, rng)
        mine = [
            d for d in scene.dice
            if d.label == die.label and np.hypot(*(d.corners.mean(0) - n / 2)) < side * 0.9
        ]  # fmt: skip
        if not mine:  # tilted out of the frame
            continue
        box = mine[-1].box
        cx, cy = box.center
        s = max(box.width, box.height)
        cx, cy = cx + rng.normal(0, BOX_ERROR[0]) * s, cy + rng.normal(0, BOX_ERROR[0]) * s
        cut = s * rng.uniform(1 - BOX_ERROR[1], 1 + BOX_ERROR[1]) * CROP_MARGIN
        cuts[k] = crop_squares(scene.image, [(cx, cy, cut, 0.0)], SIZE)[0]
        top = mine[-1].corners.mean(0)
        targets[k] = ((top[0] - cx) / cut, (top[1] - cy) / cut)
        k += 1
    return cuts, targets


def flipped(
    x: npt.NDArray[np.float32], y: npt.NDArray[np.float32], rng: np.random.Generator
) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
    """A batch (N×3×S×S) mirrored and transposed at random, its targets (N×2) with it; colours swapped and
    scaled."""
    y = y.copy()
    if rng.random() < 0.5:
        x, y[:, 0] = x[..., ::-1], -y[:, 0]
    if rng.random() < 0.5:
        x, y[:, 1] = x[..., ::-1, :], -y[:, 1]
    if rng.random() < 0.5:
        x, y = x.transpose(0, 1, 3, 2), y[:, ::-1]
    scaled = x[:, rng.permutation(3)] * rng.uniform(0.7, 1.3, (len(x), 1, 1, 1))
    return np.ascontiguousarray(np.clip(scaled, 0, 255), np.float32), np.ascontiguousarray(y)
