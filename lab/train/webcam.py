"""webcam-red-yellow as a labelled set: its boxed scenes given values by finding its value crops in them.

The dataset boxes every die of 49 scenes without a value, and sorts 151 crops by value; a crop is a plain cut
of the scene its name gives (`SCENE-die-K.jpg`), so matching it back into the photo gives the box under it its
value (`labels.csv` of `die_detection_and_classification` gives a few more). Scenes are held out by a stable
hash of their name (`is_held_out(name, HELD_OUT_PERCENT)`), and so are the crops cut from them:

    python -m lab.train.webcam --data ../shared/datasets/webcam-red-yellow --out SET_DIR [--split train]

writes the held-out scenes whose every die has a value as a set for `python -m vision eval SET_DIR`.
"""

from __future__ import annotations

import argparse
import csv
import shutil
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.dataset import DatasetError, LabelledDie, LabelledImage, is_held_out, label_line
from vision.detect import box_array, overlaps
from vision.images import image_files, load_image
from vision.reading import Box, Image

HELD_OUT_PERCENT = 50
"""Half of the scenes are kept for measuring: with two dice a scene, a fifth would be twenty dice."""
VALUE_NAMES = ("one", "two", "three", "four", "five", "six")
MATCHED = 0.02
"""A crop is found in its scene when the normalised squared difference at the best place is below this (a
plain cut gives about 0.001; JPEG recompression of the crop keeps it far from a wrong place's 0.2+)."""
SAME_DIE = 0.3


@dataclass(frozen=True)
class ValueCrop:
    path: Path
    scene: str
    value: int

    @property
    def held_out(self) -> bool:
        return is_held_out(self.scene, HELD_OUT_PERCENT)


def value_crops(data: Path) -> list[ValueCrop]:
    """Every crop of `die_classification/training/{one..six}/`, with its scene's name and value."""
    crops = []
    for value, name in enumerate(VALUE_NAMES, 1):
        folder = data / "die_classification" / "training" / name
        for path in image_files(folder) if folder.is_dir() else []:
            crops.append(ValueCrop(path, path.stem.rsplit("-die-", 1)[0], value))
    return crops


def voc_boxes(xml: Path) -> list[Box]:
    boxes = []
    for obj in ET.parse(xml).getroot().iter("object"):
        bnd = obj.find("bndbox")
        if bnd is None:
            raise DatasetError(f"{xml}: an object without bndbox")
        boxes.append(Box(*(float(bnd.findtext(k) or "nan") for k in ("xmin", "ymin", "xmax", "ymax"))))
    return boxes


def find_crop(scene: Image, crop: Image) -> Box | None:
    """Where a plain cut of the scene lies in it, or None if it is not there."""
    if crop.shape[0] > scene.shape[0] or crop.shape[1] > scene.shape[1]:
        return None
    diff = cv2.matchTemplate(scene, crop, cv2.TM_SQDIFF_NORMED)
    low, _, (x, y), _ = cv2.minMaxLoc(diff)
    return Box(x, y, x + crop.shape[1], y + crop.shape[0]) if low < MATCHED else None


def table_values(data: Path) -> dict[str, list[tuple[Box, int]]]:
    """`labels.csv`'s dice by scene name: box as fractions of the image, value."""
    path = data / "die_detection_and_classification" / "labels.csv"
    out: dict[str, list[tuple[Box, int]]] = {}
    if not path.is_file():
        return out
    with path.open(newline="", encoding="utf-8") as file:
        for row in csv.reader(file):
            _, name, value, x0, y0, _, _, x1, y1 = row[:9]
            out.setdefault(Path(name).stem, []).append((Box(*map(float, (x0, y0, x1, y1))), int(value)))
    return out


def labelled_scenes(data: Path) -> list[LabelledImage]:
    """Every boxed scene whose every die got a value from the crops (or `labels.csv`)."""
    crops = value_crops(data)
    table = table_values(data)
    out = []
    for xml in sorted((data / "die_detection").glob("*/*.xml")):
        image_path = xml.with_suffix(".jpg")
        boxes = voc_boxes(xml)
        if not image_path.is_file() or not boxes:
            continue
        scene = load_image(image_path)
        h, w = scene.shape[:2]
        values: list[int | None] = [None] * len(boxes)
        found = [(at, c.value) for c in crops if c.scene == xml.stem
                 if (at := find_crop(scene, load_image(c.path))) is not None]  # fmt: skip
        found += [(Box(b.x0 * w, b.y0 * h, b.x1 * w, b.y1 * h), v) for b, v in table.get(xml.stem, [])]
        if found:
            # A crop holds its die with a margin: the box it overlaps most, if that is a fair share.
            inside = overlaps(box_array([f[0] for f in found]), box_array(boxes))
            for (_, value), row in zip(found, inside, strict=True):
                if row.max() >= SAME_DIE:
                    values[int(np.argmax(row))] = value
        if all(v is not None for v in values):
            dice = tuple(LabelledDie(int(v or 0), b) for v, b in zip(values, boxes, strict=True))
            out.append(LabelledImage(image_path, dice, w, h))
    return out


def scene_held_out(scene: LabelledImage) -> bool:
    """A scene kept for measuring (and with it the crops cut from it)."""
    return is_held_out(scene.image.name, HELD_OUT_PERCENT)


def write_set(data: Path, out: Path, held_out: bool = True) -> list[LabelledImage]:
    """The held-out (or training) labelled scenes as `images/` + `labels/` for `vision eval`."""
    scenes = [s for s in labelled_scenes(data) if scene_held_out(s) == held_out]
    (out / "images").mkdir(parents=True, exist_ok=True)
    (out / "labels").mkdir(parents=True, exist_ok=True)
    for s in scenes:
        shutil.copy2(s.image, out / "images" / s.image.name)
        lines = [label_line(d.value, d.box, s.width, s.height) for d in s.dice]
        (out / "labels" / f"{s.image.stem}.txt").write_text(
            "".join(f"{line}\n" for line in lines), encoding="utf-8"
        )
    return scenes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Write webcam-red-yellow's labelled scenes as a set.")
    parser.add_argument("--data", type=Path, default=Path("../shared/datasets/webcam-red-yellow"))
    parser.add_argument("--out", type=Path, required=True, help="folder to write images/ and labels/ into")
    parser.add_argument("--split", choices=("held-out", "train"), default="held-out")
    args = parser.parse_args(argv)
    scenes = write_set(args.data, args.out, args.split == "held-out")
    dice = sum(len(s.dice) for s in scenes)
    print(f"{len(scenes)} {args.split} scenes ({dice} dice) written to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
