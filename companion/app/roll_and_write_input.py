"""Roll & Write's dice as typed or read: `PipDie` values, who read them (`DiceSource`), typed text parsed.

The keyboard, a mouse click, the app's own virtual roll and the camera all hand their dice to the game
screen's `enter_dice`; the screen checks them against what the game expects now and hands them on to the
engine.
"""

from __future__ import annotations

import re
from typing import Literal

from companion.live.pip_die import Colour, PipDie

__all__ = ["COLOUR_KEYS", "Colour", "DiceSource", "PipDie"]

DiceSource = Literal["keyboard", "mouse", "virtual", "camera"]

COLOUR_KEYS: dict[str, Colour] = {"y": "yellow", "b": "blue"}


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
