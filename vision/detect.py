"""Class-agnostic die detector: a small fully-convolutional ONNX net (CenterNet-style) on a downscaled frame.

The net outputs, at stride 4: a centre heatmap, the sub-cell centre offset, log box width/height, and the
face's in-plane angle as (cos 4θ, sin 4θ) — a square face looks the same every 90°. It finds any die, pip or
symbol; reading the face is the classifier's (or the symbol reader's) job.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from vision.crops import rescale
from vision.images import MIN_SIDE
from vision.reading import Box, Image
from vision.runtime import Model

STRIDE = 4
"""Output cells per input pixel of the detector net."""
OUTSIZED = 2.0
"""A die whose face side is this many times the median of a frame's dice is a coaster, bowl or disc the nets
took for one: the dice of one table differ less (at most 1.7 times in d6-tray's labels)."""
UNDERSIZED = 0.5
"""A die whose face side is under this share of the median is a speck or a hole of the tray the nets took for
one (a tray's speck was read a 1 at 0.84 by a reader that never saw the tray): the dice of one table differ
less (at least 0.64 times in d6-tray's labels)."""

SMALL_DIE = 18.0
"""A frame whose dice's boxes have a median side below this many pixels at the detector's input is looked at
again scaled up: the detector learned dice of 17-31 px there (d6-tray's at 384 px; 5th-95th percentile), and
finds smaller ones less surely or not at all (a webcam's dice of 75 px in a 1920 px frame are 15 px)."""
SURE_FIND = 0.5
"""Only finds at least this sure say how large a frame's dice are (a speck found at 0.3 is no die)."""
LOOK_AGAIN_AT = 24.0
"""The median box side, in input pixels, that the second look scales the frame for (d6-tray's median)."""
MAX_LONG_SIDE = 1536
"""The largest detector input, about 16 times the work of the usual 384 px one."""

Array = npt.NDArray[np.float32]


@dataclass(frozen=True)
class Detection:
    """A die found in a frame: its box in original-image pixels, score 0-1, in-plane angle in [0, 90)."""

    box: Box
    score: float
    angle: float

    @property
    def side(self) -> float:
        """The side of the die's face: the square at `angle` inscribed in the box (at 45°, 0.7 of the box)."""
        t = np.deg2rad(self.angle)
        return float(max(self.box.width, self.box.height) / (abs(np.cos(t)) + abs(np.sin(t))))

    @property
    def corners(self) -> npt.NDArray[np.float64]:
        """The four corners of the die's face, as a rotated square inscribed in the box at `angle`."""
        cx, cy = self.box.center
        t = np.deg2rad(self.angle)
        c, s = np.cos(t) * self.side / 2, np.sin(t) * self.side / 2
        return np.array([[cx - c + s, cy - s - c], [cx + c + s, cy + s - c], [cx + c - s, cy + s + c],
                         [cx - c - s, cy - s + c]])  # fmt: skip


def encode_targets(
    boxes: npt.NDArray[np.float64], angles: npt.NDArray[np.float64] | None, height: int, width: int
) -> tuple[Array, Array, Array]:
    """Training targets for boxes (N×4 input pixels): heat 1×h×w, regression 6×h×w, masks 2×h×w."""
    h, w = height // STRIDE, width // STRIDE
    heat = np.zeros((1, h, w), np.float32)
    reg = np.zeros((6, h, w), np.float32)
    mask = np.zeros((2, h, w), np.float32)
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    for i, (x0, y0, x1, y1) in enumerate(boxes):
        cx, cy = (x0 + x1) / 2 / STRIDE, (y0 + y1) / 2 / STRIDE
        bw, bh = x1 - x0, y1 - y0
        if not (0 <= cx < w and 0 <= cy < h) or min(bw, bh) < 3:
            continue
        sigma = max(0.6, min(bw, bh) / STRIDE / 5)
        g = np.exp(-((xs - cx) ** 2 + (ys - cy) ** 2) / (2 * sigma**2))
        np.maximum(heat[0], g, out=heat[0])
        ix, iy = int(cx), int(cy)
        heat[0, iy, ix] = 1.0
        reg[0:4, iy, ix] = (cx - ix, cy - iy, np.log(bw), np.log(bh))
        mask[0, iy, ix] = 1
        if angles is not None:
            t = np.deg2rad(angles[i]) * 4
            reg[4:6, iy, ix] = (np.cos(t), np.sin(t))
            mask[1, iy, ix] = 1
    return heat, reg, mask


def decode(heat: Array, reg: Array, scale: float, threshold: float, max_dice: int = 100) -> list[Detection]:
    """Peaks of the heatmap (1×h×w) above `threshold` as detections in original pixels (input px / scale)."""
    peaks = (heat[0] == cv2.dilate(heat[0], np.ones((3, 3), np.uint8))) & (heat[0] >= threshold)
    iy, ix = np.nonzero(peaks)
    order = np.argsort(-heat[0, iy, ix])[:max_dice]
    iy, ix = iy[order], ix[order]
    # All peaks at once: per-peak numpy scalars cost a millisecond a frame.
    cx = (ix + reg[0, iy, ix]) * STRIDE / scale
    cy = (iy + reg[1, iy, ix]) * STRIDE / scale
    bw, bh = np.exp(reg[2, iy, ix]) / scale, np.exp(reg[3, iy, ix]) / scale
    angles = (np.rad2deg(np.arctan2(reg[5, iy, ix], reg[4, iy, ix])) / 4).astype(np.float64) % 90
    corners = np.stack([cx - bw / 2, cy - bh / 2, cx + bw / 2, cy + bh / 2], axis=1)
    kept = strongest_apart(corners)
    return [
        Detection(Box(*corners[i].tolist()), float(heat[0, iy[i], ix[i]]), float(angles[i])) for i in kept
    ]


def box_array(boxes: Sequence[Box]) -> npt.NDArray[np.float64]:
    """Boxes as an N×4 array of (x0, y0, x1, y1)."""
    return np.array([[b.x0, b.y0, b.x1, b.y1] for b in boxes], np.float64).reshape(-1, 4)


def overlaps(a: npt.NDArray[np.float64], b: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """Intersection over union of every box of `a` (N×4) with every box of `b` (M×4): N×M."""
    ix = np.maximum(0.0, np.minimum(a[:, None, 2], b[:, 2]) - np.maximum(a[:, None, 0], b[:, 0]))
    iy = np.maximum(0.0, np.minimum(a[:, None, 3], b[:, 3]) - np.maximum(a[:, None, 1], b[:, 1]))
    inter = ix * iy
    area_a = (a[:, 2] - a[:, 0]) * (a[:, 3] - a[:, 1])
    area_b = (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])
    union = area_a[:, None] + area_b - inter
    return np.asarray(np.divide(inter, union, out=np.zeros_like(inter), where=union > 0), np.float64)


def strongest_apart(boxes: npt.NDArray[np.float64], limit: float = 0.45) -> list[int]:
    """Indices of the boxes (N×4, strongest first) kept when each drops any weaker box it overlaps by IoU
    `limit` or more: two peaks on one die."""
    overlap = overlaps(boxes, boxes)
    kept: list[int] = []
    for i in range(len(boxes)):
        if not kept or bool((overlap[i, kept] < limit).all()):
            kept.append(i)
    return kept


SIZING_FIND = 0.5
"""A frame's median die side is taken over the dice found at least this surely where three are: a detector
that never saw a table finds its grain by the dozen, at 0.3-0.45, and their median says nothing of a die."""


def die_sized(found: Sequence[Detection]) -> list[int]:
    """Indices of the dice in `found` whose faces are not far larger or smaller than the others' (three at
    least give a fair median): the surely found dice's where there are three, else all the dice's, against
    which only the unsure ones are judged."""
    if len(found) < 3:
        return list(range(len(found)))
    sides = np.array([d.side for d in found])
    sure = np.array([d.score >= SIZING_FIND for d in found], bool)
    fair = sure.sum() >= 3
    median = float(np.median(sides[sure] if fair else sides))
    sized = (UNDERSIZED * median <= sides) & (sides <= OUTSIZED * median)
    return np.flatnonzero(sized | (sure & ~fair)).tolist()


def detector_input(image: Image, long_side: int) -> tuple[Array, float]:
    """The frame scaled so its long side is `long_side`, padded to a multiple of 16, as 1×3×H×W float."""
    h, w = image.shape[:2]
    scale = long_side / max(h, w)
    small = rescale(image, scale)
    nh, nw = small.shape[:2]
    ph, pw = -nh % 16, -nw % 16
    if ph or pw:
        small = np.asarray(cv2.copyMakeBorder(small, 0, ph, 0, pw, cv2.BORDER_REPLICATE), np.uint8)
    return small.transpose(2, 0, 1)[None].astype(np.float32), scale


class Detector:
    """Finds dice in a frame with the `die_detector` model."""

    def __init__(self, name: str = "die_detector", folder: Path | None = None) -> None:
        self.model = Model(name, folder=folder)
        self.long_side = int(self.model.card.get("input_long_side", 384))  # type: ignore[call-overload]
        self.threshold = float(self.model.card.get("threshold", 0.3))  # type: ignore[arg-type]

    def __call__(self, image: Image) -> list[Detection]:
        if min(image.shape[:2]) < MIN_SIDE:  # an empty or tiny frame (a camera's hiccup) shows no die
            return []
        found = self.at(image, self.long_side)
        frame_long = max(image.shape[:2])
        if frame_long <= self.long_side * 1.2:
            return found
        # Dice too small at this scale, or none found in a frame with pixels to spare: look once more with the
        # frame scaled so its dice come out the size the detector knows (twice as large when none was found).
        sides = [
            max(d.box.width, d.box.height) * self.long_side / frame_long
            for d in found
            if d.score >= SURE_FIND
        ]
        median = float(np.median(sides)) if sides else LOOK_AGAIN_AT / 2
        if median >= SMALL_DIE:
            return found
        return self.at(image, round(min(MAX_LONG_SIDE, frame_long, self.long_side * LOOK_AGAIN_AT / median)))

    def at(self, image: Image, long_side: int) -> list[Detection]:
        """Dice found with the frame scaled to `long_side` pixels."""
        x, scale = detector_input(image, long_side)
        heat, reg = self.model.run(x)
        return decode(heat[0], reg[0], scale, self.threshold)


_default: Detector | None = None


def detect(image: Image) -> list[Detection]:
    """Dice in a BGR frame (boxes in its pixels, with each face's in-plane angle), with the shipped model."""
    global _default
    if _default is None:
        _default = Detector()
    return _default(image)
