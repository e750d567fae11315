"""Labelled photo sets on disk: `images/NAME.jpg` with YOLO-style `labels/NAME.txt` (`value cx cy w h`), or
crops of single dice sorted by value (`1/`, ..., `6/`)."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from vision.images import ImageError, image_files, load_image
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
        if not (0 <= cx <= 1 and 0 <= cy <= 1 and 0 < w <= 1 and 0 < h <= 1):  # NaN fails every comparison
            raise DatasetError(
                f"{where}:{n}: expected 'value cx cy w h' with cx, cy 0-1 and w, h above 0 up to 1 "
                f"(fractions of the image), got {line!r}"
            )
        box = Box((cx - w / 2) * width, (cy - h / 2) * height, (cx + w / 2) * width, (cy + h / 2) * height)
        dice.append(LabelledDie(value, box))
    return tuple(dice)


def label_line(value: int, box: Box, width: int, height: int) -> str:
    """The label file line (`value cx cy w h`, fractions of the image) that `parse_labels` reads back."""
    return (
        f"{value} {(box.x0 + box.x1) / 2 / width:.6f} {(box.y0 + box.y1) / 2 / height:.6f} "
        f"{box.width / width:.6f} {box.height / height:.6f}"
    )


Refuse = Callable[[str], None]
"""Told why an image of a set cannot be used (the message names it); the image is left out and the rest
loaded. Without one, such an image is a `DatasetError`: a training run must not quietly lose photos."""


def load_set(root: Path, split: str = "all", refuse: Refuse | None = None) -> list[LabelledImage]:
    """Every image of a set with its dice in pixels; an image without a label file has no dice.

    `split` picks "all" images, only the "held-out" ones (`is_held_out`), or only the "train" ones.
    """
    images, labels = root / "images", root / "labels"
    if not images.is_dir():
        raise DatasetError(f"{root}: no images/ folder")
    if not labels.is_dir():  # else every photo would count as one without dice, and every die as a false find
        raise DatasetError(
            f"{root}: no labels/ folder (labels/NAME.txt for images/NAME.jpg, a 'value cx cy w h' line a die)"
        )
    if split not in SPLITS:
        raise DatasetError(f"split must be one of {', '.join(SPLITS)}, not {split!r}")
    out = []
    for path in image_files(images):
        if split != "all" and is_held_out(path.name) != (split == "held-out"):
            continue
        if (size := usable_size(path, refuse)) is None:
            continue
        w, h = size
        label = labels / f"{path.stem}.txt"
        out.append(LabelledImage(path, parse_labels(label_text(label), w, h, str(label)), w, h))
    return out


def usable_size(path: Path, refuse: Refuse | None) -> tuple[int, int] | None:
    """Width and height of the image at `path` as the reader gets it; None, with `refuse` told why, for an
    image it could not read."""
    try:
        image = load_image(path)
    except ImageError as err:
        if refuse is None:
            raise DatasetError(str(err)) from None
        refuse(str(err))
        return None
    h, w = image.shape[:2]
    return w, h


def label_text(label: Path) -> str:
    """The text of a label file; '' where there is none (a photo without dice, as YOLO sets have them)."""
    if not label.exists():
        return ""
    if not label.is_file():
        raise DatasetError(f"{label}: not a file (a label file holds one 'value cx cy w h' line per die)")
    try:
        return label.read_bytes().decode("utf-8-sig")  # a byte-order mark is how some editors save UTF-8
    except OSError as err:
        raise DatasetError(f"{label}: cannot read ({err.strerror or err})") from None
    except UnicodeDecodeError as err:
        raise DatasetError(
            f"{label}: not UTF-8 text (byte 0x{err.object[err.start]:02x}); save it as UTF-8"
        ) from None


VALUE_FOLDERS = tuple(str(v) for v in range(1, 7))


def is_crop_set(root: Path) -> bool:
    """A folder of single-die crops sorted by value (`1/` ... `6/`) rather than photos with labels."""
    return not (root / "images").is_dir() and any((root / v).is_dir() for v in VALUE_FOLDERS)


def load_crop_set(root: Path, refuse: Refuse | None = None) -> list[LabelledImage]:
    """Each crop of `root/1/` ... `root/6/` as an image of one die of that value, its box the whole crop."""
    out = []
    for value in VALUE_FOLDERS:
        if not (root / value).is_dir():
            continue
        for path in image_files(root / value):
            if (size := usable_size(path, refuse)) is None:
                continue
            w, h = size
            out.append(LabelledImage(path, (LabelledDie(int(value), Box(0.0, 0.0, w, h)),), w, h))
    return out
