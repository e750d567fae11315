"""The pip reader: a frame in, the pip dice on the table out (box, value 1-6, colour, confidence).

Two small ONNX models do the work: `die_detector` finds every die (`vision.detect`), `pip_classifier` reads a
crop of each one as 1-6 or "not a pip die" (a symbol die, a stray box; a die it cannot make out is offered at
its likeliest value, `OFFERED_FIND`), and a second, tighter crop of the box alone for a second word on the
value (`Classified.confidences`). Colours come from the die body's
pixels: named by the palette rules of `vision.colour`, or by a taught profile (`vision.colour_profile`).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from vision.colour import Lab, crop_labs, palette_name
from vision.colour_profile import ColourProfile
from vision.crops import CROP_MARGIN, crop_dice
from vision.detect import Detection, Detector, die_sized
from vision.reading import ASKED, Box, DiceReading, Die, Image
from vision.runtime import Model, channels_first

SURE = 0.9
"""A crop read with at least this probability is not looked at again."""

FACE_MARGIN = 0.9
"""Side of the second crop in sides of the die's box (the first is `vision.crops.CROP_MARGIN`, 1.25): the box
alone, so little of the table and of the side faces, whose pips show at an angle and through translucent dice.
Chosen on d6-tray's held-out photos (0.8, 0.9, 1.0, 1.1 tried): of their 3 dice read surely but wrong, the
tight crop names another value for 2; 1.0 and wider for none."""


SURE_FIND = 0.4
"""A die the detector found at less than this is asked about however surely the classifier reads it: the
detector's word that it is a die at all. On the leave-one-set-out rows (`python -m lab.train.left_out`) the
webcam's one find entered wrong was its table's grain (found at 0.33 by a detector that never saw the
webcam, read 6 at 0.82); no die of the three rows read surely and right was found under 0.42. Chosen after
looking at that find."""

OFFERED_FIND = 0.7
OFFERED_VALUE = 0.1
"""A die the detector found at least `OFFERED_FIND` surely that the classifier calls "not a pip die" is still
offered at its likeliest pip value (`Classified.likeliest_pips`), to be asked about, when that value's
confidence is at least `OFFERED_VALUE`: a die the reader cannot make out, not clutter, reported rather than
lost. (The live table's settling keeps every die found so surely, however unsurely it is read:
`vision.settle.SettleSettings.kept_find`.) Chosen on the leave-one-set-out rows (`python -m
lab.train.left_out`), where the classifiers call 65 of the tray's 1,490 labelled dice and 10 of casino's 279
no pip die: at these levels 47 and 9 of them are offered, 27 and 9 at their value, and 1 and 2 finds of no die
(the tray's, the webcam's). The detector reports few finds of no die at 0.7 or more on any real set (2 of the
tray's 399, 6 of the webcam's 596 with a detector that never saw it); on rendered tables of pip and symbol
dice, 61 of the 584 symbol dice found at 0.7 or more are offered (100 at 0.05), which a pip-only table never
shows."""


def tempered(probs: npt.NDArray[np.float32], temperature: float) -> npt.NDArray[np.float32]:
    """Softmax probabilities (N×C) as they would be with the logits divided by `temperature`: the order of the
    classes stays, a temperature above 1 makes them less sure."""
    if temperature == 1.0:
        return probs
    logits = np.log(np.maximum(probs, 1e-12)) / temperature
    e = np.exp(logits - logits.max(axis=1, keepdims=True))
    return np.asarray(e / e.sum(axis=1, keepdims=True), np.float32)


class PipClassifier:
    """Reads die crops with the `pip_classifier` model: class 0 is "not a pip die", 1-6 the value."""

    def __init__(self, name: str = "pip_classifier", folder: Path | None = None) -> None:
        self.model = Model(name, folder=folder)
        self.size = int(self.model.card["input_size"])  # type: ignore[call-overload]
        self.temperature = float(self.model.card.get("temperature", 1.0))  # type: ignore[arg-type]
        """The net's probabilities are sharpened or softened by this (fitted on a validation set when it was
        trained) so that a die read at 0.8 is right about 80% of the time, not more or less."""

    def crops(
        self, image: Image, found: list[Detection], margin: float | Sequence[float] = CROP_MARGIN
    ) -> npt.NDArray[np.uint8]:
        """The square crop (N×S×S×3) the model reads for each detection, `margin` box sides wide (with
        several margins, all crops at each in turn)."""
        return crop_dice(image, [d.box for d in found], self.size, margin)

    def __call__(self, crops: npt.NDArray[np.uint8]) -> npt.NDArray[np.float32]:
        """N×7 class probabilities for the crops of a frame."""
        if not len(crops):
            return np.zeros((0, 7), np.float32)
        probs = self.model.run(channels_first(crops))[0]
        return tempered(probs, self.temperature)

    def with_second_looks(
        self, crops: npt.NDArray[np.uint8], probs: npt.NDArray[np.float32]
    ) -> npt.NDArray[np.float32]:
        """The crops' class probabilities `probs`, where a crop's reading is unsure averaged with its three
        quarter turns (a die's value does not turn with it): a few crops a frame, read again in one call."""
        probs = probs.copy()
        unsure = np.flatnonzero(probs.max(axis=1) < SURE)
        if len(unsure):
            turned = np.concatenate([np.rot90(crops[unsure], k, axes=(1, 2)) for k in (1, 2, 3)])
            again = self(turned).reshape(3, len(unsure), -1)
            probs[unsure] = (probs[unsure] + again.sum(axis=0)) / 4
        return probs


class Classified(NamedTuple):
    crops: npt.NDArray[np.uint8]
    """N×S×S×3, the crops the classifier read."""
    probs: npt.NDArray[np.float32]
    """N×7 class probabilities of the crops (unsure ones averaged over their quarter turns); class 0 is "not a
    pip die"."""
    face_probs: npt.NDArray[np.float32]
    """N×7 class probabilities of the tighter crops of the boxes alone (`FACE_MARGIN`)."""

    def values(self) -> npt.NDArray[np.int64]:
        """The class read from each crop: 0 for "not a pip die", else the pip value."""
        return np.asarray(np.argmax(self.probs, axis=1), np.int64)

    def likeliest_pips(self) -> npt.NDArray[np.int64]:
        """Each die's pip value 1-6 of the highest confidence (`confidences`), whatever its "not a pip die"
        probability."""
        return np.asarray(np.argmax(self.probs[:, 1:] + self.face_probs[:, 1:], axis=1) + 1, np.int64)

    def confidences(self, values: npt.NDArray[np.int64] | None = None) -> npt.NDArray[np.float32]:
        """How sure each of `values` (by default each crop's class) is: the mean of its probability in the
        crop and in the box alone. A die read surely in its crop is wrong most often where a side face's pips
        show in it; the box alone shows less of them, and where it names another value (at most 0.5 for this
        one) the mean falls below the live table's 0.8, so the die is asked about rather than entered
        unasked. A value the crop puts below "not a pip die" has at most 0.5 there, so at most 0.75 here."""
        rows = np.arange(len(self.probs))
        values = self.values() if values is None else values
        return np.asarray((self.probs[rows, values] + self.face_probs[rows, values]) / 2, np.float32)

    def not_pips(self) -> npt.NDArray[np.bool_]:
        return np.asarray(self.values() == 0)

    def subset(self, keep: npt.NDArray[np.bool_]) -> Classified:
        return Classified(self.crops[keep], self.probs[keep], self.face_probs[keep])


def name_colour(lab: Lab, profile: ColourProfile | None) -> str:
    """The profile's colour for a die body, or the palette rules' name if there is no profile or the body is
    far from every colour it was taught."""
    taught = profile.name(lab) if profile else None
    return taught or palette_name(lab)


class PipReader:
    """Finds and reads the pip dice of a frame; give it a colour profile to name the game's own colours."""

    def __init__(
        self,
        colour_profile: ColourProfile | None = None,
        models: Path | None = None,
    ) -> None:
        """`models` is a folder with other model files than the installed ones (a training run's output)."""
        self.colour_profile = colour_profile
        self.detector = Detector(folder=models)
        self.classifier = PipClassifier(folder=models)

    def read(self, image: Image, time: float = 0.0) -> DiceReading:
        """The pip dice of a BGR frame, in order of detection confidence."""
        found = self.detector(image)
        return DiceReading(self.pip_dice(found, self.classify(image, found)), time)

    def read_boxes(self, image: Image, boxes: Sequence[Box], time: float = 0.0) -> DiceReading:
        """The pip dice among given boxes (a crop of one die, boxes drawn by hand): the classifier alone."""
        found = [Detection(box, 1.0, 0.0) for box in boxes]
        return DiceReading(self.pip_dice(found, self.classify(image, found)), time)

    def read_crop(self, image: Image, time: float = 0.0) -> DiceReading:
        """A crop of one die, the crop its box: what the classifier makes of it."""
        return self.read_boxes(image, [Box(0.0, 0.0, image.shape[1], image.shape[0])], time)

    def both_crops(self, image: Image, found: list[Detection]) -> npt.NDArray[np.uint8]:
        """What the classifier reads of a frame: every found die's crop, then every one's box alone."""
        return self.classifier.crops(image, found, (CROP_MARGIN, FACE_MARGIN))

    def classify(self, image: Image, found: list[Detection]) -> Classified:
        """Each found die's crop and the class probabilities of it and of its box alone (class 0: not a pip
        die), both crops read in one call."""
        return self.classified(self.both_crops(image, found))

    def classified(self, both_crops: npt.NDArray[np.uint8]) -> Classified:
        """`classify` of crops already cut (`both_crops`: every die's crop, then every one's box alone)."""
        n = len(both_crops) // 2
        crops = both_crops[:n]
        both = self.classifier(both_crops)
        return Classified(crops, self.classifier.with_second_looks(crops, both[:n]), both[n:])

    def pip_dice(self, found: list[Detection], classified: Classified) -> tuple[Die, ...]:
        """The found dice the classifier reads as pip dice, and those it cannot make out but offers
        (`OFFERED_FIND`), with value, confidence and colour."""
        values = classified.values()
        unread = values == 0
        values = np.where(unread, classified.likeliest_pips(), values)
        confidences = classified.confidences(values)
        sure_finds = np.array([f.score for f in found]) >= OFFERED_FIND
        offered = unread & sure_finds & (confidences >= OFFERED_VALUE)
        read = np.flatnonzero(~unread | offered)
        pips = read[die_sized([found[i] for i in read])]
        labs = crop_labs(classified.crops[pips])
        return tuple(
            Die(found[i].box, "pip", name_colour(lab, self.colour_profile),
                float(confidences[i]) if found[i].score >= SURE_FIND else min(float(confidences[i]), ASKED),
                value=int(values[i]), found=found[i].score)
            for i, lab in zip(pips.tolist(), labs, strict=True)
        )  # fmt: skip


@cache
def default_reader() -> PipReader:
    """The reader with the shipped models and palette colours, made once per process."""
    return PipReader()


def read_pips(image: Image, time: float = 0.0) -> DiceReading:
    """The pip dice of a BGR frame, with the shipped models and palette colours."""
    return default_reader().read(image, time)
