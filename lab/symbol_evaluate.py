"""Measure symbol-dice reading on rendered tables: teach each icon set, read its tables and the others'.

`python -m lab.symbol_evaluate [--tables N] [--seed S] [--boxes truth|detector] [--untaught]` prints, per
icon set, the share of dice read right (face and rotation), unknown and wrong, and the share of other sets'
dice reported unknown. With `--boxes detector` the one reader reads each whole table, as it reads a camera's
frame: a die it does not find is missed, one it takes for a pip die is counted apart. `--untaught` also
reads the set's own tables once per face with a profile that lacks it, as `lab.symbol_real` does real dice:
the share of that face's dice named no face (a face never taught is often a near copy of a taught one).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from functools import cache

import numpy as np

from vision.detect import box_array, overlaps
from vision.reader import DiceReader
from vision.reading import UNKNOWN
from vision.simulated_table.symbol_art import (
    ICON_SETS,
    SymbolPainter,
    symbol_table,
    teaching_photos,
    true_rotation,
)
from vision.symbols.matcher import FaceMatcher
from vision.symbols.profile import SymbolProfile
from vision.symbols.teach import TeachingPhoto, teach

ALL_COLOURS = ("white", "black", "red", "yellow", "blue", "green")
COLOURS: dict[str, tuple[str, ...]] = {"carcassonne": ("white", "yellow")}
"""Dice colours read per set. Carcassonne dice are light with dark cities: a dark die whose art covers most
of its rim has no colour that is clearly its body."""
TOLERANCE = 53.0
"""A read rotation is right within 45° of the true angle, plus 8° either way where 0/90 is a coin toss."""


@cache
def taught_profile(name: str, seed: int = 1, per_face: int = 4) -> SymbolProfile:
    """A profile taught from rendered photos (white die, plain tables) of one icon set; taught once."""
    photos = teaching_photos(SymbolPainter(ICON_SETS[name]), np.random.default_rng(seed), per_face)
    flat = [TeachingPhoto(label, f"{j}.png", im) for label, ims in photos.items() for j, im in enumerate(ims)]
    return teach(flat, warn=lambda _: None)


def angle_off(a: float, b: float) -> float:
    return abs((a - b + 180) % 360 - 180)


OUTCOMES = ("right", "unknown", "wrong", "pip", "missed")


def outcomes(
    profile: SymbolProfile,
    dice_set: str,
    tables: int,
    seed: int,
    colors: tuple[str, ...] | None = None,
    detector: bool = False,
    only: str | None = None,
) -> list[str]:
    """Per die on rendered tables of `dice_set`: "right", "unknown", "wrong" (face, or rotation).

    By default the matcher reads each die in its true box. With `detector`, the one reader reads the whole
    table (`vision.reader.DiceReader`): a die it does not find (no read die covers it by half) is "missed",
    one it reads as a pip die "pip". With `only`, the dice showing that face alone are counted."""
    painter = SymbolPainter(ICON_SETS[dice_set])
    rng = np.random.default_rng(seed)
    body_colours: tuple[str, ...] = colors if colors else COLOURS.get(dice_set, ALL_COLOURS)
    matcher = FaceMatcher(profile)
    reader = _reader(profile) if detector else None
    out = []
    for _ in range(tables):
        scene = symbol_table(painter, rng, colors=body_colours)
        truth = [d.box for d in scene.dice]
        if reader is None:
            dice: list[tuple[str | None, int | None]] = [
                (r.face, r.rotation) for r in matcher.read(scene.image, truth)
            ]
            match = np.eye(len(truth))
        else:
            read = reader.read(scene.image).dice
            dice = [(d.face if d.kind == "symbol" else "pip", d.rotation) for d in read]
            match = (
                overlaps(box_array(truth), box_array([d.box for d in read]))
                if read
                else np.zeros((len(truth), 0))
            )
        for k, die in enumerate(scene.dice):
            if only is not None and die.label != only:
                continue
            if not match.shape[1] or match[k].max() < 0.5:
                out.append("missed")
                continue
            face, rotation = dice[int(match[k].argmax())]
            if face in (UNKNOWN, "pip"):
                out.append(str(face))
            elif face == die.label and angle_off(float(rotation or 0), true_rotation(die)) <= TOLERANCE:
                out.append("right")
            else:
                out.append("wrong")
    return out


def _reader(profile: SymbolProfile) -> DiceReader:
    from vision.pips import default_reader

    return DiceReader(default_reader(), profile)


def untaught_unnamed(profile: SymbolProfile, name: str, tables: int, seed: int, detector: bool) -> float:
    """The share of a face's dice on the set's own tables (`outcomes`' of the same seed) that a profile
    without that face names no face, over every face."""
    named = total = 0
    for face in profile.faces:
        read = outcomes(profile.without(face.label), name, tables, seed, detector=detector, only=face.label)
        named += read.count("wrong")
        total += len(read) - read.count("missed")
    return 1 - named / max(total, 1)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m lab.symbol_evaluate", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument(
        "--untaught", action="store_true", help="each face left out of the profile in turn: its dice unnamed"
    )
    parser.add_argument("--tables", type=int, default=20, help="rendered tables (9 dice each) per icon set")
    parser.add_argument("--seed", type=int, default=100)
    parser.add_argument(
        "--boxes",
        choices=("truth", "detector"),
        default="truth",
        help="read each die in its true box, or the whole table with the one reader (the detector's boxes)",
    )
    args = parser.parse_args(argv)
    detector = args.boxes == "detector"
    for i, name in enumerate(sorted(ICON_SETS)):
        start = time.perf_counter()
        profile = taught_profile(name)
        own = outcomes(profile, name, args.tables, args.seed + i, detector=detector)
        others = [
            r
            for j, other in enumerate(sorted(ICON_SETS))
            if other != name
            for r in outcomes(profile, other, args.tables // 2, args.seed + 10 + j, detector=detector)
        ]
        n, m = len(own), len(others)
        thresholds = [f.threshold for f in profile.faces]
        right, unknown, wrong, pip, missed = (own.count(k) / n for k in OUTCOMES)
        rejected = (others.count("unknown") + others.count("pip")) / max(1, m - others.count("missed"))
        untaught = ""
        if args.untaught:
            share = untaught_unnamed(profile, name, args.tables, args.seed + i, detector)
            untaught = f"; a face never taught named no face: {share:6.1%}"
        print(
            f"{name:12s} own dice: {right:6.1%} right, {unknown:5.1%} unknown, {wrong:5.1%} wrong,"
            f" {pip:5.1%} read as pip dice, {missed:5.1%} missed (n={n});"
            f" other sets' dice unknown or pips: {rejected:6.1%} (n={m});"
            f" thresholds {min(thresholds):.2f}..{max(thresholds):.2f}{untaught}"
            f" [{time.perf_counter() - start:.0f} s]"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
