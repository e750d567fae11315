"""Match cut faces against taught faces: normalised cross-correlation of art maps at the four rotations.

Nothing here is trained on any artwork: each taught photo becomes a handful of templates (small shifts,
scales and turns, at the four quarter turns), and a die is the taught face whose best template correlates
most. A die is "unknown" unless that best correlation clears the face's threshold AND beats every other face
by the profile's margin — an unsure die is reported unknown, never as a wrong face. The margin shrinks for a
pair of faces that look alike (see `pair_margins`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cache, cached_property

import cv2
import numpy as np
import numpy.typing as npt

from vision.colour import Lab
from vision.reading import UNKNOWN, Box, Image, Rotation
from vision.symbols.art import cut_arts, per_patch
from vision.symbols.locate import cut_faces
from vision.symbols.profile import SymbolProfile

Float = npt.NDArray[np.float32]

SHIFT = 3
"""Margin (patch pixels) between a patch and its window: room for the shifted windows of the templates."""
STEP = 2
"""Shift (patch pixels) of the templates' side windows: a face cut a little off centre still matches."""
POSES = ((1.0, 0.0), (1.0, -4.0), (1.0, 4.0), (0.92, 0.0), (1.08, 0.0))
"""(scale, angle°) of template variants: a face cut a little too large or small, or turned, still matches."""
ROTATIONS: tuple[Rotation, ...] = (0, 90, 180, 270)
DISTINCT = 0.5
"""Faces whose templates correlate at most this much are told apart by the profile's whole margin."""


@dataclass(frozen=True)
class SymbolRead:
    """One die's face as read: label (or "unknown"), rotation against the taught face, and match scores."""

    face: str
    rotation: Rotation
    confidence: float
    best: str  # the best-matching taught face even when not accepted (for diagnostics)
    runner_up: float  # best score of any other face
    body: Lab  # the die's body colour (Lab)
    angle: float = 0.0
    """The face square's turn in the image, degrees in [-45, 45), clockwise as seen (of the cut read)."""


def transform(art: Float, scale: float, angle: float) -> Float:
    """The art map scaled and turned (degrees) about its centre."""
    n = art.shape[0]
    c = (n - 1) / 2
    m = cv2.getRotationMatrix2D((c, c), angle, scale)
    return np.asarray(cv2.warpAffine(art, m, (n, n), borderMode=cv2.BORDER_REPLICATE), np.float32)


def _gradient(image: Float) -> Float:
    gx = cv2.Sobel(image, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(image, cv2.CV_32F, 0, 1, ksize=3)
    return np.asarray(cv2.magnitude(gx, gy), np.float32)


def describe_windows(arts: Float, dy: int, dx: int, outlines: Float | None = None) -> Float:
    """Descriptors (B×D) of the windows at (dy, dx): art and outline, each normalised, weighted equally.

    The dot product of two descriptors is the mean of the two correlations. Correlating the art alone
    lets any two large blobs look alike; the outline (gradient magnitude) adds where their boundaries run.
    """
    b, n, _ = arts.shape
    c = n - 2 * SHIFT
    edges = per_patch(_gradient, arts) if outlines is None else outlines
    parts = [a[:, dy : dy + c, dx : dx + c].reshape(b, -1) for a in (arts, edges)]
    rows = np.concatenate([_normalise_rows(p) for p in parts], axis=1)
    return np.asarray(rows / np.sqrt(2), np.float32)


def _normalise_rows(rows: Float) -> Float:
    centred = rows - rows.mean(axis=1, keepdims=True)
    norm = np.linalg.norm(centred, axis=1, keepdims=True)
    return np.asarray(centred / np.maximum(norm, 1e-6), np.float32)


def template_windows(arts: Float) -> Float:
    """Descriptors of art maps (B×P×P) at small shifts and poses: B×(poses·shifts)×D.

    Comparable with the centre windows (`describe_windows(arts, SHIFT, SHIFT)`) of cut faces.
    """
    c, d = SHIFT, STEP
    shifts = ((c, c), (c - d, c), (c + d, c), (c, c - d), (c, c + d))  # the centre and STEP pixels each way
    posed = np.stack(
        [
            art if (scale, angle) == (1.0, 0.0) else transform(art, scale, angle)
            for art in arts
            for scale, angle in POSES
        ]
    )
    edges = per_patch(_gradient, posed)
    windows = np.stack([describe_windows(posed, dy, dx, edges) for dy, dx in shifts], axis=1)
    return windows.reshape(len(arts), len(POSES) * len(shifts), -1)


@cache
def _turns(c: int) -> npt.NDArray[np.intp]:
    """Per quarter turn k, the order of a descriptor's values (art and outline windows, c×c each) that gives
    the descriptor of the art turned k quarter turns clockwise: 4×(2·c·c)."""
    window = np.arange(c * c).reshape(c, c)
    turned = [np.rot90(window, -k).ravel() for k in range(len(ROTATIONS))]
    return np.stack([np.concatenate([t, t + c * c]) for t in turned])


class FaceMatcher:
    """The templates of a profile, ready to match many dice with one matrix product.

    A die's face matches a template turned k quarter turns exactly as well as the face turned back matches the
    template itself (the art map, its outline and the windows all turn with it), so the bank holds each
    template once and each die is described at its four quarter turns: a quarter of the bank, and a product
    that runs faster for its taller query.
    """

    def __init__(self, profile: SymbolProfile) -> None:
        self.profile = profile
        blocks = [template_windows(np.asarray(f.templates, np.float32)) for f in profile.faces]
        self.bank_t = np.ascontiguousarray(np.concatenate([b.reshape(-1, b.shape[-1]) for b in blocks]).T)
        self.starts = np.cumsum([0] + [b.shape[0] * b.shape[1] for b in blocks[:-1]])
        """First column of each face's templates in the bank."""
        self.groups = [(fi, rotation) for fi in range(len(profile.faces)) for rotation in ROTATIONS]
        """(face index, rotation) per column of `scores`."""

    @cached_property
    def margins(self) -> Float:
        """`pair_margins`, on the first decision: teaching builds matchers that only score."""
        return pair_margins(self)

    def scores(self, arts: Float | Sequence[Float]) -> Float:
        """Best correlation per art map (rows) and (face, rotation) group (columns)."""
        n = len(arts)
        if n == 0:
            return np.zeros((0, len(self.groups)), np.float32)
        stack = np.asarray(arts, np.float32)
        vectors = describe_windows(stack, SHIFT, SHIFT)
        turns = _turns(stack.shape[1] - 2 * SHIFT)
        # Row k·n + i: die i turned back k quarter turns, against the templates at rotation k.
        corr = vectors[:, turns].transpose(1, 0, 2).reshape(len(ROTATIONS) * n, -1) @ self.bank_t
        best = np.maximum.reduceat(corr, self.starts, axis=1).reshape(len(ROTATIONS), n, -1)
        return np.ascontiguousarray(best.transpose(1, 2, 0).reshape(n, -1), np.float32)

    def decide(self, group_scores: Float, body: Lab) -> SymbolRead:
        n_faces = len(self.profile.faces)
        per_face = group_scores.reshape(n_faces, len(ROTATIONS))
        fi, ki = np.unravel_index(int(np.argmax(per_face)), per_face.shape)
        best = float(per_face[fi, ki])
        lead = np.delete(best - per_face.max(axis=1), fi)
        runner_up = best - float(lead.min()) if len(lead) else -1.0
        face = self.profile.faces[fi]
        accepted = best >= face.threshold and bool(np.all(lead >= np.delete(self.margins[fi], fi)))
        return SymbolRead(
            face=face.label if accepted else UNKNOWN,
            rotation=ROTATIONS[int(ki)],
            confidence=max(0.0, best),
            best=face.label,
            runner_up=runner_up,
            body=body,
        )

    def read(self, image: Image, boxes: Sequence[Box]) -> list[SymbolRead]:
        """Read every die: its face and rotation are those that fit one of its candidate cuts best."""
        per_die = [cut_faces(image, b) for b in boxes]
        arts, bodies = cut_arts(
            [c for cuts in per_die for c in cuts], np.asarray(self.profile.body_lab, np.float32)
        )
        all_scores = self.scores(arts)
        reads, start = [], 0
        for cuts in per_die:
            block = all_scores[start : start + len(cuts)]
            best = int(np.argmax(block.max(axis=1)))
            # The body colour is the best-fitting cut's. The face must lead every other face on every cut:
            # a small blurred F, cut a little off, fits P best while another cut still fits F almost as
            # well, and a die that two cuts read as two faces is unknown rather than possibly wrong.
            read = self.decide(block.max(axis=0), np.asarray(bodies[start + best], np.float32))
            reads.append(replace(read, angle=cuts[best].angle))
            start += len(cuts)
        return reads


def pair_margins(matcher: FaceMatcher) -> Float:
    """The lead (faces × faces) a die's best face must have over each other face.

    Two faces that look alike (a P and an R) score close together on every die showing either: the lead of
    the right one is about the distance between their normalised templates, sqrt(2·(1 − c)) for correlation
    c, and that is what noise must overcome to swap them. The margin is scaled by that distance against
    the distance of DISTINCT faces, so it asks the same certainty of every pair instead of turning all
    look-alikes into "unknown".
    """
    profile = matcher.profile
    n = len(profile.faces)
    close = np.zeros((n, n), np.float32)
    for fi, face in enumerate(profile.faces):
        scores = matcher.scores(np.asarray(face.templates, np.float32))
        close[fi] = scores.reshape(len(face.templates), n, len(ROTATIONS)).max(axis=(0, 2))
    close = np.maximum(close, close.T)
    scale = np.sqrt(np.clip((1 - close) / (1 - DISTINCT), 0.0, 1.0))
    return np.asarray(profile.margin * scale, np.float32)
