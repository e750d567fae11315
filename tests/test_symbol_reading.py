"""Teach profiles from rendered teaching photos, read rendered tables: face and rotation, unknown for others.

These run a few tables per set at fixed seeds; `python -m vision.symbols.evaluate` measures on more.
"""

from __future__ import annotations

from functools import cache

import pytest

from vision.render.symbol_art import ICON_SETS
from vision.symbols.evaluate import outcomes, taught_profile
from vision.symbols.profile import SymbolProfile

profile_of = cache(taught_profile)


def shares(results: list[str]) -> tuple[float, float]:
    return results.count("right") / len(results), results.count("wrong") / len(results)


@pytest.mark.parametrize("name", sorted(ICON_SETS))
def test_reads_face_and_rotation_of_its_own_set(name: str) -> None:
    results = outcomes(profile_of(name), name, tables=6, seed=7)
    right, wrong = shares(results)
    assert len(results) >= 50
    assert right >= 0.9, f"{name}: {right:.1%} right"
    assert wrong <= 0.04, f"{name}: {wrong:.1%} wrong"


@pytest.mark.parametrize("name", sorted(ICON_SETS))
def test_faces_of_another_set_are_unknown(name: str) -> None:
    profile: SymbolProfile = profile_of(name)
    others = [other for other in sorted(ICON_SETS) if other != name]
    results = [r for i, other in enumerate(others) for r in outcomes(profile, other, 3, 20 + i)]
    assert results.count("unknown") / len(results) >= 0.95


@pytest.mark.parametrize("colour", ["black", "red"])
def test_profile_taught_on_white_dice_reads_dice_of_another_colour(colour: str) -> None:
    results = outcomes(profile_of("alhambra"), "alhambra", tables=3, seed=3, colors=(colour,))
    right, wrong = shares(results)
    assert right >= 0.9 and wrong == 0
