"""`lab.symbol_real`'s tally: each labelled die counted once, and asked unless named at 0.8 or more."""

from __future__ import annotations

from lab.symbol_real import Tally, count
from vision.dataset import LabelledDie
from vision.reading import UNKNOWN, Box, DiceReading, Die


def symbol(x: float, face: str, confidence: float) -> Die:
    return Die(Box(x, 0, x + 10, 10), "symbol", "white", confidence, face=face, rotation=0)


def test_a_die_not_named_surely_is_asked() -> None:
    truth = [LabelledDie(v, Box(20.0 * v, 0, 20.0 * v + 10, 10)) for v in range(1, 6)]
    reading = DiceReading(
        (
            symbol(20, "one", 0.95),  # right, entered unasked
            symbol(40, "two", 0.6),  # right but asked
            symbol(60, UNKNOWN, 0.3),  # unknown: asked
            symbol(80, "six", 0.9),  # sure but wrong
        ),  # the five is not found: asked
        0.0,
    )
    tally = Tally()
    count(reading, truth, tally, None)
    figures = tally.figures()
    assert (tally.right, tally.unknown, tally.wrong, tally.sure_wrong, tally.missed) == (2, 1, 1, 1, 1)
    assert tally.asked == 3 and figures["asked"] == 0.6
