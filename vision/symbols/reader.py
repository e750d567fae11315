"""Read the symbol dice of an image with a taught profile: boxes in, `Die` values out."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from vision.reading import Box, Die, Image
from vision.symbols.art import Lab
from vision.symbols.finder import find_dice
from vision.symbols.matcher import FaceMatcher


def read_symbol_dice(
    image: Image, matcher: FaceMatcher, boxes: Sequence[Box] | None = None
) -> tuple[Die, ...]:
    """The symbol dice in `image`; `boxes` from the die detector, else found on a plain table."""
    found = list(boxes) if boxes is not None else find_dice(image)
    reads = matcher.read(image, found)
    return tuple(
        Die(
            box=box,
            kind="symbol",
            color=body_name(read.body),
            confidence=read.confidence,
            face=read.face,
            rotation=read.rotation,
        )
        for box, read in zip(found, reads, strict=True)
    )


def body_name(body: Lab) -> str:
    """A palette name for a die's body colour (Lab): white, black, grey as "other", or the hue's name."""
    lightness, a, b = body
    chroma = float(np.hypot(a, b))
    if chroma < 18:
        return "white" if lightness > 70 else "black" if lightness < 30 else "other"
    hue = float(np.degrees(np.arctan2(b, a)) % 360)
    # Lab hue angles of the palette's colours, roughly: red 40, orange 60, yellow 95, green 135, blue 270,
    # purple 320.
    for name, upto in (
        ("red", 50),
        ("orange", 75),
        ("yellow", 110),
        ("green", 200),
        ("blue", 295),
        ("purple", 345),
    ):
        if hue < upto:
            return name
    return "red"
