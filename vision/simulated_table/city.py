"""Rendered tables of dice built side by side on a grid (a Carcassonne city): known truth for the grid reader.

Each die lies at a grid cell with a face turned by a quarter-turn rotation; touching dice lie about one side
apart with their sides aligned, the whole grid turned a little on the table as players build it. A die can be
laid off the grid (half a cell out, or turned) to render what the reader must ask about.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from vision.reading import Rotation
from vision.simulated_table.painters import BGR
from vision.simulated_table.scene import (
    BODY_COLOURS,
    DieSpec,
    Placement,
    Scene,
    draw_scene,
    ink_for,
    jitter,
    scatter,
)
from vision.simulated_table.symbol_art import SymbolPainter, mild_look

GAP = (1.03, 1.12)
"""Centre distance of touching dice in die sides: real dice have rounded edges and never lie flush."""
GRID_TURN = 12.0
"""The most (degrees) a built city's grid is turned against the camera's frame."""
NUDGE = 0.03
"""How far (die sides, degrees / 100) each die lies off its exact place: hands do not build exactly."""


@dataclass(frozen=True)
class BuiltDie:
    """A die at grid cell (row, col) showing `label`, its art turned `rotation` degrees counter-clockwise;
    `off` lays it off the grid by (rows, cols) and `turn` degrees more."""

    at: tuple[int, int]
    label: str
    rotation: Rotation = 0
    off: tuple[float, float] = (0.0, 0.0)
    turn: float = 0.0


def city_scene(
    painter: SymbolPainter,
    dice: Sequence[BuiltDie],
    rng: np.random.Generator,
    size: int = 640,
    color: str = "white",
) -> Scene:
    """The dice built on a plain table seen from above; `Scene.dice` lists them in the order given."""
    rows = [d.at[0] for d in dice]
    cols = [d.at[1] for d in dice]
    span = max(max(rows) - min(rows), max(cols) - min(cols)) + 1
    gap = rng.uniform(*GAP)
    side = min(size * rng.uniform(0.08, 0.11), size * 0.75 / ((span + 1) * gap))
    turn = rng.uniform(-GRID_TURN, GRID_TURN)
    t = math.radians(turn)
    mid_r, mid_c = (max(rows) + min(rows)) / 2, (max(cols) + min(cols)) / 2
    centre = size / 2 + rng.uniform(-0.05, 0.05, 2) * size
    body, ink = _colours(color, rng)
    placed = []
    for d in dice:
        dr, dc = rng.normal(0, NUDGE, 2)
        y = (d.at[0] - mid_r + d.off[0] + dr) * side * gap
        x = (d.at[1] - mid_c + d.off[1] + dc) * side * gap
        # The grid is turned clockwise on screen by `turn`, as the renderer turns a die by its angle.
        cx = centre[0] + x * math.cos(t) - y * math.sin(t)
        cy = centre[1] + x * math.sin(t) + y * math.cos(t)
        angle = turn - d.rotation + d.turn + rng.normal(0, NUDGE * 100)
        placed.append((DieSpec(painter, d.label, color, body, ink), Placement(cx, cy, side, angle)))
    return _on_plain_table(placed, size, rng)


def thrown_scene(
    painter: SymbolPainter,
    labels: Sequence[str],
    rng: np.random.Generator,
    size: int = 640,
    color: str = "white",
) -> Scene:
    """The faces `labels` thrown apart on a plain table (a roll before any die is built)."""
    places = scatter(rng, len(labels), size, size, rng.uniform(50, 70) * size / 640, margin=1.2)
    body, ink = _colours(color, rng)
    dice = [(DieSpec(painter, label, color, body, ink), p) for label, p in zip(labels, places, strict=False)]
    return _on_plain_table(dice, size, rng)


def _colours(color: str, rng: np.random.Generator) -> tuple[BGR, BGR]:
    """One set of dice's body and ink colours."""
    body = jitter(BODY_COLOURS[color][0], rng)
    return body, ink_for(body, rng)


def _on_plain_table(dice: list[tuple[DieSpec, Placement]], size: int, rng: np.random.Generator) -> Scene:
    """The dice drawn on a table of one colour under a mild light without glare."""
    table = np.empty((size, size, 3), np.uint8)
    table[:] = rng.integers(30, 200, 3)
    return draw_scene(table, dice, replace(mild_look(rng), specular=0.0), rng)
