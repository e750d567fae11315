"""How well a photo of a built Carcassonne city reads: random legal cities rendered, read by the reader of
`companion city`, compared with the truth.

    python -m lab.city_evaluate --cities 90 --seed 1

A city is "right" when its layout (cells and black areas, counted from its top-left die) equals the truth and
nothing is asked; "asked" when the layout read is right but a die is asked about (a die the players settle);
"wrong" otherwise (a die missed, misplaced or read as another face with nothing asked).
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter
from collections.abc import Sequence

import numpy as np

from companion.games.carcassonne_dice.city import EDGES, STEP, Areas, Pos, black_of, fit_problem
from companion.live.carcassonne_demo import ROTATIONS, face_areas, taught_dice
from companion.live.city import city_from_grid
from vision.grid import GridError, read_grid
from vision.reader import DiceReader
from vision.simulated_table.city import BuiltDie, city_scene
from vision.simulated_table.symbol_art import CARCASSONNE, SymbolPainter

CITY_FACES = tuple(CARCASSONNE.areas)


def random_city(rng: random.Random, size: int) -> list[BuiltDie]:
    """`size` city dice built one by one beside the others at random, black against black."""
    dice: dict[Pos, BuiltDie] = {}
    black: dict[Pos, int] = {}
    while len(dice) < size:
        label, rotation = rng.choice(CITY_FACES), rng.choice(ROTATIONS)
        edges = black_of(face_areas(label, rotation))
        free = sorted({(r + STEP[e][0], c + STEP[e][1]) for r, c in dice for e in EDGES} - set(dice))
        fits = [at for at in free if not fit_problem(black, at, edges)] if dice else [(0, 0)]
        if fits:
            at = rng.choice(fits)
            dice[at], black[at] = BuiltDie(at, label, rotation), edges
    return list(dice.values())


def from_origin(layout: dict[Pos, Areas]) -> dict[Pos, Areas]:
    if not layout:
        return layout
    r0, c0 = min(r for r, _ in layout), min(c for _, c in layout)
    return {(r - r0, c - c0): areas for (r, c), areas in layout.items()}


def outcome(built: list[BuiltDie], reader: DiceReader, rng: np.random.Generator) -> str:
    scene = city_scene(SymbolPainter(CARCASSONNE), built, rng)
    try:
        read = city_from_grid(read_grid(scene.image, reader))
    except GridError:
        return "wrong"
    truth = from_origin({d.at: face_areas(d.label, d.rotation) for d in built})
    # Counted from the reading's own top-left die, asked ones included: an asked die in the top row must not
    # shift the dice read surely against the truth.
    cells = [*read.layout, *read.knights_at, *read.asked_at]
    r0, c0 = min((r for r, _ in cells), default=0), min((c for _, c in cells), default=0)
    layout = {(r - r0, c - c0): areas for (r, c), areas in read.layout.items()}
    if not read.asked:
        return "right" if layout == truth else "wrong"
    return "asked" if all(truth.get(at) == areas for at, areas in layout.items()) else "wrong"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lab.city_evaluate", description=__doc__.split("\n\n")[0])
    parser.add_argument("--cities", type=int, default=90, help="rendered cities (1-9 dice each)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    reader = DiceReader(symbols=taught_dice(0))
    rng, image_rng = random.Random(args.seed), np.random.default_rng(args.seed)
    started = time.perf_counter()
    counts = Counter(
        outcome(random_city(rng, rng.randint(1, 9)), reader, image_rng) for _ in range(args.cities)
    )
    seconds = time.perf_counter() - started
    print(
        f"{args.cities} cities: right {counts['right']} ({counts['right'] / args.cities:.1%}), "
        f"asked {counts['asked']}, wrong {counts['wrong']}; {seconds / args.cities:.2f} s a city"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
