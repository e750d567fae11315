"""Labelled photo sets on disk: `images/NAME.jpg` with YOLO-style `labels/NAME.txt` (`value cx cy w h`), or
crops of single dice sorted by value (`1/`, ..., `6/`)."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from vision.images import image_files
from vision.reading import Box

HELD_OUT_PERCENT = 20
"""Share of d6-tray photos kept out of training and threshold tuning, to measure on."""


def is_held_out(name: str, percent: int = HELD_OUT_PERCENT) -> bool:
    """True for photos kept out of training: a stable hash of the file stem, so the split never changes."""
    digest = hashlib.sha256(Path(name).stem.encode()).digest()
    return int.from_bytes(digest[:4], "big") % 100 < percent


SPLITS = ("all", "held-out", "train")


class DatasetError(ValueError):
    """A set directory or label file that does not follow the layout."""


@dataclass(frozen=True)
class LabelledDie:
    value: int
    box: Box


@dataclass(frozen=True)
class LabelledImage:
    image: Path
    dice: tuple[LabelledDie, ...]
    width: int
    height: int


def parse_labels(text: str, width: int, height: int, where: str) -> tuple[LabelledDie, ...]:
    dice = []
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        parts = line.split()
        try:
            value = int(parts[0])
            cx, cy, w, h = (float(x) for x in parts[1:5])
        except (ValueError, IndexError) as err:
            raise DatasetError(f"{where}:{n}: expected 'value cx cy w h', got {line!r}") from err
        if len(parts) != 5 or not 1 <= value <= 6:
            raise DatasetError(f"{where}:{n}: expected 'value cx cy w h' with value 1-6, got {line!r}")
        box = Box((cx - w / 2) * width, (cy - h / 2) * height, (cx + w / 2) * width, (cy + h / 2) * height)
        dice.append(LabelledDie(value, box))
    return tuple(dice)


def label_line(value: int, box: Box, width: int, height: int) -> str:
    """The label file line (`value cx cy w h`, fractions of the image) that `parse_labels` reads back."""
    return (
        f"{value} {(box.x0 + box.x1) / 2 / width:.6f} {(box.y0 + box.y1) / 2 / height:.6f} "
        f"{box.width / width:.6f} {box.height / height:.6f}"
    )


def load_set(root: Path, split: str = "all") -> list[LabelledImage]:
    """Every image of a set with its dice in pixels; an image without a label file has no dice.

    `split` picks "all" images, only the "held-out" ones (`is_held_out`), or only the "train" ones.
    """
    import cv2

    images, labels = root / "images", root / "labels"
    if not images.is_dir():
        raise DatasetError(f"{root}: no images/ folder")
    if split not in SPLITS:
        raise DatasetError(f"split must be one of {', '.join(SPLITS)}, not {split!r}")
    out = []
    for path in image_files(images):
        if split != "all" and is_held_out(path.name) != (split == "held-out"):
            continue
        img = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
        if img is None:
            raise DatasetError(f"{path}: not a readable image")
        label = labels / f"{path.stem}.txt"
        text = label.read_text() if label.is_file() else ""
        h, w = img.shape[:2]
        out.append(LabelledImage(path, parse_labels(text, w, h, str(label)), w, h))
    return out


VALUE_FOLDERS = tuple(str(v) for v in range(1, 7))


def is_crop_set(root: Path) -> bool:
    """A folder of single-die crops sorted by value (`1/` ... `6/`) rather than photos with labels."""
    return not (root / "images").is_dir() and any((root / v).is_dir() for v in VALUE_FOLDERS)


def load_crop_set(root: Path) -> list[LabelledImage]:
    """Each crop of `root/1/` ... `root/6/` as an image of one die of that value, its box the whole crop."""
    import cv2

    out = []
    for value in VALUE_FOLDERS:
        if not (root / value).is_dir():
            continue
        for path in image_files(root / value):
            img = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
            if img is None:
                raise DatasetError(f"{path}: not a readable image")
            h, w = img.shape[:2]
            out.append(LabelledImage(path, (LabelledDie(int(value), Box(0.0, 0.0, w, h)),), w, h))
    return out
