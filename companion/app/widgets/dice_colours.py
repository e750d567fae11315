"""The colours the yellow and blue dice are drawn in, matched against the real dice on the table.

Hex values, not the names "yellow" and "blue": Textual draws named colours from its ANSI theme (yellow came
out orange, blue purple; with 16 colours yellow turned the footer keys' bright red). These stay yellow and
blue when Textual brings them down to 256 colours (220 and 69) and to 16 (bright yellow 93, bright blue 94).
"""

from __future__ import annotations

YELLOW = "#ffd700"
BLUE = "#5f87ff"

DIE_COLOURS = {"yellow": YELLOW, "blue": BLUE}
"""A die's colour as the game names it → the colour it is drawn in."""
