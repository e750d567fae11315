"""The token scan is skipped for a text sure to pass it (`_within_limits`): a game log's line, most of
reading a log back. Whatever the text, the skip never lets through what the scan refuses."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jsonfile import _CONTROL_IN_JSON, JsonFileError, Limits, _check_limits, _within_limits, loads

PIECES = st.sampled_from(
    [
        *('{"a": ', "[", "]", "}", ", ", '"x"', "0", "1", "1.5", "1e99", "1e999"),
        *("9" * 15, "9" * 16, "NaN", "-Infinity"),
    ]
)


@settings(max_examples=400, deadline=None)
@given(st.lists(PIECES, max_size=40).map("".join))
def test_a_text_the_scan_is_skipped_for_passes_the_scan(text: str) -> None:
    limits = Limits(depth=5)
    if _within_limits(text, limits):
        _check_limits(text, limits, 1)  # raises nothing


@settings(max_examples=400, deadline=None)
@given(st.text())
def test_a_printable_text_without_a_backslash_holds_no_character_searched_for(text: str) -> None:
    if "\\" not in text and text.isprintable():
        assert _CONTROL_IN_JSON.search(text) is None


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("[" * 21 + "]" * 21, "nested over 20 deep"),
        ("[1e999]", "out of range"),
        ("[" + "9" * 16 + "]", "a number of 16 digits"),
        ("[NaN]", "not a number JSON allows"),
        ('["a\\u0007"]', "control character"),
        ('["a\u200bb"]', "control character"),
    ],
)
def test_what_the_scan_refuses_is_still_refused(text: str, says: str) -> None:
    with pytest.raises(JsonFileError, match=says):
        loads(text.encode())
