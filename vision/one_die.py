"""The die of a photo of one die, however close the photo is cut around it: a die filling the photo is
larger than the detector knows dice (a fifth of the frame or less), and there it takes the die's pips for
dice. Teaching photos (symbol faces, colours) are often cut so.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from vision.crops import rescale
from vision.detect import MAX_LONG_SIDE, Detection, detect
from vision.reading import Box, Image

TEACHING_TABLES = (1, 2, 3, 5)
"""A teaching photo is looked at as it is and laid amid a table of its border's colour this many times its
size: a photo cut close around its die shows it larger than the detector knows dice (a die of a fifth of the
frame or less), and there the detector takes the die's pips for dice."""
SAME_SIZE = 0.25
"""A look's find whose side is this share or more off the median of the looks' finds is another thing (a
pip, the photo's whole square)."""


def teaching_find(image: Image) -> Detection | None:
    """The die of a teaching photo: the surest find, of the size most looks agree on, in the photo or amid a
    table of its border's colour."""
    looks = []
    for times in TEACHING_TABLES:
        finds = detect_on_table(image, times)
        if finds:
            looks.append(max(finds, key=lambda f: f.score))
    if not looks:
        return None
    median = float(np.median([f.side for f in looks]))
    agreed = [f for f in looks if abs(f.side - median) <= SAME_SIZE * median]
    return max(agreed or looks, key=lambda f: f.score)


def on_table(image: Image, times: int) -> tuple[Image, tuple[int, int]]:
    """The photo amid a table of its border's median colour `times` its size, and where it lies there."""
    if times == 1:
        return image, (0, 0)
    h, w = image.shape[:2]
    border = np.concatenate([image[0], image[-1], image[:, 0], image[:, -1]])
    table = np.empty((h * times, w * times, 3), np.uint8)
    table[:] = np.median(border, axis=0).astype(np.uint8)
    y0, x0 = h * (times // 2), w * (times // 2)
    table[y0 : y0 + h, x0 : x0 + w] = image
    return table, (x0, y0)


def detect_on_table(image: Image, times: int) -> list[Detection]:
    """The dice found in the photo amid a table `times` its size (`on_table`), boxed in the photo's pixels.

    The photo is first shrunk so that the table is no larger than the detector ever looks at (it scales a
    frame to `MAX_LONG_SIDE` at most): a phone's photo amid a table five times its size took gigabytes and
    minutes, only to be shrunk by the detector."""
    h, w = image.shape[:2]
    scale = min(1.0, MAX_LONG_SIDE / (times * max(h, w)))
    small = image if scale == 1.0 else rescale(image, scale)
    sx, sy = small.shape[1] / w, small.shape[0] / h
    table, (x0, y0) = on_table(small, times)
    return [
        replace(
            f, box=Box((f.box.x0 - x0) / sx, (f.box.y0 - y0) / sy, (f.box.x1 - x0) / sx, (f.box.y1 - y0) / sy)
        )
        for f in detect(table)
    ]


CLOSE = 0.15
"""A photo whose one die spans this share of its shorter side or more is cut close around that die: the
real crops cut around one die span 0.23-0.35, a table camera's dice 0.04-0.12."""
CLOSE_TABLE = 3
"""The close photo is looked at amid a table this many times its size: its die as small as a table's."""
SAME_SIZE_OTHER = 0.7
"""A find this share of the die's side or more, outside it, is another die: the photo is of a table."""


def close_die(image: Image) -> Box | None:
    """The box of the die a photo is cut close around, or None for a photo of a table: amid a table of its
    border's colour the photo shows one die and no other of its size (a pip or a neighbour's corner may
    show)."""
    finds = detect_on_table(image, CLOSE_TABLE)
    if not finds:
        return None
    best = max(finds, key=lambda f: f.score)
    b = best.box
    for find in finds:
        cx, cy = (find.box.x0 + find.box.x1) / 2, (find.box.y0 + find.box.y1) / 2
        inside = b.x0 <= cx <= b.x1 and b.y0 <= cy <= b.y1
        if find is not best and not inside and find.side >= SAME_SIZE_OTHER * best.side:
            return None
    if best.side < CLOSE * min(image.shape[:2]):
        return None
    return b
