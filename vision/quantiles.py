"""numpy's median and percentile by sorting: on the few hundred values the readers take them of, per frame or
per die, np.median and np.percentile cost several times more in their own overhead."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt


def median(values: npt.NDArray[Any], axis: int) -> npt.NDArray[Any]:
    """np.median(values, axis): the mean of the middle one or two values along `axis`."""
    n = values.shape[axis]
    middle = np.take(np.sort(values, axis=axis), range((n - 1) // 2, n // 2 + 1), axis=axis)
    return np.asarray(middle.mean(axis=axis))


def percentile(values: npt.NDArray[Any], q: float) -> float:
    """np.percentile(values, q) (linear between ranks) of all the values, through a partial sort."""
    at = q / 100 * (values.size - 1)
    low = int(at)
    high = min(low + 1, values.size - 1)
    part = np.partition(values.ravel(), (low, high))
    return float(part[low] + (at - low) * (part[high] - part[low]))
