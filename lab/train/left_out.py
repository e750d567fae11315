"""The pip reader on every photo of a real set it never saw: the leave-one-set-out rows.

    python -m lab.train.left_out --tray DIR --webcam DIR --casino DIR [--json]

Each DIR is a model folder (`pip_classifier.*` and `die_detector.*`, e.g. `python -m lab.train.finetune
classifier --leave-out SET ... --export DIR`) that no photo of that set trained or chose, so every photo of
the set is a table it never saw: all of d6-tray, both halves of webcam-red-yellow's scenes, and casino-crops'
three folders, each crop read as the die's box (as `python -m vision eval` reads a crop set). d6-tray and
casino-crops are scored against their labels with those the photos contradict mended
(`d6_tray_label_faults.csv`, `casino_label_faults.csv`), and as published.
Scored as `vision eval` scores: die accuracy, dice read at 0.8 or more but wrong, finds asked about; and of
the labelled dice, those asked about (found, read at less than 0.8) and those missed: unlike the finds asked
about, a false find the live table passes over as clutter (a laptop key) is no question about a die.
Then what the live table makes of the same readings: settling (`vision.settle.kept`) leaves out the dice
read under its floor but for those the detector found surely, and a die left out is missed there.
Then the same of each quarter of the labelled dice by the lightness of their bodies, darkest first: what kind
of die a table never seen costs.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from lab.real_sets import FAULTS, SETS, published, shared_datasets, with_faults_mended
from vision.colour import body_labs
from vision.dataset import DatasetError
from vision.evaluate import DieOutcome, Scores, score
from vision.images import load_image
from vision.pips import PipReader
from vision.reading import DiceReading
from vision.settle import SettleSettings, kept

LIGHTNESS_PARTS = 4


@dataclass(frozen=True)
class Part:
    """Labelled dice of a lightness band (Lab L of their bodies, 0 black to 100 white) as read. Its sure but
    wrong are of these dice only: a false find has no body of a labelled die, so unlike the row's figure it
    counts in no band."""

    low: float
    high: float
    outcomes: tuple[DieOutcome, ...]

    def shares(self) -> dict[str, float]:
        dice = max(len(self.outcomes), 1)
        return {
            "die_accuracy": round(sum(o.right for o in self.outcomes) / dice, 4),
            "dice_asked": round(sum(o.asked for o in self.outcomes) / dice, 4),
            "sure_but_wrong": round(sum(o.sure_wrong for o in self.outcomes) / dice, 4),
            "dice_missed": round(sum(o.read is None for o in self.outcomes) / dice, 4),
        }

    def to_json(self) -> dict[str, object]:
        return {
            "lightness": [round(self.low, 1), round(self.high, 1)],
            "dice": len(self.outcomes),
        } | self.shares()


def by_lightness(
    outcomes: list[DieOutcome], lightness: list[float], parts: int = LIGHTNESS_PARTS
) -> list[Part]:
    """The dice in `parts` groups of (nearly) one size by the lightness of their bodies, darkest first."""
    light = np.asarray(lightness, np.float64)
    groups = np.array_split(np.argsort(light, kind="stable"), parts)
    return [
        Part(float(light[g].min()), float(light[g].max()), tuple(outcomes[i] for i in g.tolist()))
        for g in groups
        if len(g)
    ]


@dataclass(frozen=True)
class Row:
    """One set read by models that never saw it: its scores (against its mended labels where some are) and,
    for a set with labels mended, those against its labels as published."""

    name: str
    models: Path
    photos: int
    scores: Scores
    lightness: tuple[float, ...]
    """Of each labelled die (in the order of `scores.outcomes`), its body's lightness."""
    published: Scores | None = None
    at_table: Scores | None = None
    """The readings as settling keeps them (`vision.settle.kept`), against the mended labels."""

    def parts(self) -> list[Part]:
        return by_lightness(self.scores.outcomes, list(self.lightness))

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"set": self.name, "models": str(self.models), "photos": self.photos}
        if self.published is not None:
            out |= {"labels_mended": FAULTS[self.name].name, "as_published": self.published.to_json()}
        own = _shares(self.scores)
        shares = {key: own[key] for key in ("dice_asked", "dice_missed")}
        table = {"at_table": _shares(self.at_table)} if self.at_table is not None else {}
        return (
            out
            | self.scores.to_json()
            | shares
            | table
            | {"by_lightness": [p.to_json() for p in self.parts()]}
        )


def _shares(s: Scores) -> dict[str, float]:
    """Of the labelled dice: right, read surely but wrong, asked about, missed."""
    dice = max(s.labelled, 1)
    return {
        "die_accuracy": round(s.right_value / dice, 4),
        "sure_but_wrong": round(s.sure_wrong() / dice, 4),
        "dice_asked": round(s.asked_dice / dice, 4),
        "dice_missed": round((s.labelled - s.matched) / dice, 4),
    }


def row(name: str, models: Path, root: Path) -> Row:
    """The reader in `models` on every photo of the set `name` (each read once, scored against both labels
    where some are mended)."""
    reader = PipReader(models=models)
    items = published(name, "all", root)
    if not items:
        raise DatasetError(f"{root}: no photo of the set {name!r} here")
    read = reader.read_crop if name == "casino" else reader.read
    scored = with_faults_mended(name, items)
    readings: list[DiceReading] = []
    lightness: list[float] = []
    for item, own in zip(items, scored, strict=True):
        image = load_image(item.image)
        readings.append(read(image))
        lightness.extend(float(lab[0]) for lab in body_labs(image, [d.box for d in own.dice]))
    as_published = score(items, readings) if name in FAULTS else None
    at_table = score(scored, [kept(r, SettleSettings()) for r in readings])
    return Row(name, models, len(items), score(scored, readings), tuple(lightness), as_published, at_table)


def table(rows: list[Row]) -> str:
    lines = [
        "| set left out | photos | dice | die accuracy | read at >= 0.8 but wrong | finds asked about |"
        " dice asked about / missed |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        s = r.scores
        dice = max(s.labelled, 1)
        note = f"; {r.published.sure_wrong()} as published" if r.published else ""
        lines.append(
            f"| {r.name} | {r.photos} | {s.labelled} | {s.right_value / dice:.2%} |"
            f" {s.sure_wrong() / dice:.2%} ({s.sure_wrong()}{note}) |"
            f" {(s.found - s.sure) / max(s.found, 1):.1%} |"
            f" {s.asked_dice / dice:.1%} / {(s.labelled - s.matched) / dice:.1%} |"
        )
    lines += [
        "",
        "| set left out | at the table: die accuracy | read at >= 0.8 but wrong |"
        " dice asked about / missed |",
        "|---|---|---|---|",
    ]
    for r in rows:
        if r.at_table is not None:
            j = _shares(r.at_table)
            lines.append(
                f"| {r.name} | {j['die_accuracy']:.2%} | {j['sure_but_wrong']:.2%} |"
                f" {j['dice_asked']:.1%} / {j['dice_missed']:.1%} |"
            )
    lines += [
        "",
        "| set left out | body lightness (L) | dice | die accuracy | dice asked about |"
        " read at >= 0.8 but wrong | missed |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        for part in r.parts():
            j = part.shares()
            lines.append(
                f"| {r.name} | {part.low:.0f}-{part.high:.0f} | {len(part.outcomes)} |"
                f" {j['die_accuracy']:.1%} | {j['dice_asked']:.1%} | {j['sure_but_wrong']:.2%} |"
                f" {j['dice_missed']:.1%} |"
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
