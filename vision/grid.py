"""Dice built side by side on a grid, read from one photo: each die's cell, face and the sides its art meets.

A built Carcassonne city is the use: touching dice lie about one die side apart with their sides aligned, so
the dice form a grid turned by some angle on the table. The die detector, trained on scattered dice, misses
or merges many dice that touch, and a merged find is no measure of a die; so the grid comes from the dice's
silhouette on the table, and the faces read in its cells say which of the grids it allows is right:

1. the grid's angle is the mode (modulo 90°) of the edge directions of the silhouette;
2. for every pitch from a die 1/30 of the photo across to one as wide as the silhouette, the origin whose
   squares (a die's side at each cell they half cover) cover the silhouette best, judged by intersection
   over union (`_Outline`); each pitch that covers it nearly as well as the best and better than its
   neighbours is laid over the photo: a block of dice is covered as well by a grid of half the pitch, and
   a square block of four by one die twice the size;
3. each grid cell the silhouette fills is a die, read by the face matcher in the cell's own square; the
   grid whose cells read surest while leaving least of the silhouette out wins (`_Try.fit`): cut dice read
   unsure, and one die where four lie reads one face where four read surely;
4. a die whose face is unsure, or one that the detector finds off the grid, is asked about, never guessed; a
   die whose face reaches no side (a knight, a catapult) may lie anywhere: it is counted, off the grid or on
   it.

The sides a face's areas of art reach come from the taught profile (`TaughtFace.areas`, at rotation 0)
turned by the die's rotation, named as seen on the grid: "top" is towards the row above.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import cv2
import numpy as np
import numpy.typing as npt

from vision.reader import DiceReader
from vision.reading import UNKNOWN, Box, Die, Image, Rotation
from vision.symbols.finder import foreground
from vision.symbols.matcher import SymbolRead
from vision.symbols.profile import Sides

Cell = tuple[int, int]
Floats = npt.NDArray[np.float64]

WORK_SIDE = 480
"""The silhouette is found at this many pixels along the photo's longer side (a die some 40 px)."""
PITCH_PER_SIDE = 1.07
"""Centre distance of touching dice per die side, before the photo says better: rounded edges keep a seam."""
ON_GRID = 0.3
"""A die whose centre lies further than this (in pitches) from its cell's centre is off the grid."""
OFF_GRID = 0.75
"""See `_apart` (pitches, along either axis of the grid)."""
NUDGES = ((0.12, 0.0), (-0.12, 0.0), (0.0, 0.12), (0.0, -0.12))
"""Shifts (in pitches) of a cell's square for a die that reads unsure in it: hands do not build exactly."""
TURNED = 18.0
"""A die turned more than this (degrees) against its neighbours is not built square to them and is asked
about: on rendered cities (dice laid with a 3° spread) no die read turned more than 14.1° of 695."""
FINALISTS = 3
"""Grids whose unsure dice are looked at again before one is chosen."""
MOSTLY_SURE = 0.34
"""A grid goes to the final only where at most this share of its cells reads unsure."""
FILLED = 0.7
"""A cell is a die where the silhouette covers this share of its middle half."""
CELL_LOOK = 1.0
"""A cell's square is read as it is: it holds the whole die, and any larger look takes in a neighbour's art
(a black cap against the cap of the die above read the wrong way up)."""
KEY_SPAN = 1 << 20
"""Cells are numbered (row + KEY_SPAN) * 2 KEY_SPAN + col + KEY_SPAN to be counted by numpy."""
SEARCH_SIDE = 240
"""The silhouette is matched against grids at this many pixels along the photo's longer side."""
PITCH_STEP = 1.03
"""Ratio of neighbouring pitches tried over the silhouette."""
PHASES = 8
"""Origins tried per pitch along each axis (a die in PHASES places across one pitch), before refining."""
FINE = tuple(k / 32 for k in (-2, -1, 0, 1, 2))
"""Origin refinement about the best coarse one, in pitches along each axis."""
FINE_PITCH = (0.985, 1.0, 1.015)
"""Pitch refinement about the best coarse one."""
OUTLINE_SLACK = 0.1
"""A pitch whose grid covers the silhouette within this much (intersection over union) of the best one's is
read too: the silhouette of a block of dice fits a grid of half its pitch nearly as well, and the rounded
corners and seams of a few dice leave every grid's cover some way short of whole."""
PEAK = 1.15
"""A pitch is a candidate where no pitch within this ratio either side covers the silhouette better."""
SMALLEST_DIE = 8
"""No die is taken smaller than this many pixels across at SEARCH_SIDE (1/30 of the photo's longer side)."""


class GridError(ValueError):
    """The photo shows no grid the reader can find; the message says why."""


@dataclass(frozen=True)
class GridDie:
    """A die on the grid: its cell (row, col; rows grow downwards), face, rotation and its separate areas of
    art by the sides each reaches as seen on the grid."""

    at: Cell
    face: str
    rotation: Rotation
    areas: tuple[Sides, ...]
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


def read_grid(image: Image, reader: DiceReader) -> GridReading:
    """Read the dice built on a grid in a photo of a plain table; `GridError` when no die is found."""
    if reader.matcher is None:
        raise GridError("reading a grid of symbol dice needs a taught symbol profile")
    profile = reader.matcher.profile
    found = [d for d in reader.read(image).dice if d.kind == "symbol"]
    mask, scale = foreground(image, WORK_SIDE)
    if not mask.any():
        raise GridError("no die found in the photo: nothing to read")
    angle = grid_angle(mask)
    outline = _Outline.of(mask, scale, angle)
    grids = outline.grids()
    if not grids:
        raise GridError("no die found in the photo: nothing to read")
    laid = sorted((_laid(image, reader, mask, scale, g) for g in grids), key=lambda t: -t.fit)
    # The best few are judged again once their unsure dice are looked at again: a die lying a little off its
    # cell must not tip the choice to a grid that leaves it out. A grid most of whose cells read unsure cuts
    # dice apart, and a second look would only find parts of faces in them.
    finalists = [t for t in laid if t.unsure <= MOSTLY_SURE * len(t.cells)][:FINALISTS] or laid[:1]
    best = max((_looked_again(image, reader, t) for t in finalists), key=lambda t: t.fit)
    grid, cells, boxes, reads = best.grid, best.cells, best.boxes, best.reads
    dice: list[GridDie] = []
    asked: list[AskedDie] = []
    turns = _turns(grid, reads)
    for cell, box, read, turn in zip(cells, boxes, reads, turns, strict=True):
        areas = profile.face(read.face).areas_at(read.rotation) if read.face != UNKNOWN else ()
        if read.face == UNKNOWN:
            asked.append(AskedDie(box, cell, read.best, f"unsure which face ({read.best}?)"))
        elif areas and abs(turn) > TURNED:
            asked.append(AskedDie(box, cell, read.face, f"turned {abs(turn):.0f}° against its neighbours"))
        else:
            dice.append(GridDie(cell, read.face, read.rotation, areas, read.confidence, box))
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
    def unsure(self) -> int:
        return sum(r.face == UNKNOWN for r in self.reads)

    @property
    def fit(self) -> float:
        """How well the grid explains the photo: each die read surely counts its confidence, an unsure one
        costs half a die and silhouette outside every cell costs what it covers in dice. A grid too fine
        cuts dice into parts that read poorly; one too coarse leaves dice out of its cells."""
        sure = sum(r.confidence for r in self.reads if r.face != UNKNOWN)
        return sure - 0.5 * self.unsure - self.outside


@dataclass(frozen=True)
class _Outline:
    """The silhouette's pixels along the grid's axes (photo pixels), to judge grids of every pitch by how
    well squares of a die's side at the cells they fill cover it (intersection over union): a grid too
    coarse leaves part of each cell bare, one laid off the dice cuts them."""

    u: Floats
    v: Floats
    pixel: float
    """Photo pixels² a silhouette pixel stands for."""
    angle: float

    @classmethod
    def of(cls, mask: npt.NDArray[np.uint8], scale: float, angle: float) -> _Outline:
        f = min(1.0, SEARCH_SIDE / max(mask.shape))
        small = cv2.resize(mask.astype(np.float32), None, fx=f, fy=f, interpolation=cv2.INTER_AREA) > 0.5
        ys, xs = np.nonzero(small)
        x, y = (xs + 0.5) / (scale * f), (ys + 0.5) / (scale * f)
        t = math.radians(angle)
        u = x * math.cos(t) + y * math.sin(t)
        v = -x * math.sin(t) + y * math.cos(t)
        return cls(u, v, 1 / (scale * f) ** 2, angle)

    def cover(self, pitch: float, rows: Floats, cols: Floats) -> tuple[Floats, npt.NDArray[np.int64]]:
        """For the grids of this pitch whose origins lie `rows`, `cols` (pitches) along the axes: each one's
        intersection over union with the silhouette, and how many cells it fills (half a die's square)."""
        r = self.v[None, :] / pitch - rows[:, None]
        c = self.u[None, :] / pitch - cols[:, None]
        ri, ci = np.floor(r + 0.5), np.floor(c + 0.5)
        half = 0.5 / PITCH_PER_SIDE
        inside = (np.abs(r - ri) < half) & (np.abs(c - ci) < half)
        ri -= ri.min()
        ci -= ci.min()
        span_r, span_c = int(ri.max()) + 1, int(ci.max()) + 1
        key = ((np.arange(len(rows))[:, None] * span_r + ri) * span_c + ci).astype(np.int64)
        cells = np.bincount(key[inside], minlength=len(rows) * span_r * span_c).reshape(len(rows), -1)
        covered = cells * self.pixel
        die = (pitch / PITCH_PER_SIDE) ** 2
        filled = covered >= 0.5 * die
        both = (covered * filled).sum(axis=1)
        count = filled.sum(axis=1)
        return both / (len(self.u) * self.pixel + count * die - both), count

    def grids(self) -> list[_Grid]:
        """The grids whose squares cover the silhouette best: each pitch that is a clear peak (PEAK) within
        OUTLINE_SLACK of the best, origin and pitch refined; best first."""
        if len(self.u) == 0:
            return []
        least = SMALLEST_DIE * math.sqrt(self.pixel) * PITCH_PER_SIDE
        most = max(1.2 * min(np.ptp(self.u), np.ptp(self.v)), 2 * least)
        pitches = np.geomspace(least, most, max(2, math.ceil(math.log(most / least) / math.log(PITCH_STEP))))
        phase = np.arange(PHASES) / PHASES
        rows, cols = (a.ravel() for a in np.meshgrid(phase, phase, indexing="ij"))
        scores, origins = [], []
        for pitch in pitches:
            iou, _ = self.cover(float(pitch), rows, cols)
            k = int(np.argmax(iou))
            scores.append(float(iou[k]))
            origins.append((float(rows[k]), float(cols[k])))
        top, near = max(scores), np.log(pitches)
        peaks = [
            i
            for i, score in enumerate(scores)
            if score >= top - OUTLINE_SLACK
            and score >= max(scores[j] for j in np.flatnonzero(np.abs(near - near[i]) < math.log(PEAK)))
        ]
        best_first = sorted(peaks, key=lambda i: -scores[i])
        return [self._refined(float(pitches[i]), *origins[i]) for i in best_first]

    def _refined(self, pitch: float, row: float, col: float) -> _Grid:
        fine = np.array(FINE)
        rows, cols = (a.ravel() for a in np.meshgrid(row + fine, col + fine, indexing="ij"))
        best = (-1.0, pitch, row, col)
        for p in FINE_PITCH:
            # The origin is kept in photo pixels while the pitch changes: the dice stay where they lie.
            iou, _ = self.cover(pitch * p, rows / p, cols / p)
            k = int(np.argmax(iou))
            if iou[k] > best[0]:
                best = (float(iou[k]), pitch * p, float(rows[k]) / p, float(cols[k]) / p)
        _, pitch, row, col = best
        return _Grid(self.angle, pitch, (col * pitch, row * pitch))


def _laid(image: Image, reader: DiceReader, mask: npt.NDArray[np.uint8], scale: float, grid: _Grid) -> _Try:
    cells, outside = _filled_cells(mask, scale, grid)
    boxes = [_cell_box(grid, cell, grid.pitch / PITCH_PER_SIDE) for cell in cells]
    return _Try(grid, cells, boxes, reader.read_faces(image, boxes, CELL_LOOK) if boxes else [], outside)


def _turns(grid: _Grid, reads: list[SymbolRead]) -> list[float]:
    """Each die's turn (degrees, modulo 90) against the grid its neighbours lie on: the median turn of the
    dice read and of the silhouette's edges, which a single die turned out of line does not move."""
    angle = math.degrees(math.atan2(grid.sin, grid.cos))
    turn = [_wrap(r.angle - angle) for r in reads]
    middle = float(np.median([0.0, *(t for t, r in zip(turn, reads, strict=True) if r.face != UNKNOWN)]))
    return [_wrap(t - middle) for t in turn]


def _wrap(angle: float) -> float:
    """An angle modulo 90° in [-45, 45): a die's square looks the same every quarter turn."""
    return (angle + 45) % 90 - 45


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

    dice = tuple(GridDie(moved(d.at), d.face, d.rotation, d.areas, d.confidence, d.box) for d in found.dice)
    asked = tuple(
        AskedDie(a.box, moved(a.at) if a.at is not None else None, a.guess, a.why) for a in found.asked
    )
    return GridReading(dice, found.loose, asked, found.angle, found.pitch)
