"""Measure the pip reader on a labelled set or on rendered tables: recall, precision, value and die accuracy,
confusion matrix."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from vision.dataset import LabelledDie, LabelledImage
from vision.detect import box_array, overlaps
from vision.images import load_image
from vision.reading import SURE_READ, Box, DiceReading, Image
from vision.simulated_table.scene import random_scene

MATCH_IOU = 0.3
"""A read die counts as a labelled one when their boxes overlap at least this much (intersection over union);
labelled boxes are hand-drawn, so a looser bar than detection benchmarks' 0.5 is fairer to a right reading."""

MISSED = 0
"""Confusion-matrix column for a labelled die that was not found (columns 1-6 are the values read)."""


def match(truth: Sequence[Box], found: Sequence[Box]) -> list[tuple[int, int]]:
    """Pairs (truth index, found index), greedily by overlap, each die used at most once."""
    overlap = overlaps(box_array(truth), box_array(found)).tolist()
    pairs = sorted(
        ((overlap[i][j], i, j) for i in range(len(truth)) for j in range(len(found))), reverse=True
    )
    used_t: set[int] = set()
    used_f: set[int] = set()
    out = []
    for overlap, i, j in pairs:
        if overlap < MATCH_IOU:
            break
        if i not in used_t and j not in used_f:
            used_t.add(i)
            used_f.add(j)
            out.append((i, j))
    return out


@dataclass(frozen=True)
class DieOutcome:
    """One labelled die as read: its value, the value read on it (None: not found) and how surely."""

    value: int
    read: int | None
    confidence: float

    @property
    def right(self) -> bool:
        return self.read == self.value

    @property
    def asked(self) -> bool:
        return self.read is not None and self.confidence < SURE_READ

    @property
    def sure_wrong(self) -> bool:
        return self.read is not None and self.confidence >= SURE_READ and not self.right


@dataclass
class Scores:
    images: int = 0
    labelled: int = 0
    found: int = 0
    matched: int = 0
    right_value: int = 0
    fully_right_images: int = 0
    sure: int = 0
    """Dice read (pip values, found or false) at `SURE_READ` or more."""
    sure_right: int = 0
    """Of those, the ones on a labelled die with its value."""
    confusion: list[list[int]] = field(default_factory=lambda: [[0] * 7 for _ in range(7)])
    """Rows: true value 1-6 (row 0 unused: false finds are counted in `found - matched`); columns: value read,
    column 0 = missed."""
    outcomes: list[DieOutcome] = field(default_factory=list)
    """Each labelled die as read, in the order of the photos and of their labels: what kind of die a reader
    fails on (`lab.train.left_out`'s lightness breakdown)."""

    def add(self, item: LabelledImage, reading: DiceReading) -> None:
        found = [d for d in reading.dice if d.value is not None]
        pairs = match([d.box for d in item.dice], [d.box for d in found])
        read = {i: found[j] for i, j in pairs}
        outcomes = [
            DieOutcome(die.value, on.value, on.confidence)
            if (on := read.get(i))
            else DieOutcome(die.value, None, 0.0)
            for i, die in enumerate(item.dice)
        ]
        for o in outcomes:
            self.confusion[o.value][o.read or MISSED] += 1
        right = sum(o.right for o in outcomes)
        self.sure_right += sum(o.right and o.confidence >= SURE_READ for o in outcomes)
        self.sure += sum(d.confidence >= SURE_READ for d in found)
        self.outcomes += outcomes
        self.images += 1
        self.labelled += len(item.dice)
        self.found += len(found)
        self.matched += len(pairs)
        self.right_value += right
        self.fully_right_images += right == len(item.dice) == len(found)

    @property
    def asked_dice(self) -> int:
        """Labelled dice found but read at less than `SURE_READ`: the players are asked about them (unlike
        `sure`, false finds do not count: the live table passes unsure ones over as clutter)."""
        return sum(o.asked for o in self.outcomes)

    def sure_wrong(self) -> int:
        """Dice read at `SURE_READ` or more but wrong (false finds among them)."""
        return self.sure - self.sure_right

    def to_json(self) -> dict[str, object]:
        """The counts and shares; a share of nothing (recall with no labelled die) is None, not 100%."""

        def share(a: int, b: int) -> float | None:
            return round(a / b, 4) if b else None

        return {
            "images": self.images,
            "labelled_dice": self.labelled,
            "found_dice": self.found,
            "recall": share(self.matched, self.labelled),
            "precision": share(self.matched, self.found),
            "value_accuracy": share(self.right_value, self.matched),
            "die_accuracy": share(self.right_value, self.labelled),
            "fully_right_images": share(self.fully_right_images, self.images),
            "sure_read": SURE_READ,
            "sure_right": share(self.sure_right, self.sure),
            "sure_but_wrong": share(self.sure_wrong(), self.labelled),
            "asked": share(self.found - self.sure, self.found),
            "confusion": {
                "rows": "true value 1-6",
                "columns": ["missed", "1", "2", "3", "4", "5", "6"],
                "counts": self.confusion[1:],
            },
        }


def evaluate(items: Sequence[LabelledImage], read: Callable[[Image], DiceReading]) -> Scores:
    return score(items, (read(load_image(item.image)) for item in items))


def score(items: Sequence[LabelledImage], readings: Iterable[DiceReading]) -> Scores:
    """The readings of the labelled photos, in their order, scored against their labels."""
    scores = Scores()
    for item, reading in zip(items, readings, strict=True):
        scores.add(item, reading)
    return scores


def evaluate_rendered(read: Callable[[Image], DiceReading], tables: int, seed: int) -> Scores:
    """The reader on rendered tables (`random_scene` with seeds `seed`, `seed + 1`, ...), scored against the
    renderer's truth as against a labelled set."""
    scores = Scores()
    for n in range(seed, seed + tables):
        scene = random_scene(np.random.default_rng(n))
        h, w = scene.image.shape[:2]
        dice = tuple(LabelledDie(d.value, d.box) for d in scene.dice if d.value is not None)
        scores.add(LabelledImage(Path(f"rendered table {n}"), dice, w, h), read(scene.image))
    return scores


def percent(share: object) -> str:
    """A share as a percentage; "-" where it is a share of nothing (None: no die read, none found)."""
    return "-" if share is None else f"{share:.2%}"


def format_scores(s: dict[str, object]) -> str:
    head = f"images {s['images']}, labelled dice {s['labelled_dice']}, dice read {s['found_dice']}"
    if not s["labelled_dice"]:  # recall, accuracy and the confusion matrix would all be shares of nothing
        return f"{head}\nno labelled dice: no recall or accuracy to measure (the labels give no die here)"
    lines = [
        head,
        f"recall {percent(s['recall'])}  precision {percent(s['precision'])}  "
        f"value accuracy {percent(s['value_accuracy'])}",
        f"die accuracy {percent(s['die_accuracy'])}  fully right images {percent(s['fully_right_images'])}",
        f"read at >= {s['sure_read']}: {percent(s['sure_right'])} right; sure but wrong "
        f"{percent(s['sure_but_wrong'])} of the labelled dice; asked {percent(s['asked'])} of the dice read",
        "confusion (rows: true value; columns: missed, read 1-6)",
    ]
    confusion = s["confusion"]
    assert isinstance(confusion, dict)
    for value, row in enumerate(confusion["counts"], 1):
        lines.append(f"  {value}: " + " ".join(f"{n:4d}" for n in row))
    return "\n".join(lines)
