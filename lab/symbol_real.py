"""The symbol reader on real photos: pip faces taught as symbols, as a user teaches a new set of dice.

For each real set (`lab.real_sets`): 4 photos per face, each a square cut around one die lying alone, are cut
from the set's training part and taught (`vision.symbols.teach`, the path of `python -m vision enroll`); then
every photo of the set's measured part is read by the one reader with that profile (`vision.reader`), and
each labelled die is counted right (its face named), unknown (not named: "unknown" or taken for a pip die),
wrong (another face named) or missed (not found; at the table, also left out by settling, which keeps a die
read under 0.5 only when the detector found it surely); named wrong at confidence >= 0.8 is sure-but-wrong,
and one not named at 0.8 or more is asked (the live table asks the players about it). Then, for each face
in turn, the profile without it reads the same photos: that face's dice should not be named, and one named
at 0.8 or more would be entered wrong without a question.
Finds that match no labelled die and are reported as dice are the extra finds; the dice whose nearest
taught vector is of their own face, named or not, are what no reading rule could name more of. Teaching is
also asked to find the die in the photo of every alone-lying die of the training part, cut 1.1 to 4 times
its side around it (how many clear photos it would refuse, or teach from something else: a pip, a
neighbour).

    python -m lab.symbol_real [--sets tray webcam casino] [--model DIR] [--draws N] [--json]

`--model DIR` reads with a face embedder trained elsewhere (a leave-one-set-out run: `face_embedder.onnx`
and `.json` in DIR). `--draws N` teaches each set N times, each from another draw of its photos (draw 0 is
the one measured without it), and gives each draw's figures and their mean: which 4 photos a face is taught
from moves a set's figures by a few dice.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from lab.real_sets import SETS, labelled, photo
from vision import reader as one_reader
from vision.crops import crop_squares
from vision.dataset import LabelledDie, LabelledImage, is_held_out
from vision.detect import box_array, overlaps
from vision.one_die import teaching_find
from vision.pips import PipReader
from vision.reader import DiceReader
from vision.reading import SURE_READ, UNKNOWN, Box, DiceReading, Image
from vision.settle import SettleSettings, kept
from vision.symbols import embed
from vision.symbols.embed import FaceEmbedder
from vision.symbols.profile import SymbolProfile
from vision.symbols.teach import read_faces_dir, teach

FACES = ("one", "two", "three", "four", "five", "six")
PER_FACE = 4
CUT = 2.4
"""A teaching photo is the square this many times the die's box around it: the die alone, a table around."""
ALONE = 1.6
"""A die is alone when no other die's centre is within this many of its sides."""
SAME_DIE = 0.3
MIN_CUT = 16
"""The fewest pixels on a side of a teaching photo cut from a set's photo."""
TEACHING_CLOSENESS = (1.1, 1.4, CUT, 4.0)
"""Teaching is also asked to find the die in each alone-lying die's photo cut this many times its side around
it: a phone's photo cut close around the die (1.1), the lab's teaching photos (`CUT`), a table around it
(4.0, where other dice may show)."""
FOUND_OFF = 0.3
FOUND_SIZE = (0.5, 1.6)


@dataclass
class Tally:
    dice: int = 0
    right: int = 0
    unknown: int = 0
    wrong: int = 0
    sure_wrong: int = 0
    missed: int = 0
    extra: int = 0
    frames: int = 0
    untaught: int = 0
    untaught_named: int = 0
    untaught_sure: int = 0
    """Dice of a face never taught named at `SURE_READ` or more: entered wrong without a question."""
    nearest: int = 0
    """Dice whose nearest taught vector is of their face: what no reading rule can name more of."""
    asked: int = 0
    """Dice the live table would ask about: not named, or named at less than `SURE_READ`."""
    missed_at_table: int = 0
    """Dice not found, or left out by settling (`vision.settle.kept`): a throw the live table sees short."""

    def figures(self) -> dict[str, float | int]:
        d = max(self.dice, 1)
        return {
            "dice": self.dice,
            "right": round(self.right / d, 4),
            "unknown": round(self.unknown / d, 4),
            "wrong": round(self.wrong / d, 4),
            "sure_wrong": round(self.sure_wrong / d, 4),
            "missed": round(self.missed / d, 4),
            "extra_per_frame": round(self.extra / max(self.frames, 1), 3),
            "untaught_unknown": round(1 - self.untaught_named / max(self.untaught, 1), 4),
            "untaught_dice": self.untaught,
            "untaught_named_surely": self.untaught_sure,
            "nearest_right": round(self.nearest / d, 4),
            "asked": round(self.asked / d, 4),
            "missed_at_table": round(self.missed_at_table / d, 4),
        }


def validating(item: LabelledImage) -> bool:
    """With --validate, the half of a training part that is read (the other half teaches)."""
    return is_held_out(f"{item.image.stem}-validate", 50)


@dataclass(frozen=True)
class AloneDie:
    """A labelled die lying alone in a photo of a set's training part."""

    value: int
    image: Image
    centre: tuple[float, float]
    side: float
    """The longer side of its labelled box."""

    def cut(self, times: float = CUT) -> Image:
        """A square photo `times` its side around it, at the photo's own scale."""
        n = max(MIN_CUT, round(self.side * times))
        cut: Image = crop_squares(self.image, [(*self.centre, self.side * times, 0.0)], n)[0]
        return cut


def alone_dice(name: str, validate: bool = False) -> list[AloneDie]:
    """Every die of a set's training part lying alone (no other die's centre within `ALONE` of its sides)."""
    out = []
    for item in labelled(name, "train"):
        if validate and validating(item):
            continue
        image, dice = photo(item)
        centres = np.array([d.box.center for d in dice])
        for i, die in enumerate(dice):
            side = max(die.box.width, die.box.height)
            near = np.hypot(*(centres - centres[i]).T)
            if not (np.delete(near, i) < ALONE * side).any():
                out.append(AloneDie(die.value, image, die.box.center, side))
    return out


def teaching_finds_die(dice: Sequence[AloneDie], times: float) -> float:
    """The share of the dice that teaching finds (`vision.one_die.teaching_find`) in a photo cut `times` their
    side around them: the find's centre within `FOUND_OFF` of the die's side from the die's, its box
    `FOUND_SIZE` times that side (a pip, a neighbour or the photo's square is not the die)."""
    found = 0
    for die in dice:
        cut = die.cut(times)
        side = cut.shape[0] / times
        find = teaching_find(cut)
        if find is None:
            continue
        x, y = find.box.center
        low, high = FOUND_SIZE
        found += (
            max(abs(x - cut.shape[1] / 2), abs(y - cut.shape[0] / 2)) < FOUND_OFF * side
            and low * side < max(find.box.width, find.box.height) < high * side
        )
    return found / max(len(dice), 1)


def teach_from(
    cuts: list[tuple[int, Image]], embedder: FaceEmbedder | None, draw: int = 0
) -> tuple[SymbolProfile, list[str]]:
    """A profile taught from the first PER_FACE cuts of each face (a shuffle fixed by `draw`), as photo
    folders."""
    order = np.random.default_rng(draw).permutation(len(cuts))
    warnings: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        for value, label in enumerate(FACES, 1):
            mine = [cuts[i][1] for i in order if cuts[i][0] == value][:PER_FACE]
            (Path(tmp) / label).mkdir()
            for j, cut in enumerate(mine):
                cv2.imwrite(str(Path(tmp) / label / f"{j:02d}.png"), cut)
        profile = teach(read_faces_dir(Path(tmp), warnings.append), warn=warnings.append, embedder=embedder)
    return profile, warnings


def matched(truth: Sequence[LabelledDie], boxes: Sequence[Box]) -> list[int]:
    """Per labelled die, the box it is found in (its most overlapping, if at least `SAME_DIE` and not a die
    before it's), or -1."""
    iou = overlaps(box_array([d.box for d in truth]), box_array(boxes))
    out: list[int] = []
    for row in iou:
        j = int(np.argmax(row)) if len(boxes) else -1
        out.append(j if j >= 0 and row[j] >= SAME_DIE and j not in out else -1)
    return out


def count(reading: DiceReading, truth: Sequence[LabelledDie], tally: Tally, untaught: str | None) -> None:
    """Add one photo's reading to the tally (with `untaught`, only that face's dice, none of them named)."""
    found = reading.dice
    where = matched(truth, [d.box for d in found])
    settled = kept(reading, SettleSettings()).dice
    for t, j in zip(truth, where, strict=True):
        hit = j >= 0
        if untaught is not None:
            if FACES[t.value - 1] == untaught and hit:
                named = found[j].kind == "symbol" and found[j].face != UNKNOWN
                tally.untaught += 1
                tally.untaught_named += named
                tally.untaught_sure += named and found[j].confidence >= SURE_READ
            continue
        tally.dice += 1
        tally.missed_at_table += not hit or found[j] not in settled
        if not hit:
            tally.missed += 1
            tally.asked += 1
            continue
        die = found[j]
        face = die.face if die.kind == "symbol" else None
        tally.asked += face in (None, UNKNOWN) or die.confidence < SURE_READ
        if face is None or face == UNKNOWN:
            tally.unknown += 1
        elif face == FACES[t.value - 1]:
            tally.right += 1
        else:
            tally.wrong += 1
            tally.sure_wrong += die.confidence >= SURE_READ
    if untaught is None:
        tally.frames += 1
        tally.extra += len(found) - sum(j >= 0 for j in where)


def nearest_right(reader: DiceReader, image: Image, truth: Sequence[LabelledDie]) -> int:
    """How many of the labelled dice are found and nearest a taught vector of their own face."""
    assert reader.faces is not None
    found = reader.pips.detector(image)
    if not found:
        return 0
    reads = reader.faces.read(image, found)
    where = matched(truth, [f.box for f in found])
    return sum(j >= 0 and reads[j].nearest == FACES[t.value - 1] for t, j in zip(truth, where, strict=True))


def measure(
    name: str, embedder: FaceEmbedder | None, validate: bool = False, agree: bool = True, draws: int = 1
) -> list[dict[str, object]]:
    """One set's figures per draw of its teaching photos (draws 0 to `draws` - 1); the photos are loaded and
    teaching's finds (which no draw changes) measured once."""
    dice = alone_dice(name, validate)
    cuts = [(die.value, die.cut()) for die in dice]
    items = [i for i in labelled(name, "train") if validating(i)] if validate else labelled(name, "measure")
    photos = [photo(item) for item in items]
    pips = PipReader()
    finds = {str(times): round(teaching_finds_die(dice, times), 4) for times in TEACHING_CLOSENESS}
    return [
        {
            "set": name,
            "draw": draw,
            **read_draw(cuts, photos, pips, embedder, agree, draw),
            "teaching_cuts": len(cuts),
            "teaching_finds_die": finds,
        }
        for draw in range(draws)
    ]


def read_draw(
    cuts: list[tuple[int, Image]],
    photos: Sequence[tuple[Image, Sequence[LabelledDie]]],
    pips: PipReader,
    embedder: FaceEmbedder | None,
    agree: bool,
    draw: int,
) -> dict[str, object]:
    """The figures of the photos read with a profile taught from draw `draw` of the cuts."""
    started = time.perf_counter()
    profile, warnings = teach_from(cuts, embedder, draw)
    teach_seconds = time.perf_counter() - started
    reader = reader_for(pips, profile, embedder, agree)
    tally = Tally()
    symbol_ms, pip_ms = [], []
    for image, truth in photos:
        t0 = time.perf_counter()
        reading = reader.read(image)
        symbol_ms.append(1000 * (time.perf_counter() - t0))
        t0 = time.perf_counter()
        pips.read(image)
        pip_ms.append(1000 * (time.perf_counter() - t0))
        count(reading, truth, tally, None)
        tally.nearest += nearest_right(reader, image, truth)
    for label in FACES:
        less = reader_for(pips, profile.without(label), embedder, agree)
        for image, truth in photos:
            count(less.read(image), truth, tally, label)
    return {
        **tally.figures(),
        "teaching_warnings": warnings,
        "teaching_seconds": round(teach_seconds, 1),
        "ms_per_frame_symbols": round(float(np.median(symbol_ms)), 1),
        "ms_per_frame_pips": round(float(np.median(pip_ms)), 1),
    }


def mean_row(rows: Sequence[dict[str, object]]) -> dict[str, object]:
    """One set's figures over its draws: each figure that differs between them, its mean; the rest (teaching's
    finds among them) and the warnings as draw 0's."""
    out = dict(rows[0], draw="mean")
    for key, value in rows[0].items():
        values = [r[key] for r in rows]
        if isinstance(value, (int, float)) and key != "draw" and len(set(values)) > 1:
            out[key] = round(float(np.mean(values)), 4)  # type: ignore[arg-type]
    return out


def reader_for(
    pips: PipReader, profile: SymbolProfile, embedder: FaceEmbedder | None, agree: bool
) -> DiceReader:
    """The one reader with the profile, reading with `embedder` if given; without `agree`, the embedder alone
    (no template matcher's look at the dice it leaves unknown), to measure what each reader adds."""
    reader = DiceReader(pips, profile, embedder)
    if not agree:
        reader.agreed = lambda image, found, reads: reads  # type: ignore[method-assign]
    return reader


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sets", nargs="+", choices=SETS, default=list(SETS))
    ap.add_argument("--model", type=Path, help="a folder with another face_embedder.onnx and .json")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--draws", type=int, default=1, help="teach each set this many times, from other photos")
    ap.add_argument(
        "--validate", action="store_true",
        help="teach from half of each set's training part and read the other half, for choosing settings",
    )  # fmt: skip
    ap.add_argument("--no-agreement", action="store_true", help="the embedder alone")
    ap.add_argument("--looks", type=float, nargs="+", help="the face cut's scales read and averaged")
    ap.add_argument(
        "--agreement-floor",
        type=float,
        help="the embedder's similarity below which the templates' word names no die",
    )
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    embedder = FaceEmbedder(folder=args.model) if args.model else None
    if args.looks:
        embed.LOOKS = tuple(args.looks)
    if args.agreement_floor is not None:
        one_reader.AGREEMENT_FLOOR = args.agreement_floor
    rows = []
    for name in args.sets:
        drawn = measure(name, embedder, args.validate, not args.no_agreement, args.draws)
        rows += [*drawn, mean_row(drawn)] if args.draws > 1 else drawn
    if args.json:
        print(json.dumps(rows, indent=1))
        return
    print("| set | dice | right | unknown | wrong | sure-but-wrong | asked | missed (at the table)"
          " | untaught named unknown (named surely) | extra/frame | nearest right"
          f" | teaching finds the die (photos {', '.join(f'{t}x' for t in TEACHING_CLOSENESS)} its side)"
          " | ms symbols / pips |")  # fmt: skip
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        which = "" if args.draws == 1 else f" (draw {r['draw']})"
        which = f" (mean of {args.draws} draws)" if r["draw"] == "mean" else which
        print(
            f"| {r['set']}{which} | {r['dice']} | {r['right']:.1%} | {r['unknown']:.1%} | {r['wrong']:.1%} |"
            f" {r['sure_wrong']:.1%} | {r['asked']:.1%} | {r['missed']:.1%} ({r['missed_at_table']:.1%}) |"
            f" {r['untaught_unknown']:.1%} of {r['untaught_dice']} ({r['untaught_named_surely']} surely) |"
            f" {r['extra_per_frame']} | {r['nearest_right']:.1%} |"
            f" {', '.join(f'{v:.1%}' for v in r['teaching_finds_die'].values())} of {r['teaching_cuts']} |"  # type: ignore[attr-defined]
            f" {r['ms_per_frame_symbols']} / {r['ms_per_frame_pips']} |"
        )
    for r in rows:
        if r["draw"] != "mean":
            for w in r["teaching_warnings"]:  # type: ignore[attr-defined]
                print(f"{r['set']} (draw {r['draw']}): {w}")


if __name__ == "__main__":
    main()
