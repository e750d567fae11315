"""The real photo sets of `shared/datasets` as labelled photos, each split once into a part that may be
trained on and a part kept for measuring (never trained on, never used to choose anything).

- `tray`: d6-tray, top-down phone photos; held out by `vision.dataset.is_held_out` (20%).
- `webcam`: webcam-red-yellow, a webcam at about 45°; scenes held out by `lab.train.webcam` (50%).
- `casino`: casino-crops, translucent dice, one die a crop; `train` + `val` may be trained on, `test` is kept.
  A crop is laid on a table of its own border's colour eight times its size, so that it is a photo of a die
  alone rather than a die filling the frame (the detector knows dice of a frame's 1/30 to 1/5,
  and a frame of less than 384 pixels is scaled up).
"""

from __future__ import annotations

from pathlib import Path

from lab.train.split import CASINO_LABEL_FAULTS, LABEL_FAULTS, load_fixes, mended
from lab.train.webcam import labelled_scenes, scene_held_out
from vision.dataset import LabelledDie, LabelledImage, load_crop_set, load_set
from vision.images import load_image
from vision.one_die import on_table
from vision.reading import Box, Image

SETS = ("tray", "webcam", "casino")
PARTS = ("train", "measure", "all")
CROP_TABLE = 8
"""A casino crop is laid on a table this many times its size."""
FAULTS = {"tray": LABEL_FAULTS, "casino": CASINO_LABEL_FAULTS}
"""Per set, the file of its labels that its photos contradict."""


def shared_datasets() -> Path:
    """`shared/datasets` beside the checkout (the lab's, never the installed program's)."""
    return Path(__file__).resolve().parents[2] / "shared" / "datasets"


def labelled(
    name: str, part: str, root: Path | None = None, as_published: bool = False
) -> list[LabelledImage]:
    """The labelled photos of one part ("train", "measure" or "all") of one set, with the labels its photos
    contradict mended (`FAULTS`) unless `as_published`."""
    items = published(name, part, root or shared_datasets())
    return items if as_published else with_faults_mended(name, items)


def with_faults_mended(name: str, items: list[LabelledImage]) -> list[LabelledImage]:
    """A set's photos as `published` gives them, with the labels its photos contradict mended (`FAULTS`)."""
    return mended(items, load_fixes(FAULTS[name])) if name in FAULTS else items


def published(name: str, part: str, root: Path) -> list[LabelledImage]:
    """The labelled photos of one part of one set, labelled as the set was published."""
    if name == "tray":
        return load_set(root / "d6-tray", {"measure": "held-out", "train": "train"}.get(part, "all"))
    if name == "webcam":
        scenes = labelled_scenes(root / "webcam-red-yellow")
        return [s for s in scenes if part == "all" or scene_held_out(s) == (part == "measure")]
    if name == "casino":
        folders = {"measure": ("test",), "train": ("train", "val")}.get(part, ("test", "val", "train"))
        return [item for f in folders for item in load_crop_set(root / "casino-crops" / f)]
    raise ValueError(f"no real set {name!r} (sets: {', '.join(SETS)})")


def photo(item: LabelledImage) -> tuple[Image, tuple[LabelledDie, ...]]:
    """The photo and its dice as a reader sees them (a crop of one die laid on a table of its border)."""
    image = load_image(item.image)
    if len(item.dice) != 1 or item.dice[0].box != Box(0.0, 0.0, item.width, item.height):
        return image, item.dice
    table, (x, y) = on_table(image, CROP_TABLE)
    die = Box(float(x), float(y), float(x + item.width), float(y + item.height))
    return table, (LabelledDie(item.dice[0].value, die),)
