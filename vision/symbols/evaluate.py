"""Measure symbol-dice reading on rendered tables: teach each icon set, read its tables and the others'.

`python -m vision.symbols.evaluate [--tables N] [--seed S]` prints, per icon set, the share of dice read
right (face and rotation), unknown and wrong, and the share of other sets' dice reported unknown.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from functools import cache

import numpy as np

from calibration.faces import TeachingPhoto, teach
from vision.render.symbol_art import ICON_SETS, SymbolPainter, symbol_table, teaching_photos, true_rotation
from vision.symbols.matcher import UNKNOWN, FaceMatcher
from vision.symbols.profile import SymbolProfile

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


def outcomes(
    profile: SymbolProfile, dice_set: str, tables: int, seed: int, colors: tuple[str, ...] | None = None
) -> list[str]:
    """Per die on rendered tables of `dice_set`: "right", "unknown" or "wrong" (face, or rotation)."""
    matcher = FaceMatcher(profile)
    painter = SymbolPainter(ICON_SETS[dice_set])
    rng = np.random.default_rng(seed)
    body_colours: tuple[str, ...] = colors if colors else COLOURS.get(dice_set, ALL_COLOURS)
    out = []
    for _ in range(tables):
        scene = symbol_table(painter, rng, colors=body_colours)
        for die, read in zip(scene.dice, matcher.read(scene.image, [d.box for d in scene.dice]), strict=True):
            if read.face == UNKNOWN:
                out.append("unknown")
            elif read.face == die.label and angle_off(read.rotation, true_rotation(die)) <= TOLERANCE:
                out.append("right")
            else:
                out.append("wrong")
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m vision.symbols.evaluate", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--tables", type=int, default=20, help="rendered tables (9 dice each) per icon set")
    parser.add_argument("--seed", type=int, default=100)
    args = parser.parse_args(argv)
    for i, name in enumerate(sorted(ICON_SETS)):
        start = time.perf_counter()
        profile = taught_profile(name)
        own = outcomes(profile, name, args.tables, args.seed + i)
        others = [
            r
            for j, other in enumerate(sorted(ICON_SETS))
            if other != name
            for r in outcomes(profile, other, args.tables // 2, args.seed + 10 + j)
        ]
        n, m = len(own), len(others)
        thresholds = [f.threshold for f in profile.faces]
        right, unknown, wrong = (own.count(k) / n for k in ("right", "unknown", "wrong"))
        rejected = others.count("unknown") / m
        print(
            f"{name:12s} own dice: {right:6.1%} right, {unknown:5.1%} unknown, {wrong:5.1%} wrong (n={n});"
            f" other sets' dice unknown: {rejected:6.1%} (n={m});"
            f" thresholds {min(thresholds):.2f}..{max(thresholds):.2f}"
            f" [{time.perf_counter() - start:.0f} s]"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
