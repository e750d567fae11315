"""The one way dice values enter a game: a `DiceEntered` message, whoever read the dice.

The keyboard, a mouse click, the app's own virtual roll and (later) the camera all post the same message to
the game screen; the screen checks it against what the game expects now and hands it to the engine.
"""

from __future__ import annotations

import re
from typing import Literal

from textual.message import Message

from companion.live.pip_die import Colour, PipDie

__all__ = ["COLOUR_KEYS", "Colour", "DiceEntered", "DiceSource", "PipDie"]

DiceSource = Literal["keyboard", "mouse", "virtual", "camera"]

COLOUR_KEYS: dict[str, Colour] = {"y": "yellow", "b": "blue"}


class DiceEntered(Message):
    """Dice values for the roll the game expects now.

    `source` says who read them ("keyboard", "mouse", "virtual" for the app's own roll, "camera");
    `note` is free text kept for the log line (e.g. what the camera read before a user's fix).
    """

    def __init__(self, dice: tuple[PipDie, ...], source: DiceSource, note: str = "") -> None:
        super().__init__()
        self.dice = dice
        self.source = source
        self.note = note


class DiceSyntaxError(ValueError):
    """Typed dice that cannot be read, with the reason."""


_TOKEN = re.compile(r"([a-z])(\d+)")


def parse_dice(text: str) -> tuple[PipDie, ...]:
    """Read typed dice like `y3 b5` (spaces optional, case ignored) into dice in the order given."""
    compact = "".join(text.lower().split())
    dice: list[PipDie] = []
    position = 0
    for match in _TOKEN.finditer(compact):
        if match.start() != position:
            raise DiceSyntaxError(f"cannot read {compact[position : match.start()]!r}: type e.g. y3 b5")
        letter, digits = match.groups()
        if letter not in COLOUR_KEYS:
            raise DiceSyntaxError(f"{letter!r} is no dice colour: use y (yellow) or b (blue)")
        value = int(digits)
        if not 1 <= value <= 6:
            raise DiceSyntaxError(f"{letter}{digits}: a die shows 1 to 6")
        dice.append(PipDie(COLOUR_KEYS[letter], value))
        position = match.end()
    if position != len(compact):
        raise DiceSyntaxError(f"cannot read {compact[position:]!r}: type e.g. y3 b5")
    return tuple(dice)
