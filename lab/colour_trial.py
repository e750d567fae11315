"""Yellow-vs-blue trials on rendered tables: how well the reader tells a game's two dice colours apart.

Each trial is one table under one light (colour cast, light falloff, camera tilt, blur, noise, JPEG all drawn
at random): a profile is taught from photos of the game's yellow dice and of its blue dice on that table, then
fresh throws of mixed dice are read with it — and, for comparison, without it (palette rules only).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from vision.colour import body_lab
from vision.colour_profile import ColourProfile, teach
from vision.evaluate import match
from vision.pips import PipReader, name_colour
from vision.reading import Image
from vision.simulated_table.painters import PipPainter
from vision.simulated_table.scene import (
    BODY_COLOURS,
    DieSpec,
    Look,
    Scene,
    draw_scene,
    ink_for,
    jitter,
    random_look,
    random_table,
    scatter,
)

GAME_COLOURS = ("yellow", "blue")
SIZE = (480, 640)


@dataclass
class ColourTally:
    dice: int = 0
    right_with_profile: int = 0
    right_without: int = 0
    missed: int = 0


@dataclass(frozen=True)
class Table:
    """One trial's table: its surface, light, and the body colour of each of the game's two dice colours."""

    surface: Image
    look: Look
    bodies: dict[str, tuple[int, int, int]]


def random_trial_table(rng: np.random.Generator) -> Table:
    bodies = {c: jitter(BODY_COLOURS[c][int(rng.integers(len(BODY_COLOURS[c])))], rng) for c in GAME_COLOURS}
    return Table(random_table(rng, *SIZE), random_look(rng), bodies)


def throw(table: Table, colours: Sequence[str], rng: np.random.Generator) -> Scene:
    """Dice of the given colours (one each) thrown on the trial's table."""
    side = rng.uniform(0.06, 0.1) * min(SIZE)
    places = scatter(rng, len(colours), *SIZE, side)
    painter = PipPainter()
    dice = []
    for colour, place in zip(colours, places, strict=False):
        body = jitter(table.bodies[colour], rng, 6)
        spec = DieSpec(painter, str(rng.integers(1, 7)), colour, body, ink_for(body, rng))
        dice.append((spec, place))
    return draw_scene(table.surface, dice, table.look, rng)


def teach_table(reader: PipReader, table: Table, rng: np.random.Generator, photos: int = 2) -> ColourProfile:
    """The profile a user would teach: a couple of photos of each colour's dice alone on this table."""
    samples = {}
    for colour in GAME_COLOURS:
        labs = []
        for _ in range(photos):
            image = throw(table, [colour] * 4, rng).image
            labs += [body_lab(image, d.box) for d in reader.detector(image)]
        samples[colour] = labs
    return teach(samples)


def run_trials(reader: PipReader, trials: int, throws: int, seed: int = 0) -> ColourTally:
    """Trials of `throws` throws of 4-8 mixed yellow and blue dice each, read with and without a profile."""
    tally = ColourTally()
    for trial in range(trials):
        rng = np.random.default_rng([seed, trial])
        table = random_trial_table(rng)
        profile = teach_table(reader, table, rng)
        for _ in range(throws):
            colours = [GAME_COLOURS[int(i)] for i in rng.integers(0, 2, int(rng.integers(4, 9)))]
            scene = throw(table, colours, rng)
            found = reader.detector(scene.image)
            pairs = match([d.box for d in scene.dice], [d.box for d in found])
            tally.dice += len(scene.dice)
            tally.missed += len(scene.dice) - len(pairs)
            for i, j in pairs:
                lab = body_lab(scene.image, found[j].box)
                tally.right_with_profile += name_colour(lab, profile) == scene.dice[i].color
                tally.right_without += name_colour(lab, None) == scene.dice[i].color
    return tally
