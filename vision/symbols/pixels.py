"""Per-pixel arithmetic on float colour images, by OpenCV: numpy's sums and broadcasts over a last axis of
three channels cost several times more on images this small."""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

_SUM = np.ones((1, 3), np.float32)


def channel_sum(values: npt.NDArray[Any]) -> npt.NDArray[np.float32]:
    """Per pixel, the sum of its three channels (an H×W image from an H×W×3 one)."""
    return np.asarray(cv2.transform(values, _SUM), np.float32)
