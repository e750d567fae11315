"""The top-face locator's training data: rendered cuts with their top faces' centres, kept with them when the
batch is mirrored or transposed."""

from __future__ import annotations

import numpy as np
import pytest

from lab.train import top_face_samples as top_face


def test_each_cut_comes_with_where_its_top_face_lies(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(top_face, "CHUNK", 40)
    cuts, targets = top_face.samples(7)
    assert cuts.shape == (40, top_face.SIZE, top_face.SIZE, 3) and targets.shape == (40, 2)
    assert np.abs(targets).max() < 0.5  # inside the cut
    assert np.abs(targets).max() > 0.1  # dice seen at an angle: top faces well off the box's centre
    again = top_face.samples(7)
    assert np.array_equal(again[0], cuts) and np.array_equal(again[1], targets)


def test_a_mirrored_or_transposed_batch_keeps_its_targets() -> None:
    """A bright square drawn where each target says: after `flipped`, it is still where its target says."""
    rng = np.random.default_rng(0)
    size = top_face.SIZE
    y = rng.uniform(-0.3, 0.3, (64, 2)).astype(np.float32)
    x = np.zeros((64, 3, size, size), np.float32)
    for i, (dx, dy) in enumerate(y.tolist()):
        cx, cy = round((0.5 + dx) * size), round((0.5 + dy) * size)
        x[i, :, cy - 2 : cy + 2, cx - 2 : cx + 2] = 200
    rows, cols = np.mgrid[:size, :size]
    for _ in range(8):
        fx, fy = top_face.flipped(x, y, rng)
        bright = fx.sum(1) > 0
        count = bright.sum((1, 2))
        where = np.stack([(bright * cols).sum((1, 2)) / count, (bright * rows).sum((1, 2)) / count], 1)
        assert np.allclose((where + 0.5) / size - 0.5, fy, atol=1.5 / size)
