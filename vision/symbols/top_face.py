"""Where a found die's top face lies, for the face square the embedder reads.

The detector's box holds the whole die. Seen from above, its top face fills it; seen at an angle (a webcam at
45°), the box also holds the side faces towards the camera and the top face lies off its centre, away from the
camera, so a square cut around the box's centre shows side faces' pips or art beside the face. The top-face
locator (`models/top_face.onnx`, trained on rendered dice only: `lab.train.top_face`) reads the pip
classifier's crop of each find and says where the top face's centre is; a find's face square is cut there
when that is further from the box's centre than the embedder learned to take (`OFF_CENTRE`), else as before.

Measured on the real sets (`python -m lab.symbol_real`, docs/symbol-reader.md): the angled webcam's dice named
right 83.3% -> 95.8% (80.6% -> 92.4% over three draws of the teaching photos), the top-down tray's and the
casino crops' within a die or two of before, as many dice of a face never taught left unnamed.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from pathlib import Path

import numpy as np
import numpy.typing as npt

from vision.crops import CROP_MARGIN, Square, crop_dice
from vision.detect import Detection
from vision.reading import Image
from vision.runtime import Model, channels_first

FACE_CUT = 1.1
"""The face square's side as a multiple of the detector's face side: the whole top face and a thin rim of
what lies around it (a face cut inside its edges loses the art near them)."""
OFF_CENTRE = 0.12
"""A face square is moved to the located top face when that lies more than this many face sides from the
box's centre: twice the detector's error on a centre (0.06, `lab.train.face_samples.CENTRE_ERROR`) that the
embedder was trained to take. A die seen from above stays cut as it always was."""


def face_square(find: Detection) -> Square:
    """The square around a find's box centre: its side the face side grown by `FACE_CUT`, turned by the
    detector's angle so that the face's edges run along the cut's."""
    cx, cy = find.box.center
    return (cx, cy, find.side * FACE_CUT, find.angle)


class TopFace:
    """The top-face locator: each find's face square, moved to its top face where the die is seen at an
    angle."""

    def __init__(self, name: str = "top_face", folder: Path | None = None) -> None:
        self.model = Model(name, folder=folder)
        self.size = int(self.model.card["input_size"])  # type: ignore[call-overload]

    def centres(
        self, image: Image, finds: Sequence[Detection], crops: npt.NDArray[np.uint8] | None = None
    ) -> npt.NDArray[np.float64]:
        """Where each find's top face's centre lies, in frame pixels (N×2). `crops`: the finds' crops at
        `CROP_MARGIN` where already cut (the pip classifier's, the same crop): cutting them again was most of
        the locator's time."""
        if crops is None or crops.shape[1:3] != (self.size, self.size):
            crops = crop_dice(image, [f.box for f in finds], self.size, CROP_MARGIN)
        off = self.model.run(channels_first(crops))[0]
        sides = np.array([max(f.box.width, f.box.height) * CROP_MARGIN for f in finds])
        centres = np.array([f.box.center for f in finds], np.float64).reshape(-1, 2)
        return np.asarray(centres + off * sides[:, None], np.float64)

    def squares(
        self, image: Image, finds: Sequence[Detection], crops: npt.NDArray[np.uint8] | None = None
    ) -> tuple[list[Square], npt.NDArray[np.bool_]]:
        """Each find's face square, and which of them were moved off the box's centre to its top face
        (`crops` as `centres` takes them)."""
        if not finds:
            return [], np.zeros(0, bool)
        tops = self.centres(image, finds, crops)
        boxes = [face_square(f) for f in finds]
        off = np.hypot(*(tops - [b[:2] for b in boxes]).T) / [f.side for f in finds]
        moved = np.asarray(off > OFF_CENTRE, bool)
        squares = [
            (float(x), float(y), side, angle) if m else (bx, by, side, angle)
            for (x, y), (bx, by, side, angle), m in zip(tops, boxes, moved, strict=True)
        ]
        return squares, moved


@cache
def default_top_face() -> TopFace:
    """The shipped top-face locator, loaded once."""
    return TopFace()
