"""Speed of the pip reader: median milliseconds per frame on one thread, on rendered tables with 15 dice."""

from __future__ import annotations

import statistics
import time

import cv2
import numpy as np

from vision.pips import PipReader
from vision.reading import Image
from vision.simulated_table.scene import random_scene

SIZES = ((640, 640), (1280, 720))
DICE = 15


def bench_frames(width: int, height: int, count: int = 5) -> list[Image]:
    """Fixed rendered tables of `DICE` dice about 1/14 of the short side wide (a webcam over a dice tray)."""
    return [
        random_scene(
            np.random.default_rng(seed), height, width, n_dice=DICE, side=min(width, height) / 14
        ).image
        for seed in range(count)
    ]


def median_ms(reader: PipReader, frames: list[Image], repeats: int) -> float:
    if repeats < 1:  # the median of no times is no figure (statistics raises far from the cause)
        raise ValueError(f"repeats must be 1 or more, not {repeats}")
    reader.read(frames[0])  # first run allocates; not a steady-state frame
    times = []
    for i in range(repeats):
        start = time.perf_counter()
        reader.read(frames[i % len(frames)])
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def run_bench(repeats: int = 50, reader: PipReader | None = None) -> list[tuple[int, int, float]]:
    """(width, height, median ms per frame) for each benchmark size; OpenCV and onnxruntime on one thread."""
    cv2.setNumThreads(1)
    reader = reader or PipReader()
    return [(w, h, median_ms(reader, bench_frames(w, h), repeats)) for w, h in SIZES]
