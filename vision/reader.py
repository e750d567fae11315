"""The one reader: a frame in, every die on the table out, pip dice and symbol dice alike.

The die detector finds every die. With a taught symbol profile, every found die is matched against the
profile's faces: a die that fits a face is that symbol die; one the pip classifier calls "not a pip die" is a
symbol die the profile cannot name (`"unknown"`); any other die is read by the pip classifier. Without a
profile only pip dice are read, as a symbol die is "not a pip die". Both kinds are named by one colour namer
(`vision.pips.name_colour`: the taught colour profile, else the palette rules) from one body colour: the face
pixels of the classifier's crop that are not the table's, pips and art left out (`vision.colour.crop_labs`),
the colour a profile is taught from.
"""

from __future__ import annotations

import numpy as np

from vision.colour import crop_labs
from vision.pips import PipReader, name_colour
from vision.reading import Box, DiceReading, Die, Image
from vision.symbols.matcher import UNKNOWN, FaceMatcher, SymbolRead
from vision.symbols.profile import SymbolProfile

FIRST_LOOK = 1.2
"""The detector's box of a symbol die falls inside the die (0.82-1.04 of its side, median 0.94, on rendered
tables), and the face locator wants the whole die in its box: the box is grown by this factor."""
SECOND_LOOKS = (1.1, 1.3)
"""A die the first look leaves unknown is cut again from boxes grown by these factors; it is read as a face
when every look that names one names the same."""


class DiceReader:
    """Reads the pip dice of a frame, and its symbol dice when given a taught symbol profile."""

    def __init__(self, pips: PipReader | None = None, symbols: SymbolProfile | None = None) -> None:
        self.pips = pips or PipReader()
        self.matcher = FaceMatcher(symbols) if symbols is not None else None

    def read(self, image: Image, time: float = 0.0) -> DiceReading:
        """The dice of a BGR frame: pip dice in order of detection confidence, then symbol dice."""
        found = self.pips.detector(image)
        classified = self.pips.classify(image, found)
        if self.matcher is None or not found:
            return DiceReading(self.pips.pip_dice(found, classified), time)
        reads = self.read_faces(image, [d.box for d in found])
        symbol = np.array([r.face != UNKNOWN for r in reads]) | classified.not_pips()
        pip_found = [d for d, s in zip(found, symbol, strict=True) if not s]
        pips = self.pips.pip_dice(pip_found, classified.subset(~symbol))
        labs = crop_labs(classified.crops[symbol])
        symbols = (
            Die(d.box, "symbol", name_colour(lab, self.pips.colour_profile), r.confidence, face=r.face,
                rotation=r.rotation)
            for d, r, lab in zip(
                [d for d, s in zip(found, symbol, strict=True) if s],
                [r for r, s in zip(reads, symbol, strict=True) if s],
                labs,
                strict=True,
            )
        )  # fmt: skip
        return DiceReading((*pips, *symbols), time)

    def read_faces(self, image: Image, boxes: list[Box], first_look: float = FIRST_LOOK) -> list[SymbolRead]:
        """The symbol face and rotation of the die in each box (which need not be the detector's: a box that
        holds the whole die is looked at as it is, `first_look` 1)."""
        assert self.matcher is not None
        reads = self.matcher.read(image, [grown(b, first_look) for b in boxes])
        unsure = [i for i, r in enumerate(reads) if r.face == UNKNOWN]
        if not unsure:
            return reads
        again = self.matcher.read(image, [grown(boxes[i], k) for i in unsure for k in SECOND_LOOKS])
        for n, i in enumerate(unsure):
            looks = [
                r for r in again[n * len(SECOND_LOOKS) : (n + 1) * len(SECOND_LOOKS)] if r.face != UNKNOWN
            ]
            if len({r.face for r in looks}) == 1:
                reads[i] = max(looks, key=lambda r: r.confidence)
        return reads


def grown(box: Box, factor: float) -> Box:
    """The box scaled by `factor` about its centre."""
    cx, cy = box.center
    half_w, half_h = box.width * factor / 2, box.height * factor / 2
    return Box(cx - half_w, cy - half_h, cx + half_w, cy + half_h)
