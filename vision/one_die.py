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
"""A look's find whose side is this share or more off the median of the looks' finds is another thing than
the die most looks found: a neighbour, in a photo of a table, that one look found surer than the die."""
PIP_SHARE = 0.4
"""A look's find under this share of the side of a wider look's find that holds it is one of that die's pips:
where the die is larger than the dice the detector knows, it finds the pips, and a face of one or four pips
gave as many looks of a pip as of the die (a pip is 0.15-0.25 of a die's side). A look's find under this
share of the surest find's side, wherever it lies, is a speck of the table beside the die: narrow looks at a
photo cut close around a translucent die found the felt at its corners surer than anything else, and two
such specks agreed in size against the die. (Not of the largest find's side: in a wide photo the widest look
finds the photo's corners as dice several times the die's size, unsurely.)"""


def teaching_find(image: Image) -> Detection | None:
    """The die of a teaching photo: the surest find, of the size most looks agree on, in the photo or amid a
    table of its border's colour."""
    return die_of(looks_at(image))


def looks_at(image: Image) -> dict[int, list[Detection]]:
    """The finds of each look at the photo (`TEACHING_TABLES`: as it is, and amid tables of its border), but
    those larger than the photo's shorter side: the photo's own square, which a wide look may take for a die
    (and then for one holding every die of the photo)."""
    most = min(image.shape[:2])
    return {times: [f for f in detect_on_table(image, times) if f.side <= most] for times in TEACHING_TABLES}


def die_of(looks: dict[int, list[Detection]]) -> Detection | None:
    """The photo's one die from the looks' finds: each look's surest, less those that are a wider look's pips
    and those far smaller than the surest (`PIP_SHARE`), the surest of the size most of them agree on."""
    surest = [max(finds, key=lambda f: f.score) for _, finds in sorted(looks.items()) if finds]
    if not surest:
        return None
    kept = [f for i, f in enumerate(surest) if not any(pip_of(f, wider) for wider in surest[i + 1 :])]
    best = max(kept, key=lambda f: f.score)
    kept = [f for f in kept if f.side >= PIP_SHARE * best.side]
    median = float(np.median([f.side for f in kept]))
    agreed = [f for f in kept if abs(f.side - median) <= SAME_SIZE * median]
    return max(agreed or kept, key=lambda f: f.score)


def pip_of(find: Detection, die: Detection) -> bool:
    """Whether `find` lies within `die` and is small enough to be one of its pips (`PIP_SHARE`)."""
    return die.box.holds_centre_of(find.box) and find.side < PIP_SHARE * die.side


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
"""The look (one of `TEACHING_TABLES`) at which a close photo shows no die of its die's size beside it: amid a
table this many times its size, its die as small as a table's."""
SAME_SIZE_OTHER = 0.7
"""A find this share of the die's side or more, outside it, is another die: the photo is of a table."""


def close_die(image: Image) -> Box | None:
    """The box of the die a photo is cut close around, or None for a photo of a table: the photo's one die
    (`die_of`, so not one of its pips) spans `CLOSE` of it or more, and amid a table of its border's colour
    the photo shows no other find of its size (a pip or a neighbour's corner may show)."""
    looks = looks_at(image)
    die = die_of(looks)
    if die is None or die.side < CLOSE * min(image.shape[:2]):
        return None
    for find in looks[CLOSE_TABLE]:
        if not die.box.holds_centre_of(find.box) and find.side >= SAME_SIZE_OTHER * die.side:
            return None
    return die.box
