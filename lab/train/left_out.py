"""The pip reader on every photo of a real set it never saw: the leave-one-set-out rows.

    python -m lab.train.left_out --tray DIR --webcam DIR --casino DIR [--json]

Each DIR is a model folder (`pip_classifier.*` and `die_detector.*`, e.g. `python -m lab.train.finetune
classifier --leave-out SET ... --export DIR`) that no photo of that set trained or chose, so every photo of
the set is a table it never saw: all of d6-tray (its labels that the photos contradict mended,
`d6_tray_label_faults.csv`; also scored as published), both halves of webcam-red-yellow's scenes, and
casino-crops' three folders, each crop read as the die's box (as `python -m vision eval` reads a crop set).
Scored as `vision eval` scores: die accuracy, dice read at 0.8 or more but wrong, finds asked about; and of
the labelled dice, those asked about (found, read at less than 0.8) and those missed: unlike the finds asked
about, a false find the live table passes over as clutter (a laptop key) is no question about a die.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2

from lab.real_sets import SETS, labelled, shared_datasets
from lab.train.split import LABEL_FAULTS, load_fixes, mended
from vision.dataset import DatasetError, LabelledImage
from vision.evaluate import Scores, match
from vision.images import load_image
from vision.pips import PipReader
from vision.reading import SURE_READ, DiceReading


@dataclass(frozen=True)
class Row:
    """One set read by models that never saw it: its scores (d6-tray's against its mended labels) and, for
    d6-tray, those against its labels as published."""

    name: str
    models: Path
    photos: int
    scores: Scores
    dice_asked: int
    """Labelled dice found but read at less than `SURE_READ`: the players are asked about them."""
    dice_missed: int
    published: Scores | None = None

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"set": self.name, "models": str(self.models), "photos": self.photos}
        if self.published is not None:
            out |= {"labels_mended": LABEL_FAULTS.name, "as_published": self.published.to_json()}
        dice = max(self.scores.labelled, 1)
        shares = {
            "dice_asked": round(self.dice_asked / dice, 4),
            "dice_missed": round(self.dice_missed / dice, 4),
        }
        return out | self.scores.to_json() | shares


def sure_but_wrong(scores: Scores) -> int:
    return scores.sure - scores.sure_right


def scores(items: Sequence[LabelledImage], readings: Sequence[DiceReading]) -> Scores:
    out = Scores()
    for item, reading in zip(items, readings, strict=True):
        out.add(item, reading)
    return out


def asked_and_missed(items: Sequence[LabelledImage], readings: Sequence[DiceReading]) -> tuple[int, int]:
    """How many labelled dice were found but read unsurely, and how many were not found as pip dice."""
    asked = missed = 0
    for item, reading in zip(items, readings, strict=True):
        found = [d for d in reading.dice if d.value is not None]
        where = dict(match([d.box for d in item.dice], [d.box for d in found]))
        missed += len(item.dice) - len(where)
        asked += sum(found[j].confidence < SURE_READ for j in where.values())
    return asked, missed


def row(name: str, models: Path, root: Path) -> Row:
    """The reader in `models` on every photo of the set `name` (each read once, scored against both labels
    for d6-tray)."""
    reader = PipReader(models=models)
    items = labelled(name, "all", root)
    if not items:
        raise DatasetError(f"{root}: no photo of the set {name!r} here")
    read = reader.read_crop if name == "casino" else reader.read
    readings = [read(load_image(item.image)) for item in items]
    if name != "tray":
        return Row(name, models, len(items), scores(items, readings), *asked_and_missed(items, readings))
    fixed = mended(items, load_fixes(LABEL_FAULTS))
    return Row(
        name, models, len(items), scores(fixed, readings), *asked_and_missed(fixed, readings),
        scores(items, readings),
    )  # fmt: skip


def table(rows: list[Row]) -> str:
    lines = [
        "| set left out | photos | dice | die accuracy | read at >= 0.8 but wrong | finds asked about |"
        " dice asked about / missed |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        s = r.scores
        note = f"; {sure_but_wrong(r.published)} as published" if r.published else ""
        lines.append(
            f"| {r.name} | {r.photos} | {s.labelled} | {s.right_value / max(s.labelled, 1):.2%} |"
            f" {sure_but_wrong(s) / max(s.labelled, 1):.2%} ({sure_but_wrong(s)}{note}) |"
            f" {(s.found - s.sure) / max(s.found, 1):.1%} |"
            f" {r.dice_asked / max(s.labelled, 1):.1%} / {r.dice_missed / max(s.labelled, 1):.1%} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m lab.train.left_out",
        description=__doc__.split("\n\n")[0] if __doc__ else None,
    )
    for name in SETS:
        parser.add_argument(f"--{name}", type=Path, metavar="DIR", help=f"models trained without {name}")
    parser.add_argument("--data", type=Path, help="the folder of the real sets (default: ../shared/datasets)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    chosen = [(name, getattr(args, name)) for name in SETS if getattr(args, name)]
    if not chosen:
        parser.error("give at least one set's models: --tray DIR, --webcam DIR or --casino DIR")
    cv2.setNumThreads(1)
    try:
        rows = [row(name, models, args.data or shared_datasets()) for name, models in chosen]
    except DatasetError as err:  # the sets are not shipped: a clone without ../shared has none
        parser.error(str(err))
    print(json.dumps([r.to_json() for r in rows], indent=1) if args.json else table(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
