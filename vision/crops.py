"""Square die crops from the full-resolution frame: the one cut used by the classifier, at run and training time."""

from __future__ import annotations

import cv2
import numpy as np

from vision.reading import Box, Image

CROP_MARGIN = 1.25
"""Crop side as a multiple of the die box's longer side: the whole die plus a little table."""


def crop_square(image: Image, cx: float, cy: float, side: float, out: int, angle: float = 0.0) -> Image:
    """The square of `side` px centred on (cx, cy), turned by `angle` degrees, resampled to out×out.

    Pixels outside the image repeat the border, so dice at the frame edge still give a full crop.
    """
    scale = out / max(side, 1.0)
    m = cv2.getRotationMatrix2D((cx, cy), angle, scale)
    m[:, 2] += (out / 2 - cx, out / 2 - cy)
    return cv2.warpAffine(image, m, (out, out), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def crop_die(image: Image, box: Box, out: int) -> Image:
    cx, cy = box.center
    return crop_square(image, cx, cy, max(box.width, box.height) * CROP_MARGIN, out)
