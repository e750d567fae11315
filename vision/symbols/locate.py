"""Find a die's top face inside its detection box and cut it out as an upright square patch.

The box of a die holds its top face, and under an angled camera also its sides. The face's in-plane angle
(modulo 90°) comes from the gradient orientations of the crop (a square's edges dominate them); the face
square itself is then the pair of strong parallel edges, in each direction, that best make a square.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from vision.reading import Box, Image

Float = npt.NDArray[np.float32]

WORK = 64
"""Pixels per die side of the working crop: enough for the edges, cheap to filter."""
PATCH = 32
OUTLINE_RADIUS = 0.36
"""Gradients this far (in box sides) from the crop's centre are the outline's; art lies nearer the middle."""
"""Side of the cut face patch."""
INSET = 0.84
RIM_INSET = 0.94
"""Where the body colour is sampled: a thin band this far out on the face, beyond most art."""
"""Fraction of the face side the patch covers: leaves out rounded corners and edge shading."""


@dataclass(frozen=True)
class FaceCut:
    """A die's top face cut upright: the BGR patch (float32, 0..255) and the angle removed (degrees)."""

    patch: Float
    rim: Float  # BGR samples (N×3) of the face's outer band, corners left out: mostly the body colour
    angle: float
    side: float  # face side in image pixels
    centre: tuple[float, float]  # face centre in image pixels


def face_angle(crop: Float) -> float:
    """The in-plane angle of the die's square outline, in degrees in [-45, 45), image axes (y down).

    Only gradients away from the crop's centre count: there lies the die's outline at any angle, while the
    art (which may well run diagonally) stays nearer the middle.
    """
    gx = cv2.Sobel(crop, cv2.CV_32F, 1, 0, ksize=3).sum(axis=2)
    gy = cv2.Sobel(crop, cv2.CV_32F, 0, 1, ksize=3).sum(axis=2)
    h, w = gx.shape
    ys, xs = np.ogrid[0:h, 0:w]
    ring = np.hypot(ys - (h - 1) / 2, xs - (w - 1) / 2) >= OUTLINE_RADIUS * WORK
    gx, gy = gx[ring], gy[ring]
    # (gx + i gy)**4 / |g|**2 has the edge strength squared as length and 4x the normal's angle: a square's
    # four edge directions add up instead of cancelling. Written out in reals: (re + i im)**2 / |g|**2.
    re, im = gx * gx - gy * gy, 2 * gx * gy
    norm = gx * gx + gy * gy + 1e-6
    acc_re = float(np.sum((re * re - im * im) / norm))
    acc_im = float(np.sum(2 * re * im / norm))
    return float(np.degrees(np.arctan2(acc_im, acc_re)) / 4)


PRESENCE = 0.1
"""An edge is present where the gradient reaches this fraction of the crop's strongest."""
SIZE_BONUS = 0.3
"""Of two squares on equally present edges, the larger is the face (the smaller one runs along art)."""
Square = tuple[float, float, float, float]
SHADOW_COSINE = float(np.cos(np.radians(4)))
"""Pixels whose colour points within 4° of the table's, somewhat darker, are shadow."""


def _squares(rotated: Float, side: float) -> list[Square]:
    """Candidate (x0, y0, x1, y1) face squares in an axis-aligned crop whose die side is about `side`.

    A face is the square whose four sides all lie on strong edges along their whole length: each candidate
    square scores the weakest of its four mean edge strengths, so long straight art lines (which rarely close
    a square of the die's size) do not win. All squares of plausible size and place are scored at once with
    cumulative sums. The best two distinct squares are returned; the matcher keeps the one that fits better.
    """
    grey = rotated.sum(axis=2)
    ex = np.abs(cv2.Sobel(grey, cv2.CV_32F, 1, 0, ksize=3))
    ey = np.abs(cv2.Sobel(grey, cv2.CV_32F, 0, 1, ksize=3))
    # Edge presence, not strength: the die's outline may have far less contrast than its art. A pixel counts
    # when a clear edge lies within a pixel of it across the edge direction.
    level = PRESENCE * float(max(ex.max(), ey.max()))
    ex = cv2.dilate((ex > level).astype(np.float32), np.ones((1, 3), np.uint8))
    ey = cv2.dilate((ey > level).astype(np.float32), np.ones((3, 1), np.uint8))
    # Strength along a vertical line x from row y0 to y1 = cx[y1, x] - cx[y0, x] (and alike for rows).
    cx = np.vstack([np.zeros((1, ex.shape[1]), np.float32), np.cumsum(ex, axis=0)])
    cy = np.hstack([np.zeros((ey.shape[0], 1), np.float32), np.cumsum(ey, axis=1)])
    h, w = grey.shape
    # Coarse grid first (every other size and place), then each pick refined by a pixel either way.
    sizes = np.arange(int(side * 0.72), int(side * 1.06) + 1, 2)
    reach = int(side * 0.2)
    offs = np.arange(-reach, reach + 1, 2)
    s_, oy, ox = (g.ravel() for g in np.meshgrid(sizes, offs, offs, indexing="ij"))
    x0 = np.round(w / 2 + ox - s_ / 2).astype(int)
    y0 = np.round(h / 2 + oy - s_ / 2).astype(int)
    score = _square_scores(cx, cy, x0, y0, s_, side)
    top_n = min(len(score), 40)
    best = np.argpartition(score, -top_n)[-top_n:]
    order = best[np.argsort(score[best])[::-1]]
    picks: list[Square] = []
    step = np.array([-1, 0, 1])
    for i in order:
        near = [max(abs(x0[i] - p[0]), abs(y0[i] - p[1]), abs(x0[i] + s_[i] - p[2])) for p in picks]
        if any(d <= side * 0.06 for d in near):
            continue
        ds, dy, dx = (g.ravel() for g in np.meshgrid(step, step, step, indexing="ij"))
        fine = _square_scores(cx, cy, x0[i] + dx, y0[i] + dy, s_[i] + ds, side)
        j = int(np.argmax(fine))
        fx, fy, fs = int(x0[i] + dx[j]), int(y0[i] + dy[j]), int(s_[i] + ds[j])
        picks.append((float(fx), float(fy), float(min(fx + fs, w - 1)), float(min(fy + fs, h - 1))))
        if len(picks) == 2:
            break
    return picks


def _square_scores(
    cx: Float,
    cy: Float,
    x0: npt.NDArray[np.int_],
    y0: npt.NDArray[np.int_],
    size: npt.NDArray[np.int_],
    side: float,
) -> Float:
    """Per square: the presence of its weakest side, plus a small bonus for size."""
    h, w = cx.shape[0] - 1, cy.shape[1] - 1
    x0, y0 = np.clip(x0, 0, w - 1), np.clip(y0, 0, h - 1)
    x1, y1 = np.clip(x0 + size, 0, w - 1), np.clip(y0 + size, 0, h - 1)
    span = np.maximum(size, 1).astype(np.float32)
    left = (cx[y1, x0] - cx[y0, x0]) / span
    right = (cx[y1, x1] - cx[y0, x1]) / span
    top = (cy[y0, x1] - cy[y0, x0]) / span
    bottom = (cy[y1, x1] - cy[y1, x0]) / span
    weakest = np.minimum(np.minimum(left, right), np.minimum(top, bottom))
    return np.asarray(weakest + SIZE_BONUS * size / side, np.float32)


def cut_faces(image: Image, box: Box) -> list[FaceCut]:
    """Candidate cuts of the top face of the die in `box`, upright modulo 90°, as PATCH×PATCH BGR patches."""
    w, h = max(box.width, 2.0), max(box.height, 2.0)
    scale = WORK / max(w, h)
    margin = 0.12 * max(w, h)
    x0, y0 = box.x0 - margin, box.y0 - margin
    size = (round((w + 2 * margin) * scale), round((h + 2 * margin) * scale))
    # One affine warp crops, scales and pads (replicating the border) in a single pass.
    to_crop = np.array([[scale, 0, -x0 * scale], [0, scale, -y0 * scale]], np.float64)
    src = image
    if scale < 0.5:  # shrink first so the warp does not alias
        src = cv2.resize(image, None, fx=scale * 2, fy=scale * 2, interpolation=cv2.INTER_AREA)
        to_crop[:, :2] /= scale * 2
    crop = cv2.warpAffine(src, to_crop, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    crop = crop.astype(np.float32)
    angle = face_angle(crop)
    t = np.radians(angle)
    side_est = WORK / (abs(np.cos(t)) + abs(np.sin(t)))
    centre = (size[0] / 2, size[1] / 2)
    turn = cv2.getRotationMatrix2D(centre, angle, 1.0)
    rotated = cv2.warpAffine(crop, turn, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    back = cv2.invertAffineTransform(turn)
    cuts = []
    half = side_est * 0.97 / 2
    boxed = (size[0] / 2 - half, size[1] / 2 - half, size[0] / 2 + half, size[1] / 2 + half)
    # The box's own square is right whenever the camera looks straight down; it is a third candidate.
    for sx0, sy0, sx1, sy1 in [*_squares(rotated, side_est), boxed]:
        side = ((sx1 - sx0) + (sy1 - sy0)) / 2
        cx, cy = (sx0 + sx1) / 2, (sy0 + sy1) / 2
        patch = _sample(rotated, cx, cy, side * INSET, PATCH)
        band = _sample(rotated, cx, cy, side * RIM_INSET, PATCH)
        # Back from the rotated crop to the image: undo the turn, then the crop's scale and offset.
        ux, uy = back @ np.array([cx, cy, 1.0])
        centre_xy = (float(ux / scale + x0), float(uy / scale + y0))
        cuts.append(FaceCut(patch, _band(band), angle, side / scale, centre_xy))
    return cuts


def _sample(rotated: Float, cx: float, cy: float, width: float, n: int) -> Float:
    """The n×n patch covering the axis-aligned square of `width` centred on (cx, cy)."""
    k = width / n
    # Patch pixel (u, v) <- crop point (cx - width/2 + k(u + .5), ...): one warp, straight from `rotated`.
    to_patch = np.array([[1 / k, 0, -(cx - width / 2) / k - 0.5], [0, 1 / k, -(cy - width / 2) / k - 0.5]])
    return np.asarray(cv2.warpAffine(rotated, to_patch, (n, n), flags=cv2.INTER_LINEAR), np.float32)


def _band(patch: Float) -> Float:
    """The outermost two pixels of each side of a patch, without the (rounded) corners."""
    n = patch.shape[0]
    mid = slice(n // 5, n - n // 5)
    sides = (patch[:2, mid], patch[-2:, mid], patch[mid, :2], patch[mid, -2:])
    return np.concatenate([s.reshape(-1, 3) for s in sides])


def find_dice(image: Image) -> list[Box]:
    """Boxes of dice on a plain table, most die-like first: compact, square-ish blobs unlike the border.

    A stand-in for the die detector where none is installed, and the way teaching photos (one die on a plain
    table) are cut. The table is a plane of colour fitted to the image's border, so uneven light is fine;
    clutter touching a die is not.
    """
    h, w = image.shape[:2]
    scale = min(1.0, 320 / max(h, w))
    small = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) if scale < 1 else image
    lab = cv2.GaussianBlur(cv2.cvtColor(small, cv2.COLOR_BGR2Lab).astype(np.float32), (0, 0), 1.5)
    sh, sw = lab.shape[:2]
    rim = np.ones((sh, sw), bool)
    rim[4:-4, 4:-4] = False
    # The table under uneven light: a plane per channel fitted to the border, not one colour.
    ys, xs = np.mgrid[0:sh, 0:sw].astype(np.float32)
    design = np.stack([np.ones_like(xs), xs / sw, ys / sh], axis=-1)
    coef, *_ = np.linalg.lstsq(design[rim], lab[rim], rcond=None)
    dist = np.linalg.norm(lab - design @ coef, axis=2)
    dist8 = np.clip(dist * (255 / max(float(dist.max()), 1e-3)), 0, 255).astype(np.uint8)
    otsu, _ = cv2.threshold(dist8, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    # Otsu alone splits art from body on a white die; the table's own spread bounds it from above.
    level = min(otsu * float(dist.max()) / 255, max(2.0 * float(np.percentile(dist[rim], 95)), 8.0))
    # A shadow is the table's own colour, darker: same direction in BGR, shorter. It is not part of a die.
    bgr = cv2.GaussianBlur(small.astype(np.float32), (0, 0), 1.5)
    bcoef, *_ = np.linalg.lstsq(design[rim], bgr[rim], rcond=None)
    table = design @ bcoef
    length = np.linalg.norm(bgr, axis=2) * np.linalg.norm(table, axis=2) + 1e-3
    cosine = np.sum(bgr * table, axis=2) / length
    ratio = bgr.sum(axis=2) / (table.sum(axis=2) + 1e-3)
    shadow = (cosine > SHADOW_COSINE) & (ratio < 0.97) & (ratio > 0.45)  # a black die is darker still
    mask = ((dist > level) & ~shadow).astype(np.uint8)
    k = max(3, round(min(sh, sw) / 40))
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((k, k), np.uint8))
    count, _, stats, _ = cv2.connectedComponentsWithStats(mask)
    found: list[tuple[float, Box]] = []
    for i in range(1, count):
        x, y, bw, bh, area = (int(v) for v in stats[i])
        if area < 0.002 * sh * sw or x == 0 or y == 0 or x + bw == sw or y + bh == sh:
            continue
        compact = area / (bw * bh)  # a die fills at least half of its box at any angle
        square = min(bw, bh) / max(bw, bh)
        if compact > 0.45 and square > 0.6:
            box = Box(x / scale, y / scale, (x + bw) / scale, (y + bh) / scale)
            found.append((area * compact * square, box))
    found.sort(key=lambda f: -f[0])
    return [box for _, box in found]
