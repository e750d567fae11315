"""A die's body colour: robust Lab statistics of its face pixels, and a palette name by fixed rules.

The face is sampled from the middle of the die's box (never the table around it); pips are the minority of
those pixels, so the pixels near the median lightness are the body.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

import cv2
import numpy as np
import numpy.typing as npt

from vision.crops import CROP_MARGIN, crop_dice
from vision.quantiles import median
from vision.reading import Box, Image

SAMPLE_SIZE = 32
"""Side of the resampled square around the die (its box plus a margin of table) when no crop is at hand."""
FACE_RADIUS = 0.45
"""Pixels within this share of the box side from its centre may be the die's face."""
TABLE_DISTANCE = 12.0
"""Lab distance under which a pixel looks like the table around the die, and is not taken as the face."""
RING = (0.2, 0.3)
"""Fallback for a die that looks like its table: a ring of these radii (shares of the box side) lies inside
the face however the die is turned (a die turned 45° has a box 1.41× its face, so its face's inscribed
circle has radius 0.354 box sides), and away from the centre pip of odd faces."""

Lab = npt.NDArray[np.float32]
"""A colour as float Lab: L 0-100, a and b about -128..127."""


_LAB8_AFFINE = np.array([[100 / 255, 0, 0, 0], [0, 1, 0, -128], [0, 0, 1, -128]], np.float32)
"""8-bit Lab (L 0-255, a and b offset by 128) to float Lab."""


def lab_of(bgr: Image) -> npt.NDArray[np.float32]:
    """Float Lab (L 0-100) of 8-bit BGR pixels (H×W×3).

    Through OpenCV's 8-bit Lab, a table lookup faster than its float conversion on a frame's die crops (on
    a whole frame its large table, cold in cache between frames, costs more: the symbol finder converts in
    float); its steps (0.4 L, 1 a/b) are far below the colour differences anything here decides on.
    """
    lab8 = cv2.cvtColor(bgr, cv2.COLOR_BGR2Lab).astype(np.float32)
    # Scale and offset per channel in one OpenCV pass: numpy broadcasting over a last axis of 3 is slow.
    return np.asarray(cv2.transform(lab8, _LAB8_AFFINE), np.float32)


@dataclass(frozen=True)
class _Masks:
    """Where to look in a square crop of side `size` (the box times `CROP_MARGIN`), as flat pixel masks."""

    face: npt.NDArray[np.bool_]
    ring: npt.NDArray[np.bool_]
    table: npt.NDArray[np.bool_]


@cache
def _masks(size: int) -> _Masks:
    yy, xx = np.mgrid[0:size, 0:size].astype(np.float32) + 0.5 - size / 2
    r = (np.hypot(xx, yy) / size * CROP_MARGIN).reshape(-1)
    edge = max(1, round(size * (1 - 1 / CROP_MARGIN) / 2) - 1)
    frame = np.ones((size, size), bool)
    frame[edge:-edge, edge:-edge] = False
    return _Masks(r <= FACE_RADIUS, (r >= RING[0]) & (r <= RING[1]), frame.reshape(-1))


def masked_median(values: npt.NDArray[np.float32], mask: npt.NDArray[np.bool_]) -> npt.NDArray[np.float32]:
    """The (lower) median of each row's values where `mask` holds; every row has some."""
    ranked = np.sort(np.where(mask, values, np.inf), axis=1)
    middle = (mask.sum(1) - 1) // 2
    return np.asarray(ranked[np.arange(len(values)), middle], np.float32)


def crop_labs(crops: npt.NDArray[np.uint8]) -> npt.NDArray[np.float32]:
    """The body colour in Lab (N×3) of the die in each square crop (N×S×S×3 BGR, as `vision.crops.crop_dice`
    cuts them).

    Face candidates are the pixels near the crop centre that do not look like the table (the crop's frame);
    the body is the majority of them, the pixels whose colour is near their median colour (pips, glints and
    shadows are fewer). Their lightness alone would not do: a box that takes in clutter as light as the die
    (a lavender disc beside a yellow die) gave the two mixed. A die coloured like its table falls back to a
    ring inside its face. All dice of a frame are measured at once: per-die numpy calls would cost more than
    the pixels.
    """
    n, size = len(crops), crops.shape[1]
    if n == 0:
        return np.zeros((0, 3), np.float32)
    masks = _masks(size)
    lab = lab_of(np.ascontiguousarray(crops).reshape(n * size, size, 3)).reshape(n, -1, 3)
    table = median(lab[:, masks.table], axis=1)
    off_table = lab - table[:, None]
    unlike_table = np.sqrt(np.einsum("npc,npc->np", off_table, off_table)) > TABLE_DISTANCE
    face = masks.face & unlike_table
    use_face = face.sum(1) >= 0.5 * masks.face.sum()
    chosen = np.where(use_face[:, None], face, masks.ring)
    centre = np.stack([masked_median(lab[..., k], chosen) for k in range(3)], axis=1)
    off_centre = lab - centre[:, None]
    off = np.sqrt(np.einsum("npc,npc->np", off_centre, off_centre))
    limit = np.maximum(6.0, masked_median(off, chosen))
    near = (off <= limit[:, None]) & chosen
    mean = (near[:, None, :].astype(np.float32) @ lab)[:, 0] / near.sum(1)[:, None]
    return np.asarray(mean, np.float32)


def body_labs(image: Image, boxes: Sequence[Box]) -> npt.NDArray[np.float32]:
    """The body colour in Lab (N×3) of the die in each box (see `crop_labs`)."""
    return crop_labs(crop_dice(image, boxes, SAMPLE_SIZE))


def body_lab(image: Image, box: Box) -> Lab:
    """The body colour in Lab of the die in one box (see `body_labs`)."""
    return np.asarray(body_labs(image, [box])[0], np.float32)


def palette_name(lab: Lab) -> str:
    """The palette name of a body colour, by hue angle, chroma and lightness in Lab.

    Hue bands were set on the renderer's body colours and checked on d6-tray's training photos; colours
    between bands (brown, pink, grey, olive) are "other".
    """
    light, a, b = (float(v) for v in lab)
    chroma = float(np.hypot(a, b))
    hue = float(np.degrees(np.arctan2(b, a))) % 360
    if chroma < 5 + 0.15 * light:  # dark dice show little chroma even when plainly coloured
        if light >= 58:
            return "white"
        return "black" if light <= 32 else "other"
    if light >= 58 and chroma < 5 + 0.18 * light:  # a white die under a tinted light
        return "white"
    if hue < 50 or hue >= 352:
        if chroma < 25:  # translucent black dice glow faintly red around red pips
            return "black" if light < 35 else "other"
        return "red" if light < 70 or chroma > 45 else "other"
    if hue < 72:
        return "orange" if light >= 45 and chroma >= 35 else "other"
    if hue < 112:
        return "yellow" if light >= 50 else "other"
    if hue < 200:
        return "green"
    if hue < 306:
        return "blue"
    if hue < 352:
        return "purple" if light < 70 else "other"
    return "other"
