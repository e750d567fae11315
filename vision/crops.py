"""Square die crops from the full-resolution frame: what the classifier sees, at run and training time."""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np
import numpy.typing as npt

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


def halve(image: Image) -> Image:
    """The image at half size, each pixel the mean of four: OpenCV's fast path for pixel-area resizing (a
    factor that is not a whole number takes a path many times slower)."""
    h, w = image.shape[:2]
    return np.asarray(cv2.resize(image, (max(1, w // 2), max(1, h // 2)), interpolation=cv2.INTER_AREA))


def rescale(image: Image, scale: float) -> Image:
    """The image scaled by `scale`: halved by pixel area while that stays at or above the target, then the
    last step bilinear (a shrink by less than half leaves little aliasing)."""
    h, w = image.shape[:2]
    target = (max(1, round(w * scale)), max(1, round(h * scale)))
    while scale <= 0.5 and min(image.shape[:2]) >= 2:
        image = halve(image)
        scale *= 2
    if image.shape[1::-1] == target:
        return image
    return np.asarray(cv2.resize(image, target, interpolation=cv2.INTER_LINEAR), np.uint8)


def crop_dice(
    image: Image, boxes: Sequence[Box], out: int, margin: float | Sequence[float] = CROP_MARGIN
) -> npt.NDArray[np.uint8]:
    """The square crop (N×out×out×3) around each die box, its side `margin` times the box's longer side;
    with several margins, every box's crop at the first, then at the second, ... (one halving of the frame
    serves them all)."""
    margins = (margin,) if isinstance(margin, float | int) else tuple(margin)
    squares = [(*b.center, max(b.width, b.height) * m, 0.0) for m in margins for b in boxes]
    return crop_squares(image, squares, out)


Square = tuple[float, float, float, float]
"""A square to cut: centre x, centre y, side (pixels) and turn (degrees, as `crop_square` takes it)."""


def crop_squares(image: Image, squares: Sequence[Square], out: int) -> npt.NDArray[np.uint8]:
    """Each square of the frame resampled to out×out (N×out×out×3).

    Each crop is cut from the frame or from one of its halvings (made once per frame, as needed), whichever
    leaves the warp a scale of at least `SHRINK_FIRST`: one cheap halving serves every small crop.
    """
    levels = [image]
    crops = np.zeros((len(squares), out, out, 3), np.uint8)
    for i, (cx, cy, side, angle) in enumerate(squares):
        k = 0
        while out / side * 2**k < SHRINK_FIRST and min(levels[k].shape[:2]) >= 4:
            k += 1
            if len(levels) == k:
                levels.append(halve(levels[-1]))
        f = 0.5**k  # pixel centres: x in the frame is (x + 0.5) · f - 0.5 in level k
        crops[i] = crop_square(levels[k], (cx + 0.5) * f - 0.5, (cy + 0.5) * f - 0.5, side * f, out, angle)
    return crops
