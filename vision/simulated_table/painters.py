"""Face painters: each draws the square top face of one kind of die (protocol: `vision.simulated_table`)."""

from __future__ import annotations

import string
from dataclasses import dataclass
from typing import Protocol

import cv2
import numpy as np

from vision.reading import Image, Kind

BGR = tuple[int, int, int]

# Pip centres on a unit face, per value; the layouts every Western d6 uses.
_PIP_LAYOUT: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0.5, 0.5),),
    2: ((0.25, 0.25), (0.75, 0.75)),
    3: ((0.25, 0.25), (0.5, 0.5), (0.75, 0.75)),
    4: ((0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)),
    5: ((0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)),
    6: ((0.25, 0.25), (0.75, 0.25), (0.25, 0.5), (0.75, 0.5), (0.25, 0.75), (0.75, 0.75)),
}


class FacePainter(Protocol):
    """Draws the top face of a die; the scene composer warps it onto the die and adds sides, light, blur."""

    @property
    def kind(self) -> Kind: ...

    @property
    def labels(self) -> tuple[str, ...]: ...

    def paint(self, label: str, size: int, body: BGR, ink: BGR, rng: np.random.Generator) -> Image:
        """A size×size BGR image of the face showing `label`, drawn edge to edge on the body colour."""
        ...


def blank_face(size: int, body: BGR, rng: np.random.Generator) -> Image:
    """The body colour with the slight shading of a rounded plastic face (darker towards the edges)."""
    face = np.empty((size, size, 3), np.float32)
    face[:] = body
    ramp = np.minimum(np.arange(size), np.arange(size)[::-1]).astype(np.float32) / max(size / 2, 1)
    edge = np.minimum.outer(ramp, ramp)
    depth = rng.uniform(0.05, 0.3)
    face *= (1 - depth * np.clip(1 - edge / 0.18, 0, 1))[..., None]
    return np.clip(face, 0, 255).astype(np.uint8)


@dataclass(frozen=True)
class PipPainter:
    """Pip faces 1-6: round or square pips, of varied size and spacing."""

    kind: Kind = "pip"
    labels: tuple[str, ...] = ("1", "2", "3", "4", "5", "6")

    def paint(self, label: str, size: int, body: BGR, ink: BGR, rng: np.random.Generator) -> Image:
        face = blank_face(size, body, rng)
        value = int(label)
        radius = size * rng.uniform(0.07, 0.12) * (1.35 if value == 1 and rng.random() < 0.3 else 1.0)
        spread = rng.uniform(0.85, 1.1)
        square = rng.random() < 0.12
        scale = 16  # sub-pixel drawing: cv2 takes integer coordinates in 1/16 px with shift=4
        for u, v in _PIP_LAYOUT[value]:
            cx = (0.5 + (u - 0.5) * spread) * size
            cy = (0.5 + (v - 0.5) * spread) * size
            if square:
                r = radius * 0.9
                pts = np.array([[cx - r, cy - r], [cx + r, cy - r], [cx + r, cy + r], [cx - r, cy + r]])
                cv2.fillConvexPoly(face, (pts * scale).astype(np.int32), ink, cv2.LINE_AA, shift=4)
            else:
                center = (round(cx * scale), round(cy * scale))
                cv2.circle(face, center, round(radius * scale), ink, -1, cv2.LINE_AA, shift=4)
        return face


@dataclass(frozen=True)
class GlyphPainter:
    """Random non-pip face art (letters, shapes, lines): teaches the detector that symbol dice are dice."""

    kind: Kind = "symbol"
    labels: tuple[str, ...] = ("glyph",)

    def paint(self, label: str, size: int, body: BGR, ink: BGR, rng: np.random.Generator) -> Image:
        face = blank_face(size, body, rng)
        for _ in range(int(rng.integers(1, 4))):
            pick = rng.integers(0, 4)
            thick = max(1, int(size * rng.uniform(0.03, 0.09)))
            p = (rng.uniform(0.2, 0.8, size=4) * size).astype(int)
            if pick == 0:
                text = "".join(rng.choice(list(string.ascii_uppercase + "&#@$%")) for _ in range(1))
                cv2.putText(
                    face, text, (int(size * 0.22), int(size * 0.78)), int(rng.integers(0, 8)),
                    size / 40, ink, thick, cv2.LINE_AA,
                )  # fmt: skip
            elif pick == 1:
                cv2.line(face, (p[0], p[1]), (p[2], p[3]), ink, thick, cv2.LINE_AA)
            elif pick == 2:
                cv2.rectangle(face, (p[0], p[1]), (p[2], p[3]), ink, -1 if rng.random() < 0.5 else thick)
            else:
                pts = (rng.uniform(0.15, 0.85, size=(int(rng.integers(3, 7)), 2)) * size).astype(np.int32)
                cv2.fillPoly(face, [pts], ink, cv2.LINE_AA)
        return face
