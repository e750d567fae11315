"""Square die crops from the full-resolution frame: what the classifier sees, at run and training time."""

from __future__ import annotations

import cv2
import numpy as np

from vision.reading import Box, Image

CROP_MARGIN = 1.25
"""Crop side as a multiple of the die box's longer side: the whole die plus a little table."""

SHRINK_FIRST = 0.75
"""Below this scale the neighbourhood is shrunk by pixel area before the warp: a bilinear warp alone samples
too few pixels, and small pips flicker in and out (aliasing)."""


def crop_square(image: Image, cx: float, cy: float, side: float, out: int, angle: float = 0.0) -> Image:
    """The square of `side` px centred on (cx, cy), turned by `angle` degrees, resampled to out×out.

    Pixels outside the image repeat the border, so dice at the frame edge still give a full crop.
    """
    scale = out / max(side, 1.0)
    if scale < SHRINK_FIRST:
        half = int(np.ceil(side * 0.75)) + 2  # holds the square turned any way (half-diagonal 0.71 side)
        x0, y0 = int(cx) - half, int(cy) - half
        h, w = image.shape[:2]
        roi = image[max(y0, 0) : max(0, min(y0 + 2 * half, h)), max(x0, 0) : max(0, min(x0 + 2 * half, w))]
        if roi.size == 0:
            roi = np.zeros((2, 2, 3), np.uint8)
            x0, y0 = int(cx) - 1, int(cy) - 1
        else:
            pads = (max(0, -y0), max(0, y0 + 2 * half - h), max(0, -x0), max(0, x0 + 2 * half - w))
            if any(pads):
                roi = np.asarray(cv2.copyMakeBorder(roi, *pads, cv2.BORDER_REPLICATE), np.uint8)
        size = max(2, round(2 * half * scale))
        small = np.asarray(cv2.resize(roi, (size, size), interpolation=cv2.INTER_AREA), np.uint8)
        f = size / (2 * half)
        return crop_square(small, (cx - x0) * f, (cy - y0) * f, side * f, out, angle)
    m = cv2.getRotationMatrix2D((cx, cy), angle, scale)
    m[:, 2] += np.array([out / 2 - cx, out / 2 - cy])
    crop = cv2.warpAffine(image, m, (out, out), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return np.asarray(crop, np.uint8)


def crop_die(image: Image, box: Box, out: int) -> Image:
    cx, cy = box.center
    return crop_square(image, cx, cy, max(box.width, box.height) * CROP_MARGIN, out)
