"""Match a settled camera reading to the roll the game expects now.

The game says how many yellow and blue dice it waits for; the camera says what lies on the table. A reading
that has exactly those dice, each read with confidence, is applied as it is; finds the reader is unsure of
beyond them (clutter) are passed over. Anything else becomes a proposal the players confirm with one key or
fix by typing, and the fix is logged with what the camera read.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.app.dice_input import PipDie
from companion.games import alhambra_rw as rw
from vision.reading import DiceReading, Die
from vision.settle import SettleSettings

MIN_CONFIDENCE = SettleSettings.steady_confidence
"""Below this the reader is unsure of a die: the players confirm it. The settler's line between steady dice
and finds that may flicker: a find passed over here is one that could not keep a throw from settling."""

GAME_COLOURS = ("yellow", "blue")


@dataclass(frozen=True)
class Proposal:
    """The dice to enter for the expected roll, and whether they can go in without asking."""

    dice: tuple[PipDie, ...]
    sure: bool
    problem: str
    """Why the players are asked ('' when sure)."""
    read: str
    """What the camera read, e.g. `y3 b5 red 2`: kept in the log when the players fix it."""

    @property
    def complete(self) -> bool:
        """All the dice the roll needs were seen (`k` can accept them)."""
        return bool(self.dice)


def describe_reading(reading: DiceReading) -> str:
    """Short text of a reading: game dice as typed (`y3`), other colours by name."""
    parts = []
    order = {colour: n for n, colour in enumerate(GAME_COLOURS)}
    for die in sorted(reading.dice, key=lambda d: (order.get(d.color, len(order)), d.color, d.value or 0)):
        value = die.value if die.value is not None else "?"
        parts.append(f"{die.color[0]}{value}" if die.color in GAME_COLOURS else f"{die.color} {value}")
    return " ".join(parts) or "no dice"


def _count(n: int, colour: str) -> str:
    return f"{n} {colour} {'die' if n == 1 else 'dice'}"


def _sure(die: Die, min_confidence: float) -> bool:
    return die.confidence >= min_confidence


def propose(
    reading: DiceReading, exp: rw.Expectation, min_confidence: float = MIN_CONFIDENCE
) -> Proposal | None:
    """The proposal for the roll `exp` waits for, or None when the game waits for no dice now."""
    if exp.yellow + exp.blue == 0:
        return None
    read = describe_reading(reading)
    problems: list[str] = []
    chosen: list[PipDie] = []
    missing = []
    for colour, wanted in (("yellow", exp.yellow), ("blue", exp.blue)):
        seen: list[Die] = sorted(
            (d for d in reading.dice if d.color == colour and d.value is not None),
            key=lambda d: -d.confidence,
        )
        if all(_sure(d, min_confidence) for d in seen[:wanted]):
            # Beyond the dice the roll needs, read surely, an unsure find is clutter (a button, a dot), not
            # a die the players threw: it is not asked about.
            seen = seen[:wanted] + [d for d in seen[wanted:] if _sure(d, min_confidence)]
        if len(seen) < wanted:
            missing.append(f"{_count(wanted, colour)} expected, {len(seen)} seen")
        elif len(seen) > wanted:
            problems.append(f"{_count(len(seen), colour)} seen, {wanted} expected")
        for die in seen[:wanted]:
            chosen.append(PipDie(colour, die.value))  # type: ignore[arg-type]
            if not _sure(die, min_confidence):
                problems.append(f"unsure of {colour[0]}{die.value} ({die.confidence:.0%})")
    others = [d for d in reading.dice if d.color not in GAME_COLOURS and _sure(d, min_confidence)]
    if others:
        problems.append(
            f"{len(others)} die of another colour ignored"
            if len(others) == 1
            else f"{len(others)} dice of other colours ignored"
        )
    if missing:
        return Proposal((), False, "missing " + "; ".join(missing), read)
    return Proposal(tuple(chosen), not problems, "; ".join(problems), read)


def kept_pair(reading: DiceReading, yellow: tuple[int, ...], blue: tuple[int, ...]) -> tuple[int, int] | None:
    """After rolling all 4 dice, the player takes the kept pair off the table: when the camera then sees
    exactly one yellow and one blue die that were rolled, the kept pair is the other two."""
    left_yellow = [d.value for d in reading.dice if d.color == "yellow"]
    left_blue = [d.value for d in reading.dice if d.color == "blue"]
    if (
        len(reading.dice) != 2
        or len(left_yellow) != 1
        or len(left_blue) != 1
        or len(yellow) != 2
        or len(blue) != 2
    ):
        return None
    if left_yellow[0] not in yellow or left_blue[0] not in blue:
        return None
    kept_yellow = list(yellow)
    kept_yellow.remove(left_yellow[0])
    kept_blue = list(blue)
    kept_blue.remove(left_blue[0])
    return kept_yellow[0], kept_blue[0]
