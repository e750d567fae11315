"""The JSON limit scan is linear in its input: a string never closed, full of escaped quotes, is one token
(it used to be scanned again from every quote inside it: 100 KB took 80 s)."""

from __future__ import annotations

import time

import pytest

from jsonfile import JsonFileError, Limits, loads

LIMITS = Limits(size=3_000_000)


def seconds(data: bytes) -> float:
    start = time.perf_counter()
    with pytest.raises(JsonFileError):
        loads(data, LIMITS)
    return time.perf_counter() - start


def test_a_crafted_file_is_refused_as_fast_as_a_plain_one_of_its_size() -> None:
    crafted = b"[" + b'"\\"\\"\\"",' * 200_000 + b'"' + b'\\"' * 40_000
    plain = b"[" + b'"aaaaaa",' * 200_000 + b'"' + b"a" * 80_000
    assert abs(len(crafted) - len(plain)) < 10
    # The quickest of three runs each: the machine's other work does not count. Alone the crafted file takes
    # about twice the plain one's time (its escapes are read one by one), 3.4 times in a full suite on two
    # busy cores; the scan that was quadratic took thousands of times as long at this size.
    crafted_s = min(seconds(crafted) for _ in range(3))
    plain_s = min(seconds(plain) for _ in range(3))
    assert crafted_s <= 10 * plain_s + 0.05, (crafted_s, plain_s)


def test_the_reported_file_is_refused_at_once_in_one_line() -> None:
    """A score file whose last `}` became `,"x":"` and 50,000 copies of `\\"`."""
    data = b'{"players": ["Ann", "Ben"], "scores": [1, 2, 3]' + b',"x":"' + b'\\"' * 50_000
    with pytest.raises(JsonFileError, match=r"line 1, column \d+: not valid JSON \(Unterminated string"):
        loads(data, LIMITS)
