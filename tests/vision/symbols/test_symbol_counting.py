"""Counting helpers: faces per label in a reading, city edges at a read rotation."""

from __future__ import annotations

import numpy as np
import pytest

from vision.reading import Box, DiceReading, Die, Rotation
from vision.symbols.counting import city_edges, count_faces, edges_at
from vision.symbols.profile import SymbolProfile, TaughtFace


def die(face: str, kind: str = "symbol") -> Die:
    if kind == "pip":
        return Die(Box(0, 0, 1, 1), "pip", "white", 0.9, value=3)
    return Die(Box(0, 0, 1, 1), "symbol", "white", 0.9, face=face, rotation=0)


def test_count_faces_leaves_out_unknown_and_pips() -> None:
    reading = DiceReading(
        (die("tower"), die("tower"), die("garden"), die("unknown"), die("", kind="pip")), time=0.0
    )
    assert count_faces(reading) == {"tower": 2, "garden": 1}
    assert count_faces(DiceReading((), time=0.0)) == {}


@pytest.mark.parametrize(
    ("taught", "rotation", "expected"),
    [
        ({"top"}, 0, {"top"}),
        ({"top"}, 90, {"left"}),  # a quarter turn counter-clockwise takes the top to the left
        ({"top"}, 180, {"bottom"}),
        ({"top"}, 270, {"right"}),
        ({"top", "left"}, 90, {"left", "bottom"}),
        ({"top", "bottom"}, 90, {"left", "right"}),
        (set(), 270, set()),
    ],
)
def test_edges_turn_with_the_face(taught: set[str], rotation: Rotation, expected: set[str]) -> None:
    assert edges_at(frozenset(taught), rotation) == frozenset(expected)


def test_four_quarter_turns_give_back_the_taught_edges() -> None:
    taught = frozenset({"top", "right", "left"})
    edges = taught
    for _ in range(4):
        edges = edges_at(edges, 90)
    assert edges == taught


def test_city_edges_from_profile() -> None:
    blank = (np.zeros((32, 32), np.uint8),)
    profile = SymbolProfile(
        (TaughtFace("city2", blank, 0.7, frozenset({"top", "left"})), TaughtFace("knight", blank, 0.7)),
        (90, 0, 0),
        0.1,
    )
    assert city_edges(profile, "city2", 180) == frozenset({"bottom", "right"})
    assert city_edges(profile, "knight", 90) == frozenset()
    with pytest.raises(KeyError, match="no taught face 'tower'"):
        city_edges(profile, "tower", 0)
