"""Training samples for the face embedder: face cuts as the reader makes them, of rendered dice with random
art and of real pip dice, and cuts of what is no die.

Rendered: each art (a seed) is drawn on many dice (body and ink colour, marbled or ghosted bodies, size,
light, camera tilt with side faces, glare, blur, noise, JPEG) and cut from the die's true box and angle
with the detector's errors (centre, side and angle off a little). Real: the detector's finds on labelled
photos that match a labelled die, cut exactly as the reader cuts them, a few times each with the same small
errors; the finds that match no die, and squares of the table away from every die, are the cuts of no die.

    python -m lab.train.face_samples --out faces.npz --arts 4000 --views 8 --workers 16

writes them all in one file for `python -m lab.train.face_fit`.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from lab.real_sets import SETS, labelled, photo
from vision.crops import crop_squares
from vision.detect import Detection, box_array, detect, overlaps
from vision.reading import Box, Image
from vision.simulated_table.painters import BGR, blank_face
from vision.simulated_table.scene import Placement, draw_scene, random_die, random_look, random_table
from vision.symbols.top_face import FACE_CUT, face_square

SIZE = 48
"""The embedder's input side (pixels)."""
CENTRE_ERROR = 0.06
SIDE_ERROR = (0.92, 1.1)
ANGLE_ERROR = 5.0
"""The detector's errors on a face (share of the side, factor of the side, degrees), as the cuts get them."""
MATCHED = 0.4
"""A find overlapping a labelled die this much (intersection over union) is that die."""
APART = 0.05
"""A find overlapping every labelled die less than this is no die."""

Cuts = npt.NDArray[np.uint8]


@dataclass(frozen=True)
class ArtPainter:
    """Random face art, the same geometry for the same label (a seed): strokes, shapes, dots on a grid, areas
    reaching the edges, letters; now and then the faint art of another face showing through."""

    kind: str = "symbol"
    labels: tuple[str, ...] = ("0",)

    def paint(self, label: str, size: int, body: BGR, ink: BGR, rng: np.random.Generator) -> Image:
        face = blank_face(size, body, rng)
        if rng.random() < 0.15:  # a translucent body: another face's art seen faintly through it
            ghost = face.copy()
            draw_art(ghost, int(rng.integers(1 << 30)), ink, size)
            face = np.asarray(cv2.addWeighted(face, 0.78, ghost, 0.22, 0), np.uint8)
        draw_art(face, int(label), ink, size)
        return face


def draw_art(face: Image, seed: int, ink: BGR, size: int) -> None:
    """The art of one seed, drawn in `ink` on a face `size` pixels wide."""
    art = np.random.default_rng(seed)
    mask = np.zeros((size * 4, size * 4), np.uint8)  # drawn large, then shrunk: smooth at any size
    n = size * 4
    for _ in range(int(art.integers(1, 4))):
        pick = int(art.integers(0, 6))
        thick = max(1, int(n * art.uniform(0.04, 0.1)))
        p = (art.uniform(0.15, 0.85, size=(int(art.integers(2, 6)), 2)) * n).astype(np.int32)
        if pick == 0:
            cv2.polylines(mask, [p], bool(art.random() < 0.3), 255, thick, cv2.LINE_AA)
        elif pick == 1:
            cv2.fillPoly(mask, [cv2.convexHull(p)], 255, cv2.LINE_AA)
        elif pick == 2:  # dots on a grid, like pips
            cells = art.random((3, 3)) < 0.4
            r = int(n * art.uniform(0.06, 0.1))
            for i, j in zip(*np.nonzero(cells), strict=True):
                cv2.circle(mask, (int(n * (0.25 + 0.25 * j)), int(n * (0.25 + 0.25 * i))), r, 255, -1)
        elif pick == 3:  # an area reaching one or two edges, like a city
            edge = int(art.integers(0, 4))
            depth = art.uniform(0.15, 0.5) * n
            curve = np.array([[0, 0], [n, 0], [n, depth * art.uniform(0.5, 1.5)], [n / 2, depth],
                              [0, depth * art.uniform(0.5, 1.5)]], np.float64)  # fmt: skip
            pts = curve @ np.array([[0, 1], [-1, 0]]).T if edge % 2 else curve
            if edge >= 2:
                pts = n - pts
            cv2.fillPoly(mask, [pts.astype(np.int32)], 255, cv2.LINE_AA)
        elif pick == 4:
            c = art.uniform(0.3, 0.7, 2) * n
            radius = art.uniform(0.08, 0.3) * n
            cv2.circle(mask, (int(c[0]), int(c[1])), int(radius), 255, -1 if art.random() < 0.5 else thick)
        else:
            text = chr(int(art.integers(65, 91)))
            cv2.putText(mask, text, (int(n * 0.2), int(n * 0.8)), int(art.integers(0, 8)), n / 40, 255, thick)
    if art.random() < 0.5:
        mask = np.ascontiguousarray(np.rot90(mask, int(art.integers(1, 4))))
    alpha = cv2.resize(mask, (size, size), interpolation=cv2.INTER_AREA).astype(np.float32)[..., None] / 255
    face[:] = np.clip(face * (1 - alpha) + np.array(ink, np.float32) * alpha, 0, 255).astype(np.uint8)


def detector_error(rng: np.random.Generator, find: Detection) -> tuple[float, float, float, float]:
    """The find's face square, off as the detector may be."""
    cx, cy, side, angle = face_square(find)
    side0 = side / FACE_CUT
    return (
        cx + rng.normal(0, CENTRE_ERROR) * side0,
        cy + rng.normal(0, CENTRE_ERROR) * side0,
        side * rng.uniform(*SIDE_ERROR),
        angle + rng.normal(0, ANGLE_ERROR / 2),
    )


def art_views(job: tuple[int, int, int]) -> Cuts:
    """`views` cuts (views×S×S×3) of each art of seeds [first, first + count), each view a different die."""
    first, count, views = job
    rng = np.random.default_rng(first * 7919 + 1)
    out = np.zeros((count, views, SIZE, SIZE, 3), np.uint8)
    for a in range(count):
        painter = ArtPainter(labels=(str(first + a),))
        for v in range(views):
            out[a, v] = rendered_cut(painter, rng)
    return out


def rendered_cut(painter: ArtPainter, rng: np.random.Generator) -> Image:
    """One die with the painter's face on a small table, upright (its angle below 90°), cut with the
    detector's errors; sometimes a neighbour touching it."""
    side = float(rng.uniform(16, 90))
    n = int(side * 3)
    place = Placement(n / 2, n / 2, side, float(rng.uniform(0, 90)))
    dice = [(random_die(painter, rng), place)]  # type: ignore[arg-type]
    if rng.random() < 0.3:
        t = rng.uniform(0, 2 * np.pi)
        other = Placement(
            n / 2 + np.cos(t) * side * 1.15, n / 2 + np.sin(t) * side * 1.15, side, rng.uniform(0, 360)
        )
        dice.insert(0, (random_die(ArtPainter(labels=(str(int(rng.integers(1 << 30))),)), rng), other))  # type: ignore[arg-type]
    scene = draw_scene(random_table(rng, n, n), dice, random_look(rng), rng)
    mine = [d for d in scene.dice if d.label == painter.labels[0]]
    if not mine:  # tilted out of the frame: cut where it was meant to be
        return np.asarray(crop_squares(scene.image, [(n / 2, n / 2, side * FACE_CUT, place.angle)], SIZE)[0])
    square = detector_error(rng, Detection(mine[0].box, 1.0, mine[0].angle))
    return np.asarray(crop_squares(scene.image, [square], SIZE)[0])


def table_cuts(job: tuple[int, int]) -> Cuts:
    """Cuts of rendered tables with no die under them (cards, coins, pencils, rims, wood, felt)."""
    seed, count = job
    rng = np.random.default_rng(seed)
    out = np.zeros((count, SIZE, SIZE, 3), np.uint8)
    for i in range(count):
        table = random_table(rng, 200, 200)
        side = rng.uniform(16, 90)
        c = rng.uniform(side / 2, 200 - side / 2, 2)
        out[i] = crop_squares(table, [(c[0], c[1], side * FACE_CUT, rng.uniform(0, 90))], SIZE)[0]
    return out


@dataclass(frozen=True)
class RealCuts:
    """Cuts of one part of one real set: die cuts (N×J×S×S×3, J errors each) with values, and no-die cuts."""

    dice: Cuts
    values: npt.NDArray[np.int64]
    others: Cuts


def real_cuts(name: str, part: str, errors: int, seed: int = 0) -> RealCuts:
    """The detector's finds on a set's photos, cut as the reader cuts them (`errors` times each)."""
    rng = np.random.default_rng(seed)
    dice: list[Cuts] = []
    values: list[int] = []
    others: list[Image] = []
    for item in labelled(name, part):
        image, truth = photo(item)
        finds = detect(image)
        if not finds:
            continue
        iou = overlaps(box_array([f.box for f in finds]), box_array([d.box for d in truth]))
        for f, row in zip(finds, iou, strict=True):
            if len(truth) and row.max() >= MATCHED:
                squares = [face_square(f)] + [detector_error(rng, f) for _ in range(errors - 1)]
                dice.append(crop_squares(image, squares, SIZE))
                values.append(truth[int(row.argmax())].value)
            elif not len(truth) or row.max() < APART:
                others.append(crop_squares(image, [face_square(f)], SIZE)[0])
        others.extend(background(image, [d.box for d in truth], finds, rng))
    return RealCuts(
        np.asarray(dice, np.uint8).reshape(-1, errors, SIZE, SIZE, 3),
        np.asarray(values, np.int64),
        np.asarray(others, np.uint8).reshape(-1, SIZE, SIZE, 3),
    )


def background(image: Image, dice: Sequence[Box], finds: Sequence[Detection], rng: np.random.Generator,
               count: int = 4) -> list[Image]:  # fmt: skip
    """Squares of a photo the size of its dice that touch no die."""
    sides = [f.side for f in finds] or [40.0]
    side = float(np.median(sides))
    h, w = image.shape[:2]
    boxes = box_array(dice)
    out: list[Image] = []
    for _ in range(count * 10):
        if len(out) == count or min(h, w) <= side * 1.2:
            break
        cx, cy = rng.uniform(side * 0.6, w - side * 0.6), rng.uniform(side * 0.6, h - side * 0.6)
        here = box_array([Box(cx - side * 0.7, cy - side * 0.7, cx + side * 0.7, cy + side * 0.7)])
        if len(boxes) and overlaps(here, boxes).max() > 0:
            continue
        out.append(crop_squares(image, [(cx, cy, side * FACE_CUT, rng.uniform(0, 90))], SIZE)[0])
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--arts", type=int, default=4000)
    ap.add_argument(
        "--first-art", type=int, default=0,
        help="the arts' first seed: a net that goes on (face_fit --init) learns arts it never saw",
    )  # fmt: skip
    ap.add_argument("--views", type=int, default=8)
    ap.add_argument("--tables", type=int, default=8000)
    ap.add_argument("--errors", type=int, default=6, help="cuts per real die, with the detector's errors")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument(
        "--real", type=Path, help="the real cuts from an earlier run (--arts 0) instead of the sets"
    )
    args = ap.parse_args(argv)
    if args.views < 5:
        # lab.train.face_fit teaches 4 views of an art and reads the others: fewer ended it in an IndexError.
        ap.error(f"--views {args.views}: at least 5 (face_fit teaches 4 views of an art and reads the rest)")
    chunk = 50
    jobs = [(args.first_art + s, min(chunk, args.arts - s), args.views) for s in range(0, args.arts, chunk)]
    with ProcessPoolExecutor(args.workers) as pool:
        arts = np.concatenate(
            [np.zeros((0, args.views, SIZE, SIZE, 3), np.uint8), *pool.map(art_views, jobs)]
        )
        tables = np.concatenate(
            [
                np.zeros((0, SIZE, SIZE, 3), np.uint8),
                *pool.map(table_cuts, [(10_000 + i, 100) for i in range(args.tables // 100)]),
            ]
        )
    data: dict[str, npt.NDArray[np.generic]] = {"arts": arts, "tables": tables}
    if args.real:
        data.update((k, v) for k, v in np.load(args.real).items() if k not in ("arts", "tables"))
    for name in (
        () if args.real else SETS
    ):  # only the parts that may be trained on: the measured parts stay unseen
        cuts = real_cuts(name, "train", args.errors)
        data[f"{name}_dice"], data[f"{name}_values"], data[f"{name}_others"] = (
            cuts.dice,
            cuts.values,
            cuts.others,
        )
        print(f"{name}: {len(cuts.dice)} dice, {len(cuts.others)} cuts of no die")
    np.savez(args.out, **data)  # type: ignore[arg-type]
    print(f"{len(arts)} arts x {args.views} views, {len(tables)} table cuts; wrote {args.out}")


if __name__ == "__main__":
    main()
