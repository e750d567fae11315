"""numpy's median and percentile by sorting: on the few hundred values the readers take them of, per frame or
per die, np.median and np.percentile cost several times more in their own overhead."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt


def median(values: npt.NDArray[Any], axis: int) -> npt.NDArray[Any]:
    """np.median(values, axis): the mean of the middle one or two values along `axis`."""
    n = values.shape[axis]
    ordered = np.sort(values, axis=axis)
    low, high = ordered.take((n - 1) // 2, axis=axis), ordered.take(n // 2, axis=axis)
    if not np.issubdtype(ordered.dtype, np.floating):  # np.median's mean of whole numbers is a float
        low, high = low.astype(np.float64), high.astype(np.float64)
    return np.asarray((low + high) / 2)


def percentile(values: npt.NDArray[Any], q: float) -> float:
    """np.percentile(values, q) (linear between ranks) of all the values, through a partial sort."""
    at = q / 100 * (values.size - 1)
    low = int(at)
    high = min(low + 1, values.size - 1)
    part = np.partition(values.ravel(), (low, high))
    return float(part[low] + (at - low) * (part[high] - part[low]))
