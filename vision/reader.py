"""The one reader: a frame in, every die on the table out, pip dice and symbol dice alike.

The die detector finds every die. With a taught symbol profile, every found die's face is cut square and
turned into a vector by the face embedder (`vision.symbols.embed`), read as the nearest taught face: a die
that is near enough one is that symbol die; one the pip classifier calls "not a pip die" is a symbol die
the profile cannot name (`"unknown"`) when its cut looks like a die's face or the detector is sure of it, and
no die at all otherwise (a laptop key, a cable end); any other die is read by the pip classifier. Without a
profile only pip dice are read, as a symbol die is "not a pip die". Both kinds are named by one colour namer
(`vision.pips.name_colour`: the taught colour profile, else the palette rules) from one body colour: the face
pixels of the classifier's crop that are not the table's, pips and art left out (`vision.colour.crop_labs`),
the colour a profile is taught from.
"""

from __future__ import annotations

from dataclasses import replace
from functools import cached_property

import numpy as np

from vision.colour import crop_labs
from vision.detect import Detection
from vision.pips import OFFERED_FIND, PipReader, name_colour
from vision.reading import ASKED, SURE_READ, UNKNOWN, Box, DiceReading, Die, Image
from vision.symbols.embed import FaceEmbedder, FaceRead, TaughtFaces
from vision.symbols.matcher import FaceMatcher, SymbolRead
from vision.symbols.profile import SymbolProfile

FIRST_LOOK = 1.2
"""The detector's box of a symbol die falls inside the die (0.82-1.04 of its side, median 0.94, on rendered
tables), and the face locator wants the whole die in its box: the box is grown by this factor."""
SECOND_LOOKS = (1.1, 1.3)
"""A die or city cell the template matcher's first look leaves unknown is cut again from boxes grown by these
factors; it is read as a face when every look that names one names the same."""
SURE_AGREEMENT = 0.8
"""A die the two readers agree on is as sure as the surer of them only when the embedder finds it at least
this similar to its nearest taught vector; else it is named but asked. On the real sets' training halves, read
by nets that never saw the set, the two readers agreed on 15-20% of the dice of a face left untaught, on 0-3%
at this similarity; agreeing only at it would have cost 20 points of the taught dice named."""
AGREEMENT_FLOOR = 0.7
"""...and names it at all only when the embedder finds it at least this similar to that vector: a face never
taught is often a near copy of a taught one (a one of a three, a six of a four) that both readers take for it.
With the shipped embedder, where nothing is measured (the real sets' training halves, `lab.symbol_real
--validate`; rendered tables of five icon sets, `lab.symbol_evaluate --boxes detector --untaught`), every die
the templates' word named right was at least 0.74 similar, and most dice of a face never taught that it named
were less: 0.7 is the round floor under the first. At 0.5 (chosen with nets that never saw the set, which find
right dice less similar) it named 7-13% of an untaught face's dice on the real halves, at 0.7 2-4%, and no
right die fewer. With those nets 0.7 names 6-8 points fewer dice of a set never seen (all asked), but they
named 77% at most: such a table's rolls are asked either way."""
DIE_FACE = 0.5
"""A find neither named nor a pip die is an unknown symbol die when the embedder scores its cut at least this
much a die's face; below, it is no die, unless the detector found it at `OFFERED_FIND` or more: the embedder
scored the Carcassonne dice's full city, art to every edge, 0.1-0.2 a die's face (a patch of a table's
pattern), and those dice, found at 0.9 and never shown to the templates, went from the throw unsaid."""
UNKNOWN_FIND = 0.5
"""... and when the detector found it at least this surely. On the real sets' training halves (nets that never
saw the set) every die was found at 0.54 or more, and the finds reported that were no die (laptop keys at the
webcam's edge) at 0.37 and 0.43; 1 of 540 rendered symbol dice was found below it (0.39)."""


class DiceReader:
    """Reads the pip dice of a frame, and its symbol dice when given a taught symbol profile."""

    def __init__(
        self,
        pips: PipReader | None = None,
        symbols: SymbolProfile | None = None,
        embedder: FaceEmbedder | None = None,
    ) -> None:
        self.pips = pips or PipReader()
        self.profile = symbols
        # A profile without the embedder's vectors (or with another embedder's) is refused here, once.
        self.faces = TaughtFaces(symbols, embedder) if symbols is not None else None

    @cached_property
    def matcher(self) -> FaceMatcher | None:
        """The profile's template matcher, for the city reader's grid cells (`read_faces`)."""
        return FaceMatcher(self.profile) if self.profile is not None else None

    def read(self, image: Image, time: float = 0.0) -> DiceReading:
        """The dice of a BGR frame: pip dice in order of detection confidence, then symbol dice."""
        found = self.pips.detector(image)
        if self.faces is None or not found:
            return DiceReading(self.pips.pip_dice(found, self.pips.classify(image, found)), time)
        both_crops = self.pips.both_crops(image, found)
        crops = both_crops[: len(found)]
        reads = self.agreed(image, found, self.faces.read(image, found, crops))
        named = np.array([r.face != UNKNOWN for r in reads])
        # A die the profile names is a symbol die whatever the pip classifier makes of it, so only the others
        # are classified: on a symbol game's table that is most of the classifier's time saved.
        rest = np.flatnonzero(~named)
        classified = self.pips.classified(both_crops[np.concatenate([rest, rest + len(found)])])
        not_pips = np.zeros(len(found), bool)
        not_pips[rest] = classified.not_pips()
        unknown_die = np.array(
            [a_die_face(r, f) and f.score >= UNKNOWN_FIND for r, f in zip(reads, found, strict=True)]
        )
        symbol = named | (not_pips & unknown_die)
        pip = ~symbol & ~not_pips
        pips = self.pips.pip_dice(
            [d for d, s in zip(found, pip, strict=True) if s], classified.subset(pip[rest])
        )
        labs = crop_labs(crops[symbol])
        symbols = (
            Die(d.box, "symbol", name_colour(lab, self.pips.colour_profile), r.confidence, face=r.face,
                rotation=r.rotation, found=d.score)
            for d, r, lab in zip(
                [d for d, s in zip(found, symbol, strict=True) if s],
                [r for r, s in zip(reads, symbol, strict=True) if s],
                labs,
                strict=True,
            )
        )  # fmt: skip
        return DiceReading((*pips, *symbols), time)

    def agreed(self, image: Image, found: list[Detection], reads: list[FaceRead]) -> list[FaceRead]:
        """The reads, each die the embedder leaves unknown or unsure (and finds at least `AGREEMENT_FLOOR`
        like a taught face) looked at by the template matcher too: where it names the face the embedder finds
        nearest, the die is that face, as sure as the surer of the two words (the templates' alone where the
        embedder named no face). Two readers that fail differently (the templates on real dice's cuts, the
        embedder on art far from what it learned) agreeing on a die is better evidence than either alone."""
        unsure = [
            i
            for i, r in enumerate(reads)
            if (r.face == UNKNOWN or r.confidence < SURE_READ)
            and a_die_face(r, found[i])
            and r.similarity >= AGREEMENT_FLOOR
        ]
        if not unsure:
            return reads
        looks = self.read_faces(image, [found[i].box for i in unsure])
        out = list(reads)
        for i, look in zip(unsure, looks, strict=True):
            if look.face == reads[i].nearest:
                # An unnamed die's confidence is the softmax over the faces, no word on it: the embedder left
                # a tray six unnamed at 0.84 similar with a softmax of 0.80, and with a profile that never
                # taught six the templates' agreeing "four" entered it as four unasked (`lab.symbol_real`).
                own = reads[i].confidence if reads[i].face != UNKNOWN else 0.0
                sure = max(own, look.confidence)
                if reads[i].similarity < SURE_AGREEMENT or reads[i].doubted:
                    # The templates read the box grown, side faces and all: the view that doubted it.
                    sure = min(sure, ASKED)
                out[i] = replace(reads[i], face=look.face, rotation=look.rotation, confidence=sure)
        return out

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


def a_die_face(read: FaceRead, find: Detection) -> bool:
    """Whether a find is a die's face, by the embedder's word (`DIE_FACE`) or by the detector's."""
    return read.die_face >= DIE_FACE or find.score >= OFFERED_FIND


def grown(box: Box, factor: float) -> Box:
    """The box scaled by `factor` about its centre."""
    cx, cy = box.center
    half_w, half_h = box.width * factor / 2, box.height * factor / 2
    return Box(cx - half_w, cy - half_h, cx + half_w, cy + half_h)
