"""What of a frame is not the table: pixels whose colour is unlike the table's (the city reader's
silhouette of the dice, `vision.grid`).

The table is a plane of colour fitted to the image's border, so uneven light is fine.
"""

from __future__ import annotations

from functools import cache

import cv2
import numpy as np
import numpy.typing as npt

from vision.crops import rescale
from vision.quantiles import percentile
from vision.reading import Image
from vision.symbols.art import to_lab
from vision.symbols.pixels import channel_sum

Float = npt.NDArray[np.float32]

WORK_SIDE = 240
"""The image is searched at this many pixels along its longer side."""
SHADOW_COSINE = float(np.cos(np.radians(4)))
"""Pixels whose colour points within 4° of the table's, somewhat darker, are shadow."""
UNSEEN = 3.0
"""A colour this near the table's (8-bit Lab units, about what an eye can just tell apart) is the table: on a
plain photo Otsu's level fell to 0, and the plane fit's rounding made two dice of nothing."""
_LAB_UNITS = np.diag([2.55, 1.0, 1.0]).astype(np.float32)
"""Float Lab to 8-bit Lab's lightness units, as a cv2.transform matrix."""


@cache
def _rim_fit(h: int, w: int) -> tuple[npt.NDArray[np.intp], Float, Float]:
    """For an h×w image: its rim (4 pixels wide) as flat pixel indices, the least-squares solver of the
    plane fit on the rim (the design matrix's pseudo-inverse), and the h×w×3 image of (1, x/w, y/h) that
    turns fitted coefficients into the plane."""
    rim = np.ones((h, w), bool)
    rim[4:-4, 4:-4] = False
    ys, xs = np.nonzero(rim)
    design = np.stack([np.ones(len(xs), np.float32), xs / w, ys / h], axis=1).astype(np.float32)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    coords = np.dstack([np.ones((h, w), np.float32), xx / w, yy / h])
    return ys * w + xs, np.linalg.pinv(design).astype(np.float32), coords


def _table_plane(image: Float) -> Float:
    """Per channel, the plane a + b·x + c·y that fits the image's rim best: the table under the light."""
    rim, solver, coords = _rim_fit(*image.shape[:2])
    coef = solver @ image.reshape(-1, image.shape[2]).take(rim, axis=0)
    # One matrix per pixel: (1, x/w, y/h) times the 3×3 coefficients, in a single OpenCV pass.
    return np.asarray(cv2.transform(coords, coef.T.astype(np.float32)), np.float32)


def foreground(image: Image, work_side: int = WORK_SIDE) -> tuple[npt.NDArray[np.uint8], float]:
    """Where the image is not the plain table (1) nor its shadow, at `work_side` pixels along its longer
    side; and that scale."""
    h, w = image.shape[:2]
    scale = min(1.0, work_side / max(h, w))
    small = rescale(image, scale) if scale < 1 else image
    blurred = np.asarray(cv2.GaussianBlur(small, (0, 0), 1.5), np.uint8)
    bgr = blurred.astype(np.float32)
    # Float Lab: the 8-bit conversion's lookup table, cold in cache between frames, costs more here.
    # Lightness weighted as in 8-bit Lab (0..255): the thresholds below were set in those units.
    # OpenCV's per-pixel arithmetic throughout: numpy's on 3-channel images costs two to three times more.
    lab = np.asarray(cv2.transform(to_lab(bgr), _LAB_UNITS), np.float32)
    sh, sw = lab.shape[:2]
    rim, _, _ = _rim_fit(sh, sw)
    diff = cv2.subtract(lab, _table_plane(lab))
    dist = cv2.sqrt(channel_sum(cv2.multiply(diff, diff)))
    top = float(dist.max())
    dist8 = (dist * (255 / max(top, 1e-3))).astype(np.uint8)  # 0..255: truncated as np.clip and astype would
    otsu, _ = cv2.threshold(dist8, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    # Otsu alone splits art from body on a white die; the table's own spread bounds it from above.
    level = max(min(otsu * top / 255, max(2.0 * percentile(dist.take(rim), 95), 8.0)), UNSEEN)
    # A shadow is the table's own colour, darker: same direction in BGR, shorter. It is not part of a die.
    table = _table_plane(bgr)
    pixel_len = cv2.sqrt(channel_sum(cv2.multiply(bgr, bgr)))
    table_len = cv2.sqrt(channel_sum(cv2.multiply(table, table)))
    cosine = channel_sum(cv2.multiply(bgr, table)) / (pixel_len * table_len + 1e-3)
    ratio = channel_sum(bgr) / (channel_sum(table) + 1e-3)
    shadow = (cosine > SHADOW_COSINE) & (ratio < 0.97) & (ratio > 0.45)  # a black die is darker still
    return ((dist > level) & ~shadow).astype(np.uint8), scale
