"""Write the held-out part of d6-tray (`vision.dataset.is_held_out`) as its own set.

`python -m lab.train.split --data DIR --out SET_DIR` writes the held-out photos as a set for `vision eval`;
with `--fixes` (`d6_tray_label_faults.csv` beside this file) the labels that the photos contradict are
mended in the copy: d6-tray itself is never changed, and `vision eval DIR --split held-out` still measures
against its labels as published. (The faults of training photos in that file are mended where a reader is
measured on every photo of the set: `lab.train.left_out`.)
"""

from __future__ import annotations

import argparse
import csv
import shutil
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from vision.dataset import (
    DatasetError,
    LabelledDie,
    LabelledImage,
    is_held_out,
    label_line,
    load_set,
    parse_labels,
)
from vision.detect import box_array, overlaps
from vision.images import load_image
from vision.reading import Box

LABEL_FAULTS = Path(__file__).with_name("d6_tray_label_faults.csv")
"""d6-tray's labels the photos contradict: every disagreement of the reader on the held-out photos looked at,
and on the others the dice read surely but wrong by a reader that never saw the set."""
CASINO_LABEL_FAULTS = Path(__file__).with_name("casino_label_faults.csv")
"""casino-crops' labels the crops contradict: all 279 crops looked at side by side, by folder (2026-11-30); a
fault's box is its whole crop."""
SAME_DIE = 0.2
"""A labelled box overlapping a mended die this much (intersection over union) is that die's faulty label."""


@dataclass(frozen=True)
class LabelFix:
    """A die as it lies in a photo, and what was wrong with its label (a value, a box, or no label)."""

    image: str
    box: Box
    value: int
    fault: str


def load_fixes(path: Path) -> list[LabelFix]:
    fixes = []
    with path.open(newline="", encoding="utf-8") as file:
        for row_number, row in enumerate(csv.DictReader(file), 2):
            for field in ("image", "x0", "y0", "x1", "y1", "value", "fault"):
                if not row.get(field):
                    raise DatasetError(f"{path}:{row_number}: field {field!r} is empty")
            try:
                box = Box(*(float(row[k]) for k in ("x0", "y0", "x1", "y1")))
                value = int(row["value"])
            except ValueError as err:
                raise DatasetError(f"{path}:{row_number}: box and value must be numbers ({err})") from err
            if not 1 <= value <= 6:
                raise DatasetError(f"{path}:{row_number}: field 'value' must be 1-6, not {value}")
            if box.x1 <= box.x0 or box.y1 <= box.y0:
                raise DatasetError(f"{path}:{row_number}: fields 'x0'..'y1' give an empty box")
            fixes.append(LabelFix(row["image"], box, value, row["fault"]))
    return fixes


def untouched(dice: Sequence[LabelledDie], fixes: Sequence[LabelFix]) -> list[bool]:
    """For each labelled die, whether no fix lies on it (its label stays)."""
    if not fixes or not dice:
        return [True] * len(dice)
    overlap = overlaps(box_array([d.box for d in dice]), box_array([f.box for f in fixes]))
    return [bool(row.max() < SAME_DIE) for row in overlap]


def mend(labels: str, fixes: Sequence[LabelFix], width: int, height: int) -> str:
    """Label text with each fixed die in place of the labels on it (if any)."""
    dice = parse_labels(labels, width, height, "labels")
    lines = [line for line in labels.splitlines() if line.strip()]
    lines = [line for line, keep in zip(lines, untouched(dice, fixes), strict=True) if keep]
    lines += [label_line(f.value, f.box, width, height) for f in fixes]
    return "".join(f"{line}\n" for line in lines)


def mended(items: Sequence[LabelledImage], fixes: Sequence[LabelFix]) -> list[LabelledImage]:
    """The photos with each fixed die in place of the labels on it, as `mend` writes them."""
    out = []
    for item in items:
        own = [f for f in fixes if f.image == item.image.name]
        kept = [d for d, keep in zip(item.dice, untouched(item.dice, own), strict=True) if keep]
        out.append(replace(item, dice=(*kept, *(LabelledDie(f.value, f.box) for f in own))))
    return out


def training_part(data: Path) -> list[LabelledImage]:
    """d6-tray's photos that may be trained on, with the labels their photos contradict mended."""
    return mended(load_set(data, "train"), load_fixes(LABEL_FAULTS))


def write_held_out(data: Path, out: Path, fixes: Sequence[LabelFix] = ()) -> list[str]:
    """The held-out photos of `data` and their labels, those of `fixes` mended, written to `out`."""
    names = sorted(p.name for p in (data / "images").iterdir() if is_held_out(p.name))
    (out / "images").mkdir(parents=True, exist_ok=True)
    (out / "labels").mkdir(parents=True, exist_ok=True)
    for name in names:
        shutil.copy2(data / "images" / name, out / "images" / name)
        label = data / "labels" / f"{Path(name).stem}.txt"
        text = label.read_text(encoding="utf-8") if label.is_file() else ""
        own = [f for f in fixes if f.image == name]
        if own:
            height, width = load_image(data / "images" / name).shape[:2]
            text = mend(text, own, width, height)
        if text or label.is_file():
            (out / "labels" / label.name).write_text(text, encoding="utf-8")
    return names


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m lab.train.split",
        description="Write the held-out part of d6-tray as a set for `vision eval`.",
    )
    parser.add_argument(
        "--data", type=Path, default=Path("../shared/datasets/d6-tray"), help="d6-tray folder"
    )
    parser.add_argument("--out", type=Path, required=True, help="folder to write images/ and labels/ into")
    parser.add_argument(
        "--fixes", nargs="?", type=Path, const=LABEL_FAULTS, help="mend the labels listed in this CSV "
        f"(default: {LABEL_FAULTS.name}) in the copy",
    )  # fmt: skip
    args = parser.parse_args(argv)
    if not (args.data / "images").is_dir():
        # The set is not shipped (its licence and size keep it apart): a traceback named no way to get it.
        parser.error(
            f"{args.data}: no d6-tray set here (images/ and labels/); give --data the folder of d6-tray"
            " (nell-byler/dice_detection, BSD 3-Clause)"
        )
    fixes = load_fixes(args.fixes) if args.fixes else []
    names = write_held_out(args.data, args.out, fixes)
    print(f"{len(names)} held-out photos written to {args.out}, {sum(f.image in names for f in fixes)} labels"
          " mended")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
