"""Match cut faces against taught faces: normalised cross-correlation of art maps at the four rotations.

Nothing here is trained on any artwork: each taught photo becomes a handful of templates (small shifts and
scales, the four quarter turns), and a die is the taught face whose best template correlates most. A die is
"unknown" unless that best correlation clears the profile's threshold AND beats every other face by the
profile's margin — an unsure die is reported unknown, never as a wrong face.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from vision.reading import Box, Image, Rotation
from vision.symbols.art import Lab, art_map, body_colour, to_lab
from vision.symbols.locate import cut_faces
from vision.symbols.profile import SymbolProfile

Float = npt.NDArray[np.float32]

SHIFT = 3
"""Shift radius (patch pixels) that the windows absorb: a face found a little off centre still matches."""
STEP = 2
SCALES = (0.92, 1.0, 1.08)
"""A face found a little too large or small still matches."""
ROTATIONS: tuple[Rotation, ...] = (0, 90, 180, 270)
UNKNOWN = "unknown"


@dataclass(frozen=True)
class SymbolRead:
    """One die's face as read: label (or "unknown"), rotation against the taught face, and match scores."""

    face: str
    rotation: Rotation
    confidence: float
    best: str  # the best-matching taught face even when not accepted (for diagnostics)
    runner_up: float  # best score of any other face
    body: Lab  # the die's body colour (Lab)


def normalise(window: Float) -> Float:
    v = window.ravel().astype(np.float32)
    v = v - v.mean()
    norm = float(np.linalg.norm(v))
    return v / norm if norm > 1e-6 else v


def rescale(art: Float, scale: float) -> Float:
    n = art.shape[0]
    c = (n - 1) / 2
    m = np.array([[scale, 0, (1 - scale) * c], [0, scale, (1 - scale) * c]], np.float32)
    return np.asarray(cv2.warpAffine(art, m, (n, n), borderMode=cv2.BORDER_REPLICATE), np.float32)


def outline(art: Float) -> Float:
    """Gradient magnitude of an art map: where the art's boundaries run."""
    gx = cv2.Sobel(art, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(art, cv2.CV_32F, 0, 1, ksize=3)
    return np.asarray(np.hypot(gx, gy), np.float32)


def describe(art: Float, dy: int, dx: int) -> Float:
    """The descriptor of the window at (dy, dx): art and outline, each normalised, weighted equally.

    The dot product of two descriptors is the mean of the two correlations. Correlating the art alone
    lets any two large blobs look alike; the outline adds where exactly their boundaries run.
    """
    c = art.shape[0] - 2 * SHIFT
    window = art[dy : dy + c, dx : dx + c]
    edges = outline(art)[dy : dy + c, dx : dx + c]
    return np.concatenate([normalise(window), normalise(edges)]) / np.float32(np.sqrt(2))


def centre_window(art: Float) -> Float:
    return describe(art, SHIFT, SHIFT)


def template_windows(art: Float) -> list[Float]:
    """Descriptors of one art map at small shifts and scales (comparable with `centre_window`)."""
    out = []
    offsets = range(SHIFT % STEP, 2 * SHIFT + 1, STEP)
    for scale in SCALES:
        scaled = art if scale == 1.0 else rescale(art, scale)
        out += [describe(scaled, dy, dx) for dy in offsets for dx in offsets]
    return out


class FaceMatcher:
    """The templates of a profile, ready to match many dice with one matrix product."""

    def __init__(self, profile: SymbolProfile) -> None:
        self.profile = profile
        rows: list[Float] = []
        group_starts: list[int] = []
        self.groups: list[tuple[int, Rotation]] = []  # (face index, rotation) per group of rows
        for fi, face in enumerate(profile.faces):
            for k, rotation in enumerate(ROTATIONS):
                group_starts.append(len(rows))
                self.groups.append((fi, rotation))
                for t in face.templates:
                    rows += template_windows(np.ascontiguousarray(np.rot90(t.astype(np.float32), k)))
        self.bank = np.stack(rows)
        self.starts = np.array(group_starts)

    def arts(self, image: Image, box: Box) -> tuple[list[Float], Lab]:
        """Art maps of the candidate cuts of the die in `box` (upright modulo 90°), and its body colour."""
        taught = self.profile.body_lab
        cuts = cut_faces(image, box)
        bodies = [body_colour(to_lab(c.rim), taught) for c in cuts]
        return [art_map(to_lab(c.patch), b) for c, b in zip(cuts, bodies, strict=True)], bodies[0]

    def scores(self, arts: Sequence[Float]) -> Float:
        """Best correlation per art map (rows) and (face, rotation) group (columns)."""
        if not arts:
            return np.zeros((0, len(self.groups)), np.float32)
        vectors = np.stack([centre_window(a) for a in arts])
        corr = vectors @ self.bank.T
        return np.asarray(np.maximum.reduceat(corr, self.starts, axis=1), np.float32)

    def decide(self, group_scores: Float, body: Lab) -> SymbolRead:
        n_faces = len(self.profile.faces)
        per_face = group_scores.reshape(n_faces, len(ROTATIONS))
        fi, ki = np.unravel_index(int(np.argmax(per_face)), per_face.shape)
        best = float(per_face[fi, ki])
        others = np.delete(per_face.max(axis=1), fi)
        runner_up = float(others.max()) if len(others) else -1.0
        label = self.profile.faces[fi].label
        accepted = best >= self.profile.threshold and best - runner_up >= self.profile.margin
        return SymbolRead(
            face=label if accepted else UNKNOWN,
            rotation=ROTATIONS[int(ki)],
            confidence=max(0.0, best),
            best=label,
            runner_up=runner_up,
            body=body,
        )

    def read(self, image: Image, boxes: Sequence[Box]) -> list[SymbolRead]:
        """Read every die: each keeps the candidate cut that fits a taught face best."""
        per_die = [self.arts(image, b) for b in boxes]
        if not per_die:
            return []
        all_scores = self.scores([a for arts, _ in per_die for a in arts])
        reads, start = [], 0
        for arts, body in per_die:
            reads.append(self.decide(all_scores[start : start + len(arts)].max(axis=0), body))
            start += len(arts)
        return reads
