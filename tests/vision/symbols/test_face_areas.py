"""A taught face's city areas at a read rotation."""

from __future__ import annotations

import numpy as np
import pytest

from vision.reading import Rotation
from vision.symbols.profile import SymbolProfile, TaughtFace, turned


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
    assert turned(frozenset(taught), rotation) == frozenset(expected)


def test_four_quarter_turns_give_back_the_taught_edges() -> None:
    taught = frozenset({"top", "right", "left"})
    edges = taught
    for _ in range(4):
        edges = turned(edges, 90)
    assert edges == taught


def test_a_faces_areas_turn_with_it_and_stay_apart() -> None:
    blank = (np.zeros((32, 32), np.uint8),)
    caps = (frozenset({"top"}), frozenset({"bottom"}))
    profile = SymbolProfile(
        (
            TaughtFace("city2", blank, 0.7, (frozenset({"top", "left"}),)),
            TaughtFace("caps", blank, 0.7, caps),
            TaughtFace("knight", blank, 0.7),
        ),
        (90, 0, 0),
        0.1,
    )
    assert profile.face("city2").areas_at(180) == (frozenset({"bottom", "right"}),)
    assert profile.face("caps").areas_at(90) == (frozenset({"left"}), frozenset({"right"}))
    assert profile.face("caps").edges == frozenset({"top", "bottom"})
    assert profile.face("knight").areas_at(90) == () and not profile.face("knight").edges
    with pytest.raises(KeyError, match="no taught face 'tower'"):
        profile.face("tower")
