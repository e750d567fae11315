"""Face painters for symbol dice, with artwork generated here: five distinct icon sets.

- ``ALHAMBRA``: the six buildings of Alhambra – the dice game as simple pictograms;
- ``CARCASSONNE``: four city faces (black city areas reaching given edges), a knight and a catapult;
- ``GLYPHS``: six abstract glyphs, a set no game uses;
- ``LETTERS``: six stroked capital letters in a plotter font: thin lines instead of filled shapes. This set
  was added after the reader was tuned on the other three (its look-alike letters then led to the margin's
  lower floor, so it is no longer unseen);
- ``RUNES``: six random runes (strokes and a dot from a fixed seed), added last and never used in tuning:
  the measure of art the reader has not seen.

Each icon is a list of shapes in unit coordinates (0..1, y down) drawn as ink on the die's body colour; an
icon is never symmetric under a quarter or half turn, so the face's rotation can be read back.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

import cv2
import numpy as np
import numpy.typing as npt

from vision.reading import Image, Kind
from vision.simulated_table.painters import BGR, blank_face
from vision.simulated_table.scene import (
    BODY_COLOURS,
    DieSpec,
    Look,
    Placement,
    Scene,
    TrueDie,
    draw_scene,
    ink_for,
    jitter,
    random_die,
    random_look,
    random_table,
    scatter,
)

Mask = npt.NDArray[np.uint8]
Points = Sequence[tuple[float, float]]

_SHIFT = 4  # cv2 sub-pixel drawing: coordinates in 1/16 px


def _pts(points: Points, n: int) -> npt.NDArray[np.int32]:
    return (np.asarray(points, np.float64) * n * (1 << _SHIFT)).astype(np.int32)


def poly(mask: Mask, points: Points, value: int = 255) -> None:
    cv2.fillPoly(mask, [_pts(points, mask.shape[0])], value, cv2.LINE_AA, shift=_SHIFT)


def rect(mask: Mask, x0: float, y0: float, x1: float, y1: float, value: int = 255) -> None:
    poly(mask, [(x0, y0), (x1, y0), (x1, y1), (x0, y1)], value)


def disc(mask: Mask, cx: float, cy: float, r: float, value: int = 255) -> None:
    n = mask.shape[0]
    centre = (round(cx * n * 16), round(cy * n * 16))
    cv2.circle(mask, centre, max(1, round(r * n * 16)), value, -1, cv2.LINE_AA, shift=_SHIFT)


def ring(mask: Mask, cx: float, cy: float, r: float, width: float, value: int = 255) -> None:
    n = mask.shape[0]
    centre = (round(cx * n * 16), round(cy * n * 16))
    thick = max(1, round(width * n))
    cv2.circle(mask, centre, max(1, round(r * n * 16)), value, thick, cv2.LINE_AA, shift=_SHIFT)


def stroke(mask: Mask, points: Points, width: float, value: int = 255) -> None:
    n = mask.shape[0]
    cv2.polylines(mask, [_pts(points, n)], False, value, max(1, round(width * n)), cv2.LINE_AA, shift=_SHIFT)


def arc(cx: float, cy: float, rx: float, ry: float, start: float, stop: float, steps: int = 24) -> Points:
    """Points on an elliptic arc, angles in degrees (0 = +x, 90 = +y, i.e. downwards)."""
    t = np.deg2rad(np.linspace(start, stop, steps))
    return [(float(cx + rx * np.cos(a)), float(cy + ry * np.sin(a))) for a in t]


Icon = Callable[[Mask], None]


# --- Alhambra buildings -----------------------------------------------------------------------------------


def pavilion(m: Mask) -> None:
    poly(m, [(0.15, 0.42), (0.5, 0.16), (0.85, 0.42)])  # wide roof
    rect(m, 0.24, 0.42, 0.32, 0.78)
    rect(m, 0.68, 0.42, 0.76, 0.78)
    rect(m, 0.18, 0.78, 0.82, 0.85)
    disc(m, 0.5, 0.14, 0.035)


def seraglio(m: Mask) -> None:
    poly(m, arc(0.5, 0.46, 0.24, 0.22, 180, 360))  # dome
    rect(m, 0.22, 0.46, 0.78, 0.84)
    poly(m, [(0.42, 0.84), *arc(0.5, 0.66, 0.08, 0.09, 180, 360), (0.58, 0.84)], 0)  # arched door
    stroke(m, [(0.5, 0.24), (0.5, 0.12)], 0.035)
    rect(m, 0.28, 0.52, 0.36, 0.62, 0)


def arcades(m: Mask) -> None:
    rect(m, 0.12, 0.3, 0.88, 0.82)
    for cx in (0.25, 0.5, 0.75):
        poly(m, [(cx - 0.08, 0.82), *arc(cx, 0.52, 0.08, 0.1, 180, 360), (cx + 0.08, 0.82)], 0)
    rect(m, 0.12, 0.22, 0.5, 0.3)  # roof ledge over the left half only


def chambers(m: Mask) -> None:
    rect(m, 0.2, 0.3, 0.8, 0.84)
    for x in (0.2, 0.36, 0.52, 0.68):
        rect(m, x, 0.2, x + 0.1, 0.3)  # battlements
    for x, y in ((0.3, 0.4), (0.56, 0.4), (0.3, 0.6)):
        rect(m, x, y, x + 0.13, y + 0.12, 0)
    rect(m, 0.57, 0.62, 0.69, 0.84, 0)  # door


def garden(m: Mask) -> None:
    rect(m, 0.4, 0.52, 0.48, 0.82)  # trunk
    disc(m, 0.44, 0.38, 0.2)
    disc(m, 0.74, 0.7, 0.11)  # bush on the right
    rect(m, 0.12, 0.82, 0.88, 0.87)


def tower(m: Mask) -> None:
    rect(m, 0.34, 0.26, 0.62, 0.86)
    for x in (0.3, 0.43, 0.56):
        rect(m, x, 0.16, x + 0.09, 0.27)
    rect(m, 0.44, 0.38, 0.52, 0.5, 0)
    poly(m, [(0.62, 0.86), (0.62, 0.6), (0.78, 0.86)])  # buttress on one side


# --- Carcassonne faces ------------------------------------------------------------------------------------


def _shield(m: Mask, cx: float, cy: float, r: float, value: int) -> None:
    poly(
        m,
        [(cx - r, cy - r), (cx + r, cy - r), (cx + r, cy + 0.2 * r), (cx, cy + r), (cx - r, cy + 0.2 * r)],
        value,
    )


def city_top(m: Mask) -> None:
    poly(m, [(0.0, 0.0), (1.0, 0.0), *arc(0.5, 0.0, 0.5, 0.36, 0, 180)])
    _shield(m, 0.3, 0.12, 0.06, 0)


def city_corner(m: Mask) -> None:
    poly(m, [(0.0, 0.0), (1.0, 0.0), *arc(1.0, 1.0, 0.8, 0.8, 270, 180)[:-1], (0.0, 1.0)])


def city_band(m: Mask) -> None:
    left = arc(0.0, 0.5, 0.36, 0.5, -90, 90)
    right = arc(1.0, 0.5, 0.2, 0.5, 90, 270)  # unequal bites: a half turn does not map the face onto itself
    poly(m, [*left, *right])
    _shield(m, 0.5, 0.24, 0.08, 0)


def city_caps(m: Mask) -> None:
    """Two separate city areas on one face, a cap at the top and a shallower one at the bottom, a tower
    between them."""
    poly(m, [(0.0, 0.0), (1.0, 0.0), *arc(0.5, 0.0, 0.5, 0.28, 0, 180)])
    poly(m, [(0.0, 1.0), (1.0, 1.0), *arc(0.5, 1.0, 0.5, 0.22, 0, -180)])
    rect(m, 0.4, 0.38, 0.6, 0.66)


def city_three(m: Mask) -> None:
    poly(m, [(0.0, 0.0), (1.0, 0.0), (1.0, 0.75), *arc(0.5, 0.75, 0.38, 0.4, 0, -180), (0.0, 0.75)])
    _shield(m, 0.74, 0.2, 0.07, 0)


def knight(m: Mask) -> None:
    poly(m, [*arc(0.48, 0.48, 0.2, 0.24, 180, 360), (0.68, 0.8), (0.28, 0.8)])  # helmet
    rect(m, 0.32, 0.46, 0.64, 0.52, 0)  # visor slit
    poly(m, [(0.5, 0.24), (0.66, 0.1), (0.8, 0.16), (0.58, 0.3)])  # plume to the right


def catapult(m: Mask) -> None:
    rect(m, 0.16, 0.62, 0.84, 0.7)
    for cx in (0.28, 0.72):
        disc(m, cx, 0.76, 0.08)
    stroke(m, [(0.36, 0.62), (0.72, 0.22)], 0.06)
    disc(m, 0.75, 0.2, 0.08)
    stroke(m, [(0.3, 0.62), (0.42, 0.4), (0.54, 0.62)], 0.04)


# --- Abstract glyphs --------------------------------------------------------------------------------------


def glyph_arrow(m: Mask) -> None:
    poly(m, [(0.5, 0.14), (0.8, 0.46), (0.6, 0.46), (0.6, 0.84), (0.4, 0.84), (0.4, 0.46), (0.2, 0.46)])


def glyph_hook(m: Mask) -> None:
    stroke(m, [(0.62, 0.16), (0.62, 0.62), *arc(0.44, 0.62, 0.18, 0.2, 0, 180)], 0.1)


def glyph_moon(m: Mask) -> None:
    disc(m, 0.48, 0.5, 0.32)
    disc(m, 0.62, 0.4, 0.28, 0)


def glyph_flag(m: Mask) -> None:
    rect(m, 0.26, 0.14, 0.33, 0.86)
    poly(m, [(0.33, 0.16), (0.8, 0.3), (0.33, 0.46)])


def glyph_steps(m: Mask) -> None:
    poly(
        m,
        [
            (0.16, 0.84),
            (0.16, 0.62),
            (0.38, 0.62),
            (0.38, 0.4),
            (0.6, 0.4),
            (0.6, 0.18),
            (0.84, 0.18),
            (0.84, 0.84),
        ],
    )


def glyph_key(m: Mask) -> None:
    ring(m, 0.3, 0.34, 0.14, 0.07)
    stroke(m, [(0.4, 0.44), (0.78, 0.82)], 0.07)
    stroke(m, [(0.62, 0.66), (0.72, 0.56)], 0.06)


# --- Letters ----------------------------------------------------------------------------------------------


def letter(text: str) -> Icon:
    """A capital letter in OpenCV's stroked Hershey font, centred, about 0.6 of the face high."""

    def draw(m: Mask) -> None:
        n = m.shape[0]
        font, scale = cv2.FONT_HERSHEY_SIMPLEX, n / 36
        thick = max(1, round(n * 0.08))
        (w, h), _ = cv2.getTextSize(text, font, scale, thick)
        cv2.putText(m, text, ((n - w) // 2, (n + h) // 2), font, scale, 255, thick, cv2.LINE_AA)

    return draw


# --- Random runes ------------------------------------------------------------------------------------------


def rune(seed: int) -> Icon:
    """Three random strokes and a dot, from `seed`: art nobody drew with the reader in mind."""
    rng = np.random.default_rng(seed)
    strokes = [rng.uniform(0.18, 0.82, (3, 2)) for _ in range(3)]
    widths = rng.uniform(0.06, 0.11, 3)
    dot = rng.uniform(0.2, 0.8, 2)

    def draw(m: Mask) -> None:
        for points, width in zip(strokes, widths, strict=True):
            stroke(m, [(float(x), float(y)) for x, y in points], float(width))
        disc(m, float(dot[0]), float(dot[1]), 0.07)

    return draw


@dataclass(frozen=True)
class IconSet:
    """Named icons: which label draws what; `areas` names a city face's separate city areas by the edges
    each touches, taught upright."""

    name: str
    icons: dict[str, Icon]
    areas: dict[str, tuple[frozenset[str], ...]] = field(default_factory=dict)


ALHAMBRA = IconSet(
    "alhambra",
    {
        "pavilion": pavilion,
        "seraglio": seraglio,
        "arcades": arcades,
        "chambers": chambers,
        "garden": garden,
        "tower": tower,
    },
)
CARCASSONNE = IconSet(
    "carcassonne",
    {
        "city1": city_top,
        "city2": city_corner,
        "city3": city_band,
        "city4": city_three,
        "knight": knight,
        "catapult": catapult,
    },
    areas={
        "city1": (frozenset({"top"}),),
        "city2": (frozenset({"top", "left"}),),
        "city3": (frozenset({"top", "bottom"}),),
        "city4": (frozenset({"top", "left", "right"}),),
    },
)
GLYPHS = IconSet(
    "glyphs",
    {
        "arrow": glyph_arrow,
        "hook": glyph_hook,
        "moon": glyph_moon,
        "flag": glyph_flag,
        "steps": glyph_steps,
        "key": glyph_key,
    },
)
LETTERS = IconSet("letters", {c.lower(): letter(c) for c in "FGJKPR"})
RUNES = IconSet("runes", {f"rune{i}": rune(9000 + i) for i in range(1, 7)})
ICON_SETS: dict[str, IconSet] = {s.name: s for s in (ALHAMBRA, CARCASSONNE, GLYPHS, LETTERS, RUNES)}


def icon_mask(icons: IconSet, label: str, size: int) -> Mask:
    """The ink coverage (0..255) of one face at `size` pixels."""
    mask = np.zeros((size, size), np.uint8)
    icons.icons[label](mask)
    return mask


class SymbolPainter:
    """Paints one icon set's faces: ink on the body colour, with small random wobble of the art's scale."""

    def __init__(self, icons: IconSet) -> None:
        self.icons = icons
        self.kind: Kind = "symbol"
        self.labels: tuple[str, ...] = tuple(icons.icons)

    def paint(self, label: str, size: int, body: BGR, ink: BGR, rng: np.random.Generator) -> Image:
        face = blank_face(size, body, rng).astype(np.float32)
        mask = icon_mask(self.icons, label, size).astype(np.float32) / 255
        # Printing is never exact: a slightly smaller or shifted print on some dice.
        scale = rng.uniform(0.96, 1.02)
        shift = rng.uniform(-0.015, 0.015, 2) * size
        warp = np.array(
            [[scale, 0, (1 - scale) * size / 2 + shift[0]], [0, scale, (1 - scale) * size / 2 + shift[1]]]
        )
        art = np.asarray(cv2.warpAffine(mask, warp, (size, size), borderMode=cv2.BORDER_REPLICATE))[..., None]
        face = face * (1 - art) + np.array(ink, np.float32) * art
        return np.clip(face, 0, 255).astype(np.uint8)


def mild_look(rng: np.random.Generator) -> Look:
    """A random look with the camera close to straight down (little of the dice's sides shows)."""
    look = random_look(rng)
    return replace(look, tilt=min(look.tilt, 0.1), side_dir=(look.side_dir[0] * 0.4, look.side_dir[1] * 0.4))


def teaching_photos(
    painter: SymbolPainter, rng: np.random.Generator, per_face: int = 4, color: str = "white", size: int = 320
) -> dict[str, list[Image]]:
    """Rendered teaching photos: one die alone on a plain table per photo, the first of each face upright.

    Later photos lie at any angle, under varied light, as a user would take them while turning the die.
    """
    photos: dict[str, list[Image]] = {}
    for label in painter.labels:
        body = jitter(BODY_COLOURS[color][0], rng)
        ink = ink_for(body, rng)
        photos[label] = []
        for j in range(per_face):
            angle = rng.uniform(-8, 8) if j == 0 else rng.uniform(0, 360)
            centre = size / 2 + rng.uniform(-0.06, 0.06, 2) * size
            place = Placement(float(centre[0]), float(centre[1]), rng.uniform(0.28, 0.44) * size, angle)
            table = np.empty((size, size, 3), np.uint8)
            table[:] = rng.integers(30, 230, 3)
            spec = DieSpec(painter, label, color, body, ink)
            photos[label].append(draw_scene(table, [(spec, place)], mild_look(rng), rng).image)
    return photos


def symbol_table(
    painter: SymbolPainter,
    rng: np.random.Generator,
    n_dice: int = 9,
    colors: tuple[str, ...] = ("white", "black", "red", "yellow", "blue", "green"),
    size: int = 640,
    plain: bool = False,
) -> Scene:
    """A rendered table with `n_dice` symbol dice of one icon set: varied light, places, sizes, colours.

    `plain` gives a table of one colour without clutter (what the stand-in dice finder needs).
    """
    places = scatter(rng, n_dice, size, size, rng.uniform(50, 90) * size / 640)
    # Symbol dice are of one solid colour: the renderer's marbled bodies are for pip dice.
    dice = [(replace(random_die(painter, rng, str(rng.choice(colors))), marbled=False), p) for p in places]
    table = random_table(rng, size, size)
    if plain:
        table[:] = rng.integers(30, 230, 3)
    return draw_scene(table, dice, mild_look(rng), rng)


def true_rotation(die: TrueDie) -> float:
    """The counter-clockwise angle (degrees, 0..360) of a rendered die's face against its upright art."""
    dx, dy = die.corners[1] - die.corners[0]
    return float(-np.degrees(np.arctan2(dy, dx)) % 360)
