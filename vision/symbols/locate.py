"""Find a die's top face inside its detection box and cut it out as upright square patches.

The box of a die holds its top face, and under an angled camera also its sides. The face's in-plane angle
(modulo 90°) has up to three estimates: the mode of the crop's edge directions, the mean direction of the
edges away from the centre (the outline), and the silhouette's rectangle. At each distinct angle the face
square is the one whose four sides lie on strong edges, and the box's own square is a further candidate. The
matcher keeps the cut that fits a taught face best, so a wrong guess costs time, not a misread.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, lru_cache

import cv2
import numpy as np
import numpy.typing as npt

from vision.quantiles import median
from vision.reading import Box, Image
from vision.symbols.pixels import channel_sum

Float = npt.NDArray[np.float32]

WORK = 64
"""Pixels per die side of the working crop: enough for the edges, cheap to filter."""
PATCH = 32
"""Side of the cut face patch."""
INSET = 0.84
"""Fraction of the face side the patch covers: leaves out rounded corners and edge shading."""
RIM_INSET = 0.94
"""Where the body colour is sampled: a thin band this far out on the face, beyond most art."""
ANGLE_BINS = 90
"""Bins of the edge-direction histogram over 90°."""
SAME_ANGLE = 4.0
"""Two angle estimates this close (degrees) give one set of cuts."""
OUTLINE_RADIUS = 0.36
"""Gradients this far (in box sides) from the crop's centre are the outline's; art lies nearer the middle."""
MARGIN = 0.12
"""The working crop holds the die's box and this share of its longer side beyond each edge."""


@dataclass(frozen=True)
class FaceCut:
    """A die's top face cut upright (modulo 90°): the BGR patch (float32, 0..255) and its rim samples."""

    patch: Float
    rim: Float  # BGR samples (N×3) of the face's outer band, corners left out: mostly the body colour
    angle: float = 0.0
    """The face square's turn in the image, degrees in [-45, 45), clockwise as seen (image axes, y down)."""


def face_angles(grey: Float) -> list[float]:
    """Candidate in-plane angles of the die's square outline, degrees in [-45, 45), image axes (y down).

    The first is the mode of the edge directions modulo 90° over the whole crop, weighted by strength: the
    outline's four sides vote for one direction, and so do the upright lines of most art. The second is the
    mean direction of the edges away from the centre, where the outline lies at any angle.
    """
    gx = cv2.Sobel(grey, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(grey, cv2.CV_32F, 0, 1, ksize=3)
    # Only inside the box's inscribed circle: the middle of each side of the face lies there at any angle,
    # while a card's edge or a tray's rim crossing the box's corners (often upright in the image) does not.
    strength = cv2.multiply(cv2.magnitude(gx, gy), _inside(*gx.shape))
    direction = cv2.phase(gx, gy, angleInDegrees=True)
    # Votes over the full turn (phase is in [0, 360], 360 itself in a spare bin), folded onto 90°: twice as
    # fast as taking each direction modulo 90 first.
    bins = (direction.ravel() * (ANGLE_BINS / 90)).astype(np.int32)
    full = np.bincount(bins, strength.ravel(), 4 * ANGLE_BINS + 1)
    votes = full[: 4 * ANGLE_BINS].reshape(4, ANGLE_BINS).sum(axis=0)
    votes[0] += full[4 * ANGLE_BINS]
    wrapped = np.concatenate([votes[-3:], votes, votes[:3]])
    smooth = np.convolve(wrapped, (0.25, 0.5, 1.0, 0.5, 0.25), "same")[3:-3]
    peak = int(np.argmax(smooth))
    left, top, right = smooth[peak - 1], smooth[peak], smooth[(peak + 1) % ANGLE_BINS]
    curve = left - 2 * top + right
    offset = 0.5 * (left - right) / curve if curve < 0 else 0.0  # the parabola's top through three bins
    mode = _wrap((peak + 0.5 + offset) * 90 / ANGLE_BINS)
    ring = _ring(*gx.shape)
    gx, gy = gx.take(ring), gy.take(ring)
    # (gx + i gy)**4 / |g|**2 has the edge strength squared as length and 4x the normal's angle: a square's
    # four edge directions add up instead of cancelling. Written out in reals: (re + i im)**2 / |g|**2.
    xx, yy = gx * gx, gy * gy
    re, im = xx - yy, 2 * gx * gy
    inv_norm = 1 / (xx + yy + 1e-6)
    acc_re = float(np.dot(re * re - im * im, inv_norm))
    acc_im = float(2 * np.dot(re * im, inv_norm))
    mean = float(np.degrees(np.arctan2(acc_im, acc_re)) / 4)
    return [mode, mean]


def _radii(h: int, w: int) -> tuple[npt.NDArray[np.float64], float]:
    """Each pixel's distance from the centre of an h×w crop, and the radius of its box's inscribed circle
    (a pixel more)."""
    ys, xs = np.ogrid[0:h, 0:w]
    return np.hypot(ys - (h - 1) / 2, xs - (w - 1) / 2), min(h, w) / (2 + 4 * MARGIN) + 1


@cache
def _inside(h: int, w: int) -> Float:
    """1 for the pixels of an h×w crop inside its box's inscribed circle, 0 beyond."""
    radius, inscribed = _radii(h, w)
    return (radius <= inscribed).astype(np.float32)


@cache
def _ring(h: int, w: int) -> npt.NDArray[np.intp]:
    """Flat indices of the pixels of an h×w crop between OUTLINE_RADIUS and the box's inscribed circle."""
    radius, inscribed = _radii(h, w)
    return np.flatnonzero((radius >= OUTLINE_RADIUS * WORK) & (radius <= inscribed))


def silhouette_angle(crop: Float) -> float | None:
    """The angle of the die's outline from its silhouette: pixels unlike the crop's border (the table).

    Art cannot bias it, as it can the edge directions; it fails where the die's colour is the table's.
    """
    h, w = crop.shape[:2]
    border = np.concatenate([crop[0], crop[-1], crop[:, 0], crop[:, -1]])
    # OpenCV's per-pixel arithmetic: numpy's broadcast of a 3-vector over the crop costs three times more.
    table = (*median(border, axis=0).tolist(), 0.0)
    diff = cv2.subtract(crop, table)  # type: ignore[call-overload]  # a 4-tuple is OpenCV's Scalar
    dist = cv2.sqrt(channel_sum(cv2.multiply(diff, diff)))
    _, mask = cv2.threshold(np.clip(dist, 0, 255).astype(np.uint8), 0, 1, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    if not mask[h // 2, w // 2]:
        return None
    # The centre's blob (8-connected, as connected components are) by a flood fill: it alone is labelled.
    blob = np.zeros((h + 2, w + 2), np.uint8)
    area, *_ = cv2.floodFill(mask, blob, (w // 2, h // 2), 1, flags=8 | cv2.FLOODFILL_MASK_ONLY | (1 << 8))
    if area < 0.2 * h * w:
        return None
    contours, _ = cv2.findContours(blob[1:-1, 1:-1], cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    (_, _), (_, _), angle = cv2.minAreaRect(max(contours, key=len))
    return _wrap(float(angle))


def _wrap(angle: float) -> float:
    return (angle + 45) % 90 - 45


PRESENCE = 0.1
"""An edge is present where the gradient reaches this fraction of the crop's strongest."""
SIZE_BONUS = 0.3
"""Of two squares on equally present edges, the larger is the face (the smaller one runs along art)."""
Square = tuple[float, float, float, float]
Ints = npt.NDArray[np.int_]
Corners = tuple[Ints, ...]
Affine = tuple[float, ...]
"""A 2×3 affine map's six coefficients, row by row."""


def _squares(grey: Float, side: float) -> tuple[list[Square], float]:
    """Candidate (x0, y0, x1, y1) face squares in an axis-aligned crop whose die side is about `side`.

    A face is the square whose four sides all lie on strong edges along their whole length: each candidate
    square scores the weakest of its four mean edge strengths, so long straight art lines (which rarely close
    a square of the die's size) do not win. All squares of plausible size and place are scored at once with
    cumulative sums. The best two distinct squares are returned, and the best one's score; the matcher keeps
    the square that fits a taught face better.
    """
    ex = np.abs(cv2.Sobel(grey, cv2.CV_32F, 1, 0, ksize=3))
    ey = np.abs(cv2.Sobel(grey, cv2.CV_32F, 0, 1, ksize=3))
    # Edge presence, not strength: the die's outline may have far less contrast than its art. A pixel counts
    # when a clear edge lies within a pixel of it across the edge direction.
    level = PRESENCE * float(max(ex.max(), ey.max()))
    ex = cv2.dilate((ex > level).view(np.uint8), np.ones((1, 3), np.uint8))
    ey = cv2.dilate((ey > level).view(np.uint8), np.ones((3, 1), np.uint8))
    # Strength along a vertical line x from row y0 to y1 = cx[y1, x] - cx[y0, x] (and alike for rows): the
    # cumulative sums down columns (across rows) are differences of OpenCV's integral image, many times
    # faster than numpy's cumsum; exact, as the sums are whole numbers.
    h, w = grey.shape
    cx = np.diff(cv2.integral(ex, sdepth=cv2.CV_32F), axis=1)
    cy = np.diff(cv2.integral(ey, sdepth=cv2.CV_32F), axis=0)
    # Coarse grid first (every other size and place), then each pick refined by a pixel either way.
    x0, y0, sizes, corners = _grid(h, w, round(side))
    score = _square_scores(cx, cy, corners, sizes, side)
    top_n = min(len(score), 40)
    best = np.argpartition(score, -top_n)[-top_n:]
    order = best[np.argsort(score[best])[::-1]].tolist()
    xs, ys, ss = x0[order].tolist(), y0[order].tolist(), sizes[order].tolist()
    picks: list[Square] = []
    fits: list[float] = []
    for x, y, s in zip(xs, ys, ss, strict=True):
        if any(max(abs(x - p[0]), abs(y - p[1]), abs(x + s - p[2])) <= side * 0.06 for p in picks):
            continue
        fine_sizes = s + _STEP_S
        fine = _square_scores(cx, cy, _fine_corners(h, w, x, y, s), fine_sizes, side)
        j = int(np.argmax(fine))
        fx, fy, fs = x + int(_STEP_X[j]), y + int(_STEP_Y[j]), s + int(_STEP_S[j])
        picks.append((float(fx), float(fy), float(min(fx + fs, w - 1)), float(min(fy + fs, h - 1))))
        fits.append(float(fine[j]))
        if len(picks) == 2:
            break
    return picks, max(fits, default=0.0)


_STEP_S, _STEP_Y, _STEP_X = (g.ravel() for g in np.meshgrid(*[np.array([-1, 0, 1])] * 3, indexing="ij"))


@lru_cache(maxsize=256)  # bounded: crop sizes and die sides vary from die to die
def _grid(h: int, w: int, side: int) -> tuple[Ints, Ints, Ints, Corners]:
    """The squares tried in an h×w crop (x0, y0, size, corners): 0.72..1.06 of `side`, every 2 pixels."""
    sizes = np.arange(int(side * 0.72), int(side * 1.06) + 1, 2)
    reach = int(side * 0.2)
    offs = np.arange(-reach, reach + 1, 2)
    s_, oy, ox = (g.ravel() for g in np.meshgrid(sizes, offs, offs, indexing="ij"))
    x0 = np.round(w / 2 + ox - s_ / 2).astype(int)
    y0 = np.round(h / 2 + oy - s_ / 2).astype(int)
    return x0, y0, s_, _corners(h, w, x0, y0, s_)


def _corners(h: int, w: int, x0: Ints, y0: Ints, size: Ints) -> Corners:
    """Flat indices, into the cumulative sums of an h×w crop, of each square's sides' ends."""
    # np.minimum and np.maximum: np.clip costs several times more on arrays this small.
    x0, y0 = np.minimum(np.maximum(x0, 0), w - 1), np.minimum(np.maximum(y0, 0), h - 1)
    x1, y1 = np.minimum(x0 + size, w - 1), np.minimum(y0 + size, h - 1)
    # Columns' sums (h+1)×w: rows y0 and y1 at columns x0 and x1; rows' sums h×(w+1) alike.
    return (y1 * w + x0, y0 * w + x0, y1 * w + x1, y0 * w + x1,
            y0 * (w + 1) + x1, y0 * (w + 1) + x0, y1 * (w + 1) + x1, y1 * (w + 1) + x0)  # fmt: skip


def _fine_corners(h: int, w: int, x: int, y: int, s: int) -> Corners:
    """`_corners` of the squares a pixel either way from (x, y, s) in place and size (`_STEP_X` ...)."""
    if x < 1 or y < 1 or x + s + 2 > w - 1 or y + s + 2 > h - 1:
        return _corners(h, w, x + _STEP_X, y + _STEP_Y, s + _STEP_S)
    # Inside the crop nothing is clipped: each index is the square's own plus a fixed step.
    x1, y1 = x + s, y + s
    base = (y1 * w + x, y * w + x, y1 * w + x1, y * w + x1,
            y * (w + 1) + x1, y * (w + 1) + x, y1 * (w + 1) + x1, y1 * (w + 1) + x)  # fmt: skip
    return tuple(b + step for b, step in zip(base, _fine_steps(w), strict=True))


@cache
def _fine_steps(w: int) -> Corners:
    """How each of `_corners`' indices moves for the steps `_STEP_X`, `_STEP_Y`, `_STEP_S` (unclipped)."""
    dx, dy, ds = _STEP_X, _STEP_Y, _STEP_S
    return ((dy + ds) * w + dx, dy * w + dx, (dy + ds) * w + dx + ds, dy * w + dx + ds,
            dy * (w + 1) + dx + ds, dy * (w + 1) + dx, (dy + ds) * (w + 1) + dx + ds,
            (dy + ds) * (w + 1) + dx)  # fmt: skip


def _square_scores(cx: Float, cy: Float, corners: Corners, size: Ints, side: float) -> Float:
    """Per square: the presence of its weakest side, plus a small bonus for size."""
    fx, fy = cx.ravel(), cy.ravel()
    left_hi, left_lo, right_hi, right_lo, top_hi, top_lo, bottom_hi, bottom_lo = corners
    span = np.maximum(size, 1).astype(np.float32)
    sides = np.minimum(
        np.minimum(fx[left_hi] - fx[left_lo], fx[right_hi] - fx[right_lo]),
        np.minimum(fy[top_hi] - fy[top_lo], fy[bottom_hi] - fy[bottom_lo]),
    )
    return np.asarray(sides / span + SIZE_BONUS * size / side, np.float32)


def cut_faces(image: Image, box: Box) -> list[FaceCut]:
    """Candidate cuts of the top face of the die in `box`, upright modulo 90°, as PATCH×PATCH BGR patches."""
    crop = _work_crop(image, box)
    grey = channel_sum(crop)
    # Where two angles are in doubt, the one whose square sits on the strongest edges comes first: the first
    # cut is the best guess (teaching takes its orientation as upright; its rim gives the body colour).
    angles: list[float] = []
    for angle in [*face_angles(grey), silhouette_angle(crop)]:
        if angle is not None and all(abs(_wrap(angle - a)) > SAME_ANGLE for a in angles):
            angles.append(angle)
    turned = sorted((_cuts_at(crop, grey, angle) for angle in angles), key=lambda c: -c[1])
    return [cut for cuts, _ in turned for cut in cuts]


def _work_crop(image: Image, box: Box) -> Float:
    """The die's box and MARGIN beyond it, scaled to WORK pixels along the box's longer side (float BGR).

    Only the frame's pixels under the crop are read: they are made float first (OpenCV warps 8-bit colour
    at half the speed of float), and a die over twice WORK wide is first shrunk by a whole factor (INTER_AREA
    averages whole blocks then, its fast path), so the final warp never shrinks by 2 or more and does not
    alias. Outside the frame the border is replicated.
    """
    w, h = max(box.width, 2.0), max(box.height, 2.0)
    scale = WORK / max(w, h)
    margin = MARGIN * max(w, h)
    x0, y0 = box.x0 - margin, box.y0 - margin
    size = (round((w + 2 * margin) * scale), round((h + 2 * margin) * scale))
    ih, iw = image.shape[:2]
    k = max(1, min(int(1 / scale), iw, ih))
    # The frame pixels the warp reads, one more each side for the interpolation, a whole number of k×k
    # blocks, at least one.
    rx0 = min(max(0, int(np.floor(x0)) - 1), iw - k)
    ry0 = min(max(0, int(np.floor(y0)) - 1), ih - k)
    rx1 = min(max(int(np.ceil(x0 + size[0] / scale)) + 2, rx0 + k), iw)
    ry1 = min(max(int(np.ceil(y0 + size[1] / scale)) + 2, ry0 + k), ih)
    roi: npt.NDArray[np.uint8] = image[ry0 : ry0 + (ry1 - ry0) // k * k, rx0 : rx0 + (rx1 - rx0) // k * k]
    if k > 1:
        roi = np.asarray(
            cv2.resize(roi, (roi.shape[1] // k, roi.shape[0] // k), interpolation=cv2.INTER_AREA), np.uint8
        )
    # A pixel of the shrunk roi averages k×k frame pixels centred (k - 1) / 2 past k times its own place;
    # crop point = scale · (frame point - (x0, y0)).
    fk = scale * k
    to_crop = np.array(
        [[fk, 0, scale * (rx0 + (k - 1) / 2 - x0)], [0, fk, scale * (ry0 + (k - 1) / 2 - y0)]], np.float64
    )
    flags, border = cv2.INTER_LINEAR, cv2.BORDER_REPLICATE
    return np.asarray(cv2.warpAffine(roi.astype(np.float32), to_crop, size, flags=flags, borderMode=border))


def _cuts_at(crop: Float, grey: Float, angle: float) -> tuple[list[FaceCut], float]:
    """The candidate face squares of the crop turned upright by `angle`, cut out of the crop; the best fit."""
    size = (crop.shape[1], crop.shape[0])
    t = np.radians(angle)
    side_est = WORK / (abs(np.cos(t)) + abs(np.sin(t)))
    turn = cv2.getRotationMatrix2D((size[0] / 2, size[1] / 2), angle, 1.0)
    # Only the grey crop is turned (to find the square); patches are sampled from the crop directly.
    upright = np.asarray(
        cv2.warpAffine(grey, turn, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE), np.float32
    )
    back: Affine = tuple(np.asarray(cv2.invertAffineTransform(turn), np.float64).ravel().tolist())
    half = side_est * 0.97 / 2
    boxed = (size[0] / 2 - half, size[1] / 2 - half, size[0] / 2 + half, size[1] / 2 + half)
    cuts = []
    # The box's own square is right whenever the camera looks straight down; it is a third candidate.
    squares, fit = _squares(upright, side_est)
    for sx0, sy0, sx1, sy1 in [*squares, boxed]:
        side = ((sx1 - sx0) + (sy1 - sy0)) / 2
        cx, cy = (sx0 + sx1) / 2, (sy0 + sy1) / 2
        patch = _sample(crop, back, cx, cy, side * INSET, PATCH)
        band = _sample(crop, back, cx, cy, side * RIM_INSET, PATCH)
        cuts.append(FaceCut(patch, _band(band), angle))
    return cuts, fit


def _sample(crop: Float, back: Affine, cx: float, cy: float, width: float, n: int) -> Float:
    """The n×n patch covering the upright square of `width` about (cx, cy); `back` maps upright to crop."""
    k = width / n
    # Patch pixel (u, v) -> upright point (tx + k·u, ty + k·v) -> crop point: one warp. Composed in plain
    # floats: numpy's 3×3 product cost a third as much as the warp itself.
    tx, ty = cx - width / 2 + k / 2, cy - width / 2 + k / 2
    a, b, c, d, e, f = back
    to_crop = np.array([[a * k, b * k, a * tx + b * ty + c], [d * k, e * k, d * tx + e * ty + f]])
    flags = cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP
    return np.asarray(cv2.warpAffine(crop, to_crop, (n, n), flags=flags), np.float32)


@cache
def _band_index(n: int) -> npt.NDArray[np.intp]:
    """Flat indices of an n×n patch's outermost two pixels on each side, without the (rounded) corners."""
    grid = np.arange(n * n).reshape(n, n)
    mid = slice(n // 5, n - n // 5)
    return np.concatenate(
        [grid[:2, mid].ravel(), grid[-2:, mid].ravel(), grid[mid, :2].ravel(), grid[mid, -2:].ravel()]
    )


def _band(patch: Float) -> Float:
    """The outermost two pixels of each side of a patch, without the (rounded) corners."""
    return patch.reshape(-1, 3).take(_band_index(patch.shape[0]), axis=0)
