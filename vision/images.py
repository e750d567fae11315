"""Image files to BGR frames, with one clear error per bad file (never a traceback, never a silent skip)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from vision.reading import Image

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff")

MAX_PIXELS = 40_000_000
"""Larger images are refused: a 40-megapixel frame is already far past any webcam, and decoding a
decompression bomb would take the whole machine's memory."""


class ImageError(ValueError):
    """A file that cannot be used as a frame; the message names the file and says why."""


def image_files(folder: Path) -> list[Path]:
    """The image files of a folder, sorted by name (other files are not frames)."""
    return sorted(p for p in folder.iterdir() if p.is_file() and p.suffix.lower() in IMAGE_SUFFIXES)


def expand_paths(paths: list[Path]) -> list[Path]:
    """Files as given and the image files inside folders, in order; a missing path is kept so that reading
    it reports the error in its place."""
    out: list[Path] = []
    for path in paths:
        out += image_files(path) if path.is_dir() else [path]
    return out


def load_image(path: Path) -> Image:
    """The image at `path` as a BGR uint8 array (alpha dropped, grey expanded)."""
    try:
        data = path.read_bytes()
    except OSError as err:
        raise ImageError(f"{path}: cannot read ({err.strerror or err})") from None
    if not data:
        raise ImageError(f"{path}: empty file")
    buf = np.frombuffer(data, np.uint8)
    header = cv2.imdecode(buf, cv2.IMREAD_REDUCED_GRAYSCALE_8)
    if header is None:
        raise ImageError(f"{path}: not an image, or a truncated one")
    if header.size * 64 > MAX_PIXELS:
        raise ImageError(f"{path}: too large (about {header.size * 64 / 1e6:.0f} megapixels; at most 40)")
    image = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    if image is None:
        raise ImageError(f"{path}: not an image, or a truncated one")
    return np.asarray(image, np.uint8)
