"""`lab.symbol_real`'s tally: each labelled die counted once, and asked unless named at 0.8 or more; the
mean of a set's draws."""

from __future__ import annotations

from lab.symbol_real import Tally, count, mean_row
from vision.dataset import LabelledDie
from vision.reading import UNKNOWN, Box, DiceReading, Die


def symbol(x: float, face: str, confidence: float, found: float | None = None) -> Die:
    return Die(Box(x, 0, x + 10, 10), "symbol", "white", confidence, face=face, rotation=0, found=found)


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
    # Settling leaves out the unknown die read at 0.3: at the table two dice of five are missing.
    assert figures["missed_at_table"] == 0.4


def test_a_die_found_surely_is_not_missed_at_the_table_however_unsurely_read() -> None:
    truth = [LabelledDie(1, Box(20, 0, 30, 10)), LabelledDie(2, Box(40, 0, 50, 10))]
    reading = DiceReading((symbol(20, UNKNOWN, 0.3, found=0.9), symbol(40, "two", 0.4, found=0.5)), 0.0)
    tally = Tally()
    count(reading, truth, tally, None)
    assert (tally.missed, tally.missed_at_table) == (0, 1)


def test_a_face_never_taught_named_surely_is_counted() -> None:
    """A die of a face left out of the profile should be unknown; named at 0.8 or more it would be entered
    wrong without a question, which the tally counts apart from the named ones."""
    truth = [LabelledDie(3, Box(20.0 * k, 0, 20.0 * k + 10, 10)) for k in range(1, 5)] + [
        LabelledDie(1, Box(100, 0, 110, 10))
    ]
    reading = DiceReading(
        (
            symbol(20, UNKNOWN, 0.3),  # left unnamed, as it should
            symbol(40, "two", 0.6),  # named, but asked
            symbol(60, "four", 0.85),  # named surely: entered wrong
            symbol(100, "one", 0.95),  # a taught face's die: not the untaught face's
        ),  # the fourth three is not found: not counted
        0.0,
    )
    tally = Tally()
    count(reading, truth, tally, "three")
    assert (tally.untaught, tally.untaught_named, tally.untaught_sure) == (3, 2, 1)
    assert tally.figures()["untaught_named_surely"] == 1 and tally.dice == 0


def test_the_draws_of_a_set_are_averaged_figure_by_figure() -> None:
    """Which photos teach moves a set's figures by a few dice: `--draws` gives their mean, the counts that
    are the same in every draw (teaching's finds among them, measured once) as they are."""
    finds = {"1.1": 0.99}
    rows: list[dict[str, object]] = [
        {"set": "webcam", "draw": 0, "dice": 48, "right": 0.9583, "untaught_named_surely": 0,
         "teaching_finds_die": finds},
        {"set": "webcam", "draw": 1, "dice": 48, "right": 0.8958, "untaught_named_surely": 3,
         "teaching_finds_die": finds},
    ]  # fmt: skip
    mean = mean_row(rows)
    assert mean["draw"] == "mean" and mean["set"] == "webcam"
    assert mean["right"] == 0.9271 and mean["untaught_named_surely"] == 1.5
    assert mean["dice"] == 48 and isinstance(mean["dice"], int)
    assert mean["teaching_finds_die"] == finds
