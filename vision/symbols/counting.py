"""Counting helpers for symbol-dice games: pure functions over readings (no OpenCV)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from vision.reading import UNKNOWN, DiceReading


def count_faces(reading: DiceReading) -> dict[str, int]:
    """Symbol dice per face label (Alhambra dice game: dice showing each building); unknown dice left out."""
    faces: Iterable[str] = (
        d.face for d in reading.dice if d.kind == "symbol" and d.face is not None and d.face != UNKNOWN
    )
    return dict(Counter(faces))
