"""Training material made once in parallel and reused: a bank of augmented classifier crops, and rendered
tables for the detector.

Making a crop (rendering a die, light, blur, JPEG) or a table costs far more than one training step spends
on it, so the models train on fixed banks of many distinct samples rather than on samples made as they go.
Sample i is a pure function of (seed, i), so a bank is the same whatever the worker count. Workers are
spawned, not forked: a fork of a process whose OpenCV already ran threads hangs.
"""

from __future__ import annotations

from multiprocessing import get_context
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from lab.train.samples import Photo, RealCrop, augmented_crop, classifier_sample, rendered_photo

_photos: list[Photo] = []
_real: list[RealCrop] = []


def _init(photos: list[Photo], real: list[RealCrop]) -> None:
    global _photos, _real
    _photos, _real = photos, real
    cv2.setNumThreads(1)


def _chunk(job: tuple[int, int, int, int, float]) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.int64]]:
    seed, start, stop, size, real_share = job
    crops = np.zeros((stop - start, 3, size, size), np.uint8)
    labels = np.zeros(stop - start, np.int64)
    for k, i in enumerate(range(start, stop)):
        rng = np.random.default_rng([seed, i])
        if _real and rng.random() < real_share:
            c = _real[int(rng.integers(len(_real)))]
            crop, label = augmented_crop(rng, c.image, c.box, c.value, size)
        else:
            crop, label = classifier_sample(rng, _photos, size)
        crops[k], labels[k] = crop.astype(np.uint8), label
    return crops, labels


def _tables(job: tuple[int, int, int]) -> list[Photo]:
    seed, start, stop = job
    return [rendered_photo(np.random.default_rng([seed, i])) for i in range(start, stop)]


def rendered_tables(count: int, seed: int, workers: int) -> list[Photo]:
    """`count` rendered tables of pip and glyph dice, with each die's box, value and face angle."""
    jobs = [(seed, s, min(s + 50, count)) for s in range(0, count, 50)]
    with get_context("spawn").Pool(workers, initializer=_init, initargs=([], [])) as pool:
        return [photo for part in pool.map(_tables, jobs) for photo in part]


def make_bank(
    photos: list[Photo],
    samples: int,
    size: int,
    seed: int,
    workers: int,
    real: list[RealCrop] | None = None,
    real_share: float = 0.0,
) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.int64]]:
    """`samples` crops (N×3×size×size uint8) and their classes; `real_share` of them cut from `real`."""
    step = 2000
    jobs = [(seed, s, min(s + step, samples), size, real_share) for s in range(0, samples, step)]
    with get_context("spawn").Pool(workers, initializer=_init, initargs=(photos, real or [])) as pool:
        parts = pool.map(_chunk, jobs)
    return np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])


def cached_bank(
    cache: Path, photos: list[Photo], samples: int, size: int, seed: int, workers: int
) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.int64]]:
    """The bank for these settings, from `cache` if a run already made it."""
    path = cache / f"classifier-bank-{samples}-{size}-{seed}.npz"
    if path.exists():
        with np.load(path) as saved:
            return saved["crops"], saved["labels"]
    crops, labels = make_bank(photos, samples, size, seed, workers)
    cache.mkdir(parents=True, exist_ok=True)
    np.savez(path, crops=crops, labels=labels)
    return crops, labels
