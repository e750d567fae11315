"""The one check of a count that every validator uses: a whole number, never a bool (JSON's `true` is an int
to Python, and passed as 1), within the bounds given; refused in the caller's error, in one message shape."""

from __future__ import annotations

import pytest

from jsonfile import is_whole_number, whole_number


class _Refused(ValueError):
    pass


@pytest.mark.parametrize(
    ("value", "low", "high", "whole"),
    [
        (0, None, None, True),
        (-7, None, None, True),
        (3, 3, 3, True),
        (9, None, 9, True),
        (10, None, 9, False),
        (2, 3, None, False),
        (True, None, None, False),
        (False, 0, 1, False),
        (1.0, None, None, False),
        ("1", None, None, False),
        (None, None, None, False),
    ],
)
def test_a_whole_number_is_an_int_within_its_bounds_and_no_bool(
    value: object, low: int | None, high: int | None, whole: bool
) -> None:
    assert is_whole_number(value, low, high) is whole


def test_a_whole_number_is_given_back() -> None:
    assert whole_number(4, 0, 9, "dice", _Refused) == 4


@pytest.mark.parametrize(
    ("low", "high", "what", "message"),
    [
        (0, 9, "", "dice: must be a whole number 0–9, got true"),
        (None, 9, "", "dice: must be a whole number up to 9, got true"),
        (None, None, "", "dice: must be a whole number, got true"),
        (0, None, "a tile's place (0, 1, …)", "dice: must be a tile's place (0, 1, …), got true"),
    ],
)
def test_anything_else_is_the_callers_error_naming_the_place_and_the_value(
    low: int | None, high: int | None, what: str, message: str
) -> None:
    with pytest.raises(_Refused) as refused:
        whole_number(True, low, high, "dice", _Refused, what)
    assert str(refused.value) == message
