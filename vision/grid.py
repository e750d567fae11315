"""Dice built side by side on a grid, read from one photo: each die's cell, face and the sides its art meets.

A built Carcassonne city is the use: touching dice lie about one die side apart with their sides aligned, so
the dice form a grid turned by some angle on the table. The die detector, trained on scattered dice, misses
or merges many dice that touch; so the detector only seeds the grid, and the grid then says where every die
must be:

1. the grid's angle is the mode (modulo 90°) of the edge directions of the dice's silhouette on the table;
2. its pitch and origin come from the dice the one reader (`vision.reader.DiceReader`) read surely: their
   centres lie on the grid, a whole number of pitches apart; a few pitches about that are laid over the
   photo (each also half a pitch off where that leaves less silhouette out), and the grid whose cells read
   surest while leaving least of the silhouette out wins (`_Try.fit`);
3. each grid cell the silhouette fills is a die, read by the face matcher in the cell's own square;
4. a die whose face is unsure, or one that lies off the grid, is asked about, never guessed; a die whose face
   reaches no side (a knight, a catapult) may lie anywhere: it is counted, off the grid or on it.

The sides a face's art reaches come from the taught profile (`TaughtFace.edges`, at rotation 0) turned by
the die's rotation, named as seen on the grid: "top" is towards the row above.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import cv2
import numpy as np
import numpy.typing as npt

from vision.reader import DiceReader
from vision.reading import Box, Die, Image, Rotation
from vision.symbols.finder import foreground
from vision.symbols.matcher import UNKNOWN, SymbolRead
from vision.symbols.profile import EDGES, SymbolProfile

Cell = tuple[int, int]
Floats = npt.NDArray[np.float64]

WORK_SIDE = 480
"""The silhouette is found at this many pixels along the photo's longer side (a die some 40 px)."""
DETECTOR_BOX = 0.94
"""The detector's box of an upright symbol die is this share of the die's side (median on rendered tables)."""
PITCH_PER_SIDE = 1.07
"""Centre distance of touching dice per die side, before the photo says better: rounded edges keep a seam."""
ON_GRID = 0.3
"""A die whose centre lies further than this (in pitches) from its cell's centre is off the grid."""
OFF_GRID = 0.75
"""See `_apart` (pitches, along either axis of the grid)."""
NUDGES = ((0.12, 0.0), (-0.12, 0.0), (0.0, 0.12), (0.0, -0.12))
"""Shifts (in pitches) of a cell's square for a die that reads unsure in it: hands do not build exactly."""
CLEAN_OUTSIDE = 0.3
"""Silhouette (in dice) a grid may leave outside its cells and still be taken without trying others."""
FINALISTS = 3
"""Grids whose unsure dice are looked at again before one is chosen."""
FILLED = 0.7
"""A cell is a die where the silhouette covers this share of its middle half."""
CELL_LOOK = 1.0
"""A cell's square is read as it is: it holds the whole die, and any larger look takes in a neighbour's art
(a black cap against the cap of the die above read the wrong way up)."""
KEY_SPAN = 1 << 20
"""Cells are numbered (row + KEY_SPAN) * 2 KEY_SPAN + col + KEY_SPAN to be counted by numpy."""
PITCH_TRIES = (1.0, 0.965, 1.035)
"""Pitches tried, per the one the sure dice's distances give."""
HALF_SHIFTS = ((0.5, 0.0), (0.0, 0.5), (0.5, 0.5))
"""Origins tried besides the seeded one, in pitches (see `_half_off`)."""
REALIGN = 0.5
"""Silhouette (in dice) a moved origin must take in more than the seeded one to be laid too."""
SIZE_TRIES = tuple(float(k) for k in np.geomspace(0.7, 1.45, 15))
"""Pitches tried, per the one the sure dice's size gives: a find of two dice at once can be read as one die,
and a city of few dice gives no distances."""
"""A cell is a die where the silhouette covers this share of its middle half."""


class GridError(ValueError):
    """The photo shows no grid the reader can find; the message says why."""


@dataclass(frozen=True)
class GridDie:
    """A die on the grid: its cell (row, col; rows grow downwards), face, rotation and the sides its art
    reaches as seen on the grid."""

    at: Cell
    face: str
    rotation: Rotation
    edges: frozenset[str]
    confidence: float
    box: Box


@dataclass(frozen=True)
class AskedDie:
    """A die the photo does not settle: where it lies, its cell if on the grid, the best guess and why."""

    box: Box
    at: Cell | None
    guess: str
    why: str


@dataclass(frozen=True)
class GridReading:
    """The dice of one photo: on the grid, lying loose (faces that reach no side), and asked about."""

    dice: tuple[GridDie, ...]
    loose: tuple[Die, ...]
    asked: tuple[AskedDie, ...]
    angle: float
    """The grid's turn in the photo, degrees clockwise."""
    pitch: float
    """Centre distance of touching dice, pixels."""


def turned(sides: frozenset[str], rotation: int) -> frozenset[str]:
    """Sides of a face (named at rotation 0) as they lie when the face is turned `rotation` degrees
    counter-clockwise: a quarter turn takes the top side to the left."""
    turns = rotation // 90
    return frozenset(EDGES[(EDGES.index(side) - turns) % 4] for side in sides)


def seen_edges(profile: SymbolProfile, face: str, rotation: int) -> frozenset[str]:
    """The sides a taught face's art reaches as it lies."""
    return turned(profile.face(face).edges, rotation)


def grid_angle(mask: npt.NDArray[np.uint8]) -> float:
    """The mode of the silhouette's edge directions modulo 90°, degrees in [-45, 45): every side of every
    die votes for the grid's turn (rounded corners vote evenly for all)."""
    soft = cv2.GaussianBlur(mask.astype(np.float32), (0, 0), 1.0)
    gx = cv2.Sobel(soft, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(soft, cv2.CV_32F, 0, 1, ksize=3)
    weight = np.hypot(gx, gy)
    four = 4 * np.arctan2(gy, gx)
    vote = complex(float((weight * np.cos(four)).sum()), float((weight * np.sin(four)).sum()))
    return math.degrees(math.atan2(vote.imag, vote.real) / 4)


class _Grid:
    """Photo pixels to grid coordinates (in pitches) and back, for one angle, pitch and origin."""

    def __init__(self, angle: float, pitch: float, origin: tuple[float, float]) -> None:
        t = math.radians(angle)
        self.cos, self.sin = math.cos(t), math.sin(t)
        self.pitch, self.origin = pitch, origin

    def to_grid(self, x: float, y: float) -> tuple[float, float]:
        """(row, col) in pitches: the photo turned back by the grid's angle."""
        u = x * self.cos + y * self.sin
        v = -x * self.sin + y * self.cos
        return (v - self.origin[1]) / self.pitch, (u - self.origin[0]) / self.pitch

    def to_grid_many(self, x: Floats, y: Floats) -> tuple[Floats, Floats]:
        u = x * self.cos + y * self.sin
        v = -x * self.sin + y * self.cos
        return (v - self.origin[1]) / self.pitch, (u - self.origin[0]) / self.pitch

    def to_photo(self, row: float, col: float) -> tuple[float, float]:
        u = col * self.pitch + self.origin[0]
        v = row * self.pitch + self.origin[1]
        return u * self.cos - v * self.sin, u * self.sin + v * self.cos


def _die_side(box: Box, angle: float) -> float:
    """The side of a die from its detector box: a square turned by `angle` fills a box (|cos|+|sin|) wider."""
    t = math.radians(angle)
    return max(box.width, box.height) / (abs(math.cos(t)) + abs(math.sin(t))) / DETECTOR_BOX


def _pitch(sure: list[Die], grid: _Grid, side: float) -> float:
    """The median of the sure dice's centre distances along each grid axis, each divided by the whole number
    of pitches it spans; the side's guess where no two sure dice lie in line."""
    guess = side * PITCH_PER_SIDE
    points = [grid.to_grid(*d.box.center) for d in sure]
    spans = []
    for i, (r0, c0) in enumerate(points):
        for r1, c1 in points[i + 1 :]:
            for along, across in ((r1 - r0, c1 - c0), (c1 - c0, r1 - r0)):
                n = round(abs(along) / guess)
                if 1 <= n <= 4 and abs(across) < 0.3 * guess:
                    spans.append(abs(along) / n)
    return float(np.median(spans)) if spans else guess


def _offset(fractions: list[float]) -> float:
    """The circular mean of positions modulo 1."""
    angles = [2 * math.pi * f for f in fractions]
    mean = math.atan2(sum(math.sin(a) for a in angles), sum(math.cos(a) for a in angles))
    return mean / (2 * math.pi)


def read_grid(image: Image, reader: DiceReader) -> GridReading:
    """Read the dice built on a grid in a photo of a plain table; `GridError` when no die is found."""
    if reader.matcher is None:
        raise GridError("reading a grid of symbol dice needs a taught symbol profile")
    profile = reader.matcher.profile
    found = [d for d in reader.read(image).dice if d.kind == "symbol"]
    # The dice read surely seed the grid; where none is, every die found does, the grid's fit then judging.
    sure = [d for d in found if d.face not in (None, UNKNOWN)] or found
    if not sure:
        raise GridError("no die found in the photo: nothing to read")
    mask, scale = foreground(image, WORK_SIDE)
    angle = grid_angle(mask)
    sides = [_die_side(d.box, angle) for d in sure]
    side = float(np.median(sides))
    # A merged find of two touching dice reads (if at all) with a box far off the others': it seeds nothing.
    alike = [d for d, s in zip(sure, sides, strict=True) if 0.75 < s / side < 1.33]
    sure = alike or [sure[int(np.argmin([abs(s - side) for s in sides]))]]
    pitch = _pitch(sure, _Grid(angle, 1.0, (0.0, 0.0)), side)

    # The seeds may put the grid a little off (few sure dice, a find of two dice at once): of a few pitches
    # about the seeds' one and the one their size gives, the grid that fits the photo best wins.
    def lay(seed: float, tries: tuple[float, ...]) -> list[_Try]:
        lo, hi = SIZE_TRIES[0] * side * PITCH_PER_SIDE, SIZE_TRIES[-1] * side * PITCH_PER_SIDE
        seeded = [_seeded(angle, seed * k, sure) for k in tries if lo <= seed * k <= hi]
        grids = seeded + [g for g in (_half_off(mask, scale, g) for g in seeded) if g is not None]
        return [_laid(image, reader, mask, scale, g) for g in grids]

    laid = sorted(lay(pitch, PITCH_TRIES), key=lambda t: -t.fit)
    if not laid or not laid[0].clean:
        laid = sorted(laid + lay(side * PITCH_PER_SIDE, SIZE_TRIES), key=lambda t: -t.fit)
    # The best few are judged again once their unsure dice are looked at again: a die lying a little off its
    # cell must not tip the choice to a grid that leaves it out.
    best = max((_looked_again(image, reader, t) for t in laid[:FINALISTS]), key=lambda t: t.fit)
    grid, cells, boxes, reads = best.grid, best.cells, best.boxes, best.reads
    dice: list[GridDie] = []
    asked: list[AskedDie] = []
    for cell, box, read in zip(cells, boxes, reads, strict=True):
        if read.face == UNKNOWN:
            asked.append(AskedDie(box, cell, read.best, f"unsure which face ({read.best}?)"))
        else:
            edges = seen_edges(profile, read.face, read.rotation)
            dice.append(GridDie(cell, read.face, read.rotation, edges, read.confidence, box))
    loose: list[Die] = []
    for die in found:
        r, c = grid.to_grid(*die.box.center)
        at = (round(r), round(c))
        if at in cells and math.hypot(r - at[0], c - at[1]) <= ON_GRID:
            continue
        if die.face not in (None, UNKNOWN) and not profile.face(die.face).edges:
            loose.append(die)
        elif _apart(cells, r, c) and _on(mask, scale, die.box.center):
            asked.append(AskedDie(die.box, None, die.face or UNKNOWN, "off the grid"))
    return _from_origin(GridReading(tuple(dice), tuple(loose), tuple(asked), angle, grid.pitch))


@dataclass(frozen=True)
class _Try:
    """One grid laid over the photo: its filled cells, their squares and reads, the silhouette left out."""

    grid: _Grid
    cells: list[Cell]
    boxes: list[Box]
    reads: list[SymbolRead]
    outside: float

    @property
    def clean(self) -> bool:
        """Every cell reads surely and the cells hold nearly all the silhouette: no other grid is tried."""
        return all(r.face != UNKNOWN for r in self.reads) and self.outside < CLEAN_OUTSIDE

    @property
    def fit(self) -> float:
        """How well the grid explains the photo: each die read surely counts its confidence, an unsure one
        costs half a die and silhouette outside every cell costs what it covers in dice. A grid too fine
        cuts dice into parts that read poorly; one too coarse leaves dice out of its cells."""
        sure = sum(r.confidence for r in self.reads if r.face != UNKNOWN)
        return sure - 0.5 * sum(r.face == UNKNOWN for r in self.reads) - self.outside


def _seeded(angle: float, pitch: float, sure: list[Die]) -> _Grid:
    """The grid of this angle and about this pitch through the sure dice's centres."""
    unit = _Grid(angle, pitch, (0.0, 0.0))
    rows, cols = zip(*(unit.to_grid(*d.box.center) for d in sure), strict=True)
    origin_r, origin_c = _offset([r % 1 for r in rows]), _offset([c % 1 for c in cols])
    return _refined(_Grid(angle, pitch, (origin_c * pitch, origin_r * pitch)), sure)


def _laid(image: Image, reader: DiceReader, mask: npt.NDArray[np.uint8], scale: float, grid: _Grid) -> _Try:
    cells, outside = _filled_cells(mask, scale, grid)
    boxes = [_cell_box(grid, cell, grid.pitch / PITCH_PER_SIDE) for cell in cells]
    return _Try(grid, cells, boxes, reader.read_faces(image, boxes, CELL_LOOK) if boxes else [], outside)


def _half_off(mask: npt.NDArray[np.uint8], scale: float, grid: _Grid) -> _Grid | None:
    """The grid moved half a pitch along either axis or both that leaves clearly less of the silhouette
    outside its cells, if any: a seed that is a find of two dice at once lies on the seam between them, half
    a pitch off every cell. It is laid beside the seeded grid, not instead: in a block of dice a grid through
    the seams fills as many cells, and only its reads tell it apart."""
    best, least = None, _filled_cells(mask, scale, grid)[1] - REALIGN
    for dr, dc in HALF_SHIFTS:
        x, y = grid.to_photo(dr, dc)
        u, v = x * grid.cos + y * grid.sin, -x * grid.sin + y * grid.cos
        moved = _Grid(math.degrees(math.atan2(grid.sin, grid.cos)), grid.pitch, (u, v))
        outside = _filled_cells(mask, scale, moved)[1]
        if outside < least:
            best, least = moved, outside
    return best


def _apart(cells: list[Cell], r: float, c: float) -> bool:
    """No die on the grid explains a find at (r, c): a find of a die in its cell, or of one with its side in
    view or two at once, lies within OFF_GRID of a filled cell."""
    return all(max(abs(r - cr), abs(c - cc)) > OFF_GRID for cr, cc in cells)


def _on(mask: npt.NDArray[np.uint8], scale: float, point: tuple[float, float]) -> bool:
    """The silhouette covers the point: a find centred there is a die, not the gap between dice."""
    x, y = int(point[0] * scale), int(point[1] * scale)
    return 0 <= y < mask.shape[0] and 0 <= x < mask.shape[1] and bool(mask[y, x])


def _looked_again(image: Image, reader: DiceReader, laid: _Try) -> _Try:
    """The grid with each unsure cell read again in its square nudged every way: it is read as the face every
    nudge that names one names, the surest of them."""
    reads = list(laid.reads)
    unsure = [i for i, r in enumerate(reads) if r.face == UNKNOWN]
    if not unsure:
        return laid
    side = laid.grid.pitch / PITCH_PER_SIDE
    boxes = []
    for i in unsure:
        r, c = laid.cells[i]
        for dr, dc in NUDGES:
            x, y = laid.grid.to_photo(r + dr, c + dc)
            boxes.append(Box(x - side / 2, y - side / 2, x + side / 2, y + side / 2))
    again = reader.read_faces(image, boxes, CELL_LOOK)
    for n, i in enumerate(unsure):
        looks = [a for a in again[n * len(NUDGES) : (n + 1) * len(NUDGES)] if a.face != UNKNOWN]
        if len({a.face for a in looks}) == 1:
            reads[i] = max(looks, key=lambda a: a.confidence)
    return replace(laid, reads=reads)


def _refined(grid: _Grid, sure: list[Die], rounds: int = 2) -> _Grid:
    """The pitch and origin that put the sure dice's centres best on their nearest cells (least squares),
    leaving out a die far off its cell (a find of two dice at once)."""
    for _ in range(rounds):
        us, vs, cols, rows = [], [], [], []
        for die in sure:
            r, c = grid.to_grid(*die.box.center)
            if math.hypot(r - round(r), c - round(c)) > ON_GRID:
                continue
            x, y = die.box.center
            us.append(x * grid.cos + y * grid.sin)
            vs.append(-x * grid.sin + y * grid.cos)
            cols.append(round(c))
            rows.append(round(r))
        if len(set(cols)) + len(set(rows)) < 3:
            return grid
        # u = origin_u + pitch * col, v = origin_v + pitch * row: one pitch, two origins.
        n = len(us)
        design = np.zeros((2 * n, 3))
        design[:n, 0], design[n:, 1] = 1, 1
        design[:n, 2], design[n:, 2] = cols, rows
        (ou, ov, pitch), *_ = np.linalg.lstsq(design, np.array(us + vs), rcond=None)
        grid = _Grid(math.degrees(math.atan2(grid.sin, grid.cos)), float(pitch), (float(ou), float(ov)))
    return grid


def _filled_cells(mask: npt.NDArray[np.uint8], scale: float, grid: _Grid) -> tuple[list[Cell], float]:
    """The cells whose middle half the silhouette fills, top row first; and how much of the silhouette (in
    dice) lies in cells that are not filled."""
    ys, xs = np.nonzero(mask)
    rows, cols = grid.to_grid_many(xs / scale, ys / scale)
    r_at, c_at = np.round(rows).astype(np.int64), np.round(cols).astype(np.int64)
    key = (r_at + KEY_SPAN) * 2 * KEY_SPAN + c_at + KEY_SPAN
    middle = (np.abs(rows - r_at) < 0.25) & (np.abs(cols - c_at) < 0.25)
    keys, counts = np.unique(key[middle], return_counts=True)
    full = (0.5 * grid.pitch * scale) ** 2
    filled = keys[counts >= FILLED * full]
    outside = float(np.count_nonzero(~np.isin(key, filled))) / (grid.pitch * scale) ** 2
    cells = [(int(k // (2 * KEY_SPAN)) - KEY_SPAN, int(k % (2 * KEY_SPAN)) - KEY_SPAN) for k in filled]
    return cells, outside


def _cell_box(grid: _Grid, cell: Cell, side: float) -> Box:
    x, y = grid.to_photo(*cell)
    return Box(x - side / 2, y - side / 2, x + side / 2, y + side / 2)


def _from_origin(found: GridReading) -> GridReading:
    """The same reading with cells counted from the top-left die: row 0 and column 0 hold a die."""
    cells = [d.at for d in found.dice] + [a.at for a in found.asked if a.at is not None]
    if not cells:
        return found
    r0, c0 = min(r for r, _ in cells), min(c for _, c in cells)

    def moved(at: Cell) -> Cell:
        return (at[0] - r0, at[1] - c0)

    dice = tuple(GridDie(moved(d.at), d.face, d.rotation, d.edges, d.confidence, d.box) for d in found.dice)
    asked = tuple(
        AskedDie(a.box, moved(a.at) if a.at is not None else None, a.guess, a.why) for a in found.asked
    )
    return GridReading(dice, found.loose, asked, found.angle, found.pitch)
