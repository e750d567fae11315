"""The camera preview in half blocks: each cell's ink is the upper pixel, its paper the lower one."""

from __future__ import annotations

import numpy as np

from companion.live.preview import fit, half_block_lines


def test_each_cell_shows_its_upper_and_lower_pixel() -> None:
    image = np.zeros((40, 60, 3), np.uint8)
    image[:10] = (0, 0, 255)  # the top quarter red (BGR)
    image[10:20] = (255, 0, 0)  # then blue
    image[20:, 30:] = (10, 200, 30)  # the lower right green
    cols, rows = fit(image.shape, 6, 10)
    lines = half_block_lines(image, cols, rows)
    assert (cols, rows) == (6, 2) and [len(line) for line in lines] == [6, 6]
    assert {s.text for line in lines for s in line} == {"▀"}
    ink = [[s.style.color.triplet for s in line] for line in lines]  # type: ignore[union-attr]
    paper = [[s.style.bgcolor.triplet for s in line] for line in lines]  # type: ignore[union-attr]
    assert ink[0] == [(255, 0, 0)] * 6 and paper[0] == [(0, 0, 255)] * 6
    assert ink[1] == paper[1] == [(0, 0, 0)] * 3 + [(30, 200, 10)] * 3
