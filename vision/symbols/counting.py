"""Counting helpers for symbol-dice games: pure functions over readings and profiles (no OpenCV)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from vision.reading import DiceReading, Rotation
from vision.symbols.profile import EDGES, SymbolProfile

UNKNOWN = "unknown"


def count_faces(reading: DiceReading) -> dict[str, int]:
    """Symbol dice per face label (Alhambra dice game: dice showing each building); unknown dice left out."""
    faces: Iterable[str] = (
        d.face for d in reading.dice if d.kind == "symbol" and d.face is not None and d.face != UNKNOWN
    )
    return dict(Counter(faces))


def edges_at(taught: frozenset[str], rotation: Rotation) -> frozenset[str]:
    """The sides a face's art reaches when the face lies turned `rotation` degrees counter-clockwise.

    A quarter turn counter-clockwise takes the top side to the left, the left to the bottom, and so on.
    """
    steps = rotation // 90
    order = EDGES[::-1]  # left, bottom, right, top: each side follows the one a quarter turn clockwise
    return frozenset(order[(order.index(side) + steps) % 4] for side in taught)


def city_edges(profile: SymbolProfile, face: str, rotation: Rotation) -> frozenset[str]:
    """Carcassonne: which sides of a read city face are city, from the face's taught edges."""
    return edges_at(profile.face(face).edges, rotation)
