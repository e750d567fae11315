"""Teach the faces of a set of symbol dice from photos into a profile JSON file.

One folder per face label, each with a few photos of a die showing that face
(`python -m vision enroll --out PROFILE.json FACES_DIR`); the guided camera step (`calibration.faces`) keeps
the camera's frames as such a folder and teaches them here.

Teaching checks its input and names the face that needs better photos: a folder without images, a face whose
only photos are blurry, two faces that look the same. Each face's acceptance threshold and the profile's
margin are calibrated from the photos themselves: how well each photo, seen small and soft as a table camera
sees a die, still matches the face's other photos, and how far it leads the other faces.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, replace
from math import floor
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from jsonfile import complain, printable
from vision.detect import Detection
from vision.images import ImageError, image_files, load_image
from vision.one_die import teaching_find
from vision.reader import FIRST_LOOK, grown
from vision.reading import Box, Image
from vision.symbols.art import CLEAR_MAJORITY, Float, cut_arts, rim_colours, to_lab, to_uint8
from vision.symbols.embed import FaceEmbedder, default_embedder
from vision.symbols.locate import cut_faces
from vision.symbols.matcher import ROTATIONS, SHIFT, FaceMatcher, describe_windows, template_windows
from vision.symbols.profile import EDGES, Cut, Sides, SymbolProfile, TaughtFace, Turns, label_error

MIN_SHARPNESS = 0.12
"""Below this a teaching photo is too blurry to teach from (a blur of about 3% of the die's side)."""
SAME_FACE = 0.9
"""Two faces whose photos correlate this well (at some rotation) cannot be told apart."""
THRESHOLD_RANGE = (0.5, 0.8)
"""A face's acceptance threshold stays in this range whatever the photos say."""
THRESHOLD_SLACK = 0.10
"""Accept this much less than the worst score of a face's photos seen as in reading (see `reading_view`)."""
READ_SIDE = 40
"""Die side (pixels) of the reading view: a small die in a 640-pixel frame."""
READ_BLUR = 1.0
"""Blur (pixels) of the reading view: a camera a little out of focus."""
MAX_TEMPLATES = 4
"""Photos kept per face (the camera step takes 6)."""
OUTLIER_DROP = 0.12
"""A teaching photo fitting the other photos of its face this much below their median is left out; so is
a reading view scoring this much below the median of its face's views, when its threshold is set."""
MARGIN_RANGE = (0.1, 0.15)
"""The margin by which a die's face must lead every other face: a quarter of the smallest lead in teaching,
kept in this range. Below 0.1 for all faces, look-alike faces (F and P in a thin font) were sometimes
misread; the matcher asks a share of it of look-alike pairs only (`vision.symbols.matcher.pair_margins`)."""
EDGE_STRIP = 0.12
"""Depth (fraction of the patch) of the strip along a side that must be art for the side to count as city."""


class TeachingError(ValueError):
    """Teaching input that cannot make a usable profile; the message says which face needs what."""


@dataclass(frozen=True)
class TeachingPhoto:
    face: str
    name: str
    image: Image


def check_label(label: str) -> None:
    """A face's name (its folder's, or one given to teach from the camera) that the taught profile could not
    be read back with is refused before anything is taught or captured."""
    why = label_error(label) or folder_name_error(label)
    if why:
        raise TeachingError(f"face {label!r} cannot name a face: {why}; name it otherwise")


def folder_name_error(label: str) -> str:
    """Why `label` cannot name a face's folder ('' where it can): `--faces ..` cleared and filled the current
    folder with the camera's pictures, and `--faces city/1` was taught as face '1'."""
    if label in (".", "..") or any(c in label for c in "/\\"):
        return "a face's pictures are kept in a folder of its name, which cannot be . or .. or hold / or \\"
    return ""


def read_faces_dir(
    faces_dir: Path, warn: Callable[[str], None] = print, faces: Sequence[str] = ()
) -> list[TeachingPhoto]:
    """All photos under FACES_DIR/<label>/, of the `faces` given only (none: every folder's); a face folder
    without a readable image is an error naming it, and so is a face given without a folder."""
    if not faces_dir.is_dir():
        raise TeachingError(f"{faces_dir}: not a folder (expected one folder per face label)")
    folders = sorted(p for p in faces_dir.iterdir() if p.is_dir() and not p.name.startswith("."))
    if faces:
        if missing := [label for label in faces if not (faces_dir / label).is_dir()]:
            raise TeachingError(
                f"{faces_dir}: no folder for face {', '.join(map(repr, missing))} (this game's faces:"
                f" {', '.join(faces)}; found: {', '.join(f.name for f in folders) or 'none'})"
            )
        folders = [faces_dir / label for label in faces]
    if not folders:
        raise TeachingError(f"{faces_dir}: no face folders (expected one folder per face label, e.g. tower/)")
    for folder in folders:
        check_label(folder.name)
    photos: list[TeachingPhoto] = []
    for folder in folders:
        readable = 0
        for file in image_files(folder):
            try:
                image = load_image(file)
            except ImageError as exc:  # it names the file and says why: too small, too large, not an image
                warn(f"face {folder.name!r}: skipped {exc}")
                continue
            photos.append(TeachingPhoto(folder.name, file.name, image))
            readable += 1
        if readable == 0:
            inner = sorted(p.name for p in folder.iterdir() if p.is_dir() and not p.name.startswith("."))
            raise TeachingError(
                f"face {folder.name!r}: no readable images in {folder} "
                + (
                    f"but folders ({', '.join(inner[:3])}{' …' if len(inner) > 3 else ''}): if they are the"
                    f" faces, give {folder} as FACES_DIR"
                    if inner
                    else "(add a few photos of this face)"
                )
            )
    return photos


def sharpness(image: Image, box: Box) -> float:
    """Steepest edges against contrast in the die's box, seen at 128 pixels a side.

    About 1 / (2.5 * blur sigma in those pixels) for a step edge: a sharp photo gives 0.3 to 0.5, a photo
    blurred by 3% of the die's side about 0.1.
    """
    x0, y0 = max(int(box.x0), 0), max(int(box.y0), 0)
    crop = image[y0 : max(int(box.y1), y0 + 1), x0 : max(int(box.x1), x0 + 1)]
    scale = 128 / max(crop.shape[:2])
    grey = cv2.cvtColor(
        cv2.resize(crop, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA), cv2.COLOR_BGR2GRAY
    )
    grey = grey.astype(np.float32)
    lo, hi = np.percentile(grey, [5, 95])
    if hi - lo < 1:
        return 0.0
    gx = cv2.Sobel(grey, cv2.CV_32F, 1, 0, ksize=3) / 8
    gy = cv2.Sobel(grey, cv2.CV_32F, 0, 1, ksize=3) / 8
    return float(np.percentile(np.hypot(gx, gy), 99) / (hi - lo))


def areas_of(template: Float) -> tuple[Sides, ...]:
    """The face's separate areas of art reaching its sides (at rotation 0), each by the sides whose middle
    half it mostly covers: a Carcassonne city face's city areas (two caps on one face are two areas)."""
    art = template / max(float(template.max()), 1e-3)
    n = art.shape[0]
    d, mid = max(1, round(n * EDGE_STRIP)), slice(n // 4, n - n // 4)
    # A thin light line across the art (a wall drawn in a city) must not cut one area in two.
    solid = cv2.morphologyEx((art > 0.5).astype(np.uint8), cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    count, parts = cv2.connectedComponents(solid)
    strips = {
        "top": parts[:d, mid],
        "right": parts[mid, n - d :],
        "bottom": parts[n - d :, mid],
        "left": parts[mid, :d],
    }
    areas: dict[int, set[str]] = {}
    for side, strip in strips.items():
        part = int(np.bincount(strip.ravel(), minlength=count)[1:].argmax()) + 1 if count > 1 else 0
        if part and float((strip == part).mean()) > 0.5:
            areas.setdefault(part, set()).add(side)
    return tuple(sorted((frozenset(a) for a in areas.values()), key=lambda a: min(map(EDGES.index, a))))


def _fits(options: list[Float], references: list[Float]) -> npt.NDArray[np.float32]:
    """Per option, its mean best match with the references (each at small shifts and poses, as in reading)."""
    centres = describe_windows(np.asarray(options, np.float32), SHIFT, SHIFT)
    windows = template_windows(np.asarray(references, np.float32))
    best = [(centres @ w.T).max(axis=1) for w in windows]
    return np.asarray(np.mean(best, axis=0), np.float32)


def _align(candidates: list[list[Float]], rounds: int = 2) -> tuple[list[Float], list[float]]:
    """Per photo one art map, turned to the first photo's orientation, and how well it fits the others.

    Every photo has a few candidate cuts (the first is the usual best). The first cuts are turned to fit the
    first photo; then, a few rounds, each photo takes the cut and quarter turn that fit all the other photos
    best (the first photo keeps its turn: it defines rotation 0), so one badly cut photo misleads nothing.
    """
    turned = [[[np.ascontiguousarray(np.rot90(a, k)) for k in range(4)] for a in c] for c in candidates]
    first = candidates[0][0]
    choice = [t[0][int(np.argmax(_fits(t[0], [first])))] for t in turned]
    choice[0] = first
    fit = [0.0] * len(candidates)
    for _ in range(rounds if len(candidates) > 1 else 0):
        for j, options in enumerate(turned):
            others = [c for i, c in enumerate(choice) if i != j]
            flat = [turns[0] for turns in options] if j == 0 else [a for turns in options for a in turns]
            scores = _fits(flat, others)
            best = int(np.argmax(scores))
            choice[j], fit[j] = flat[best], float(scores[best])
    return choice, fit


ALWAYS_TAUGHT = 1.01
"""A rim share no colour reaches: every teaching photo takes the rim colour nearer the taught body."""


def _silent(_: str) -> None:
    """Progress said to no one: teaching called from code, not from a command."""


def found_dice(
    photos: Sequence[TeachingPhoto], warn: Callable[[str], None], say: Callable[[str], None] = _silent
) -> tuple[list[TeachingPhoto], dict[int, Detection]]:
    """The photos whose die is found, with their finds; every other photo is named and left out, and a face
    left with none is an error. Each face's count is said (`say`) once its photos are looked at: the longest
    part of teaching, a second or more a face."""
    finds: dict[int, Detection] = {}
    kept = []
    labels = list(dict.fromkeys(p.face for p in photos))
    for label in labels:
        mine = [p for p in photos if p.face == label]
        for p in mine:
            find = teaching_find(p.image)
            if find is None:
                warn(
                    f"face {p.face!r}: {p.name}: no die found, not used (the die alone on a plain table,"
                    " in view)"
                )
                continue
            finds[id(p)] = find
            kept.append(p)
        say(f"face {label!r}: die found in {sum(id(p) in finds for p in mine)} of {len(mine)} photos")
    for label in labels:
        if not any(p.face == label for p in kept):
            raise TeachingError(
                f"face {label!r}: no die found in any of its photos (put the die alone on a plain table,"
                " fully in view, and take 3 or more photos)"
            )
    return kept, finds


def teach(
    photos: Sequence[TeachingPhoto],
    areas: dict[str, tuple[Sides, ...]] | None = None,
    warn: Callable[[str], None] = print,
    embedder: FaceEmbedder | None = None,
    say: Callable[[str], None] = _silent,
) -> SymbolProfile:
    """Make a profile from teaching photos; raise TeachingError naming the face when the photos cannot.
    Progress is said to `say`."""
    labels = list(dict.fromkeys(p.face for p in photos))
    if not labels:
        raise TeachingError("no teaching photos")
    photos, finds = found_dice(photos, warn, say)
    # The detector's box lies inside the die; the face locator wants the whole die in its box.
    boxes = {id(p): grown(finds[id(p)].box, FIRST_LOOK) for p in photos}
    cuts = {id(p): cut_faces(p.image, boxes[id(p)]) for p in photos}
    # One die shows all faces: its body colour is the rim colour of the photos with a clear majority there
    # (art reaching the edges leaves none), and then the nearer rim colour in every photo.
    colours, shares = rim_colours(to_lab(np.stack([cuts[id(p)][0].rim for p in photos])))
    clear = shares[:, 0] >= CLEAR_MAJORITY
    taught = np.median(colours[clear, 0] if clear.any() else colours[:, 0], axis=0)
    body = (float(taught[0]), float(taught[1]), float(taught[2]))

    def arts_of(photo: TeachingPhoto) -> list[Float]:
        return list(cut_arts(cuts[id(photo)], taught, clear=ALWAYS_TAUGHT)[0])

    def arts_of_view(photo: TeachingPhoto) -> list[Float]:
        image, box = reading_view(photo.image, boxes[id(photo)])
        return list(cut_arts(cut_faces(image, box), taught)[0])

    faces: list[TaughtFace] = []
    named: set[tuple[str, str]] = set()  # photos named as unlike their face's others: not named twice
    arts: dict[str, list[Float]] = {}
    views: dict[str, list[list[Float]]] = {}
    for label in labels:
        mine = [p for p in photos if p.face == label]
        sharp: list[list[Float]] = []
        used: list[TeachingPhoto] = []
        for p in mine:
            s = sharpness(p.image, finds[id(p)].box)
            if s < MIN_SHARPNESS:
                warn(
                    f"face {label!r}: {p.name} is too blurry (sharpness {s:.2f} < {MIN_SHARPNESS}), not used"
                )
                continue
            sharp.append(arts_of(p))
            used.append(p)
        if not sharp:
            only = "its only photo is" if len(mine) == 1 else f"all {len(mine)} photos are"
            raise TeachingError(
                f"face {label!r}: {only} too blurry; take 3 or more sharp photos of this face (hold it still)"
            )
        if len(sharp) < 3:
            warn(f"face {label!r}: only {len(sharp)} usable photo(s); 3 or more make reading more reliable")
        aligned, fit = _align(sharp)
        # A photo far below the others (badly cut, another face, a hand in view) would only lower the
        # threshold: it is left out, and named.
        kept = usual(fit)
        for j in sorted(set(range(len(fit))) - set(kept)):
            warn(
                f"face {label!r}: {used[j].name} does not look like the face's other photos (its printing"
                f" fits theirs {fit[j]:.2f}, far below the rest); kept: retake it if it shows something else"
            )
            named.add((label, used[j].name))
        # More photos add little, and every template costs reading time: keep those that fit the others best.
        kept = sorted(sorted(kept, key=lambda j: -fit[j])[:MAX_TEMPLATES])
        aligned = [aligned[j] for j in kept]
        arts[label] = aligned
        views[label] = [arts_of_view(used[j]) for j in kept]
        found = areas_of(np.mean(aligned, axis=0))
        chosen = (areas or {}).get(label, found)
        faces.append(TaughtFace(label, tuple(to_uint8(a) for a in aligned), 0.0, chosen))

    draft = SymbolProfile(tuple(faces), body, margin=0.0)
    embedder = embedder or default_embedder()
    vectors, squares, alike = face_vectors(photos, finds, embedder, warn, named)
    thresholds, margin = calibrate(draft, arts, views, alike)
    return SymbolProfile(
        tuple(
            replace(f, threshold=t, vectors=vectors[f.label], cuts=squares[f.label])
            for f, t in zip(faces, thresholds, strict=True)
        ),
        body,
        margin,
        embedder=str(embedder.model.card["version"]),
    )


DISAGREE = 0.7
"""A teaching photo whose vector is on average less similar than this to its face's other photos is named: it
may show something else (another face, a hand, a die cut badly). It is kept: an embedder that never saw such a
table puts clear photos of one face at 0.1-0.7, and leaving them out cost 3-4 points of the dice named on the
real sets' training halves (`lab.symbol_real --validate`, nets trained without the set)."""


def face_vectors(
    photos: Sequence[TeachingPhoto],
    finds: dict[int, Detection],
    embedder: FaceEmbedder,
    warn: Callable[[str], None],
    named: Collection[tuple[str, str]] = (),
) -> tuple[dict[str, tuple[Turns, ...]], dict[str, tuple[Cut, ...]], frozenset[frozenset[str]]]:
    """Per face, each kept photo's vectors at the four quarter turns, the first the taught orientation; the
    square each photo's vectors were made of, turned as their first (none when the embedder reads a face as
    the mean of several `LOOKS`: one square could not make them again); and the pairs of faces whose photos
    look alike.

    The first photo of a face defines it (its die turned less than 45° either way); every other photo takes
    the quarter turn nearest it. A photo unlike its face's others (`DISAGREE`) is named, and so is a face
    whose photos sit nearer another face's than their own; a photo in `named` was named already.
    """
    turned: dict[str, list[Turns]] = {}
    cuts: dict[str, list[Cut]] = {}
    names: dict[str, list[str]] = {}
    for p in photos:
        looks = embedder.cuts(p.image, [finds[id(p)]])
        vectors = embedder.looks_of(looks, turns=4)[0][:, 0]  # row k: turned k quarter turns
        label = p.face
        if label not in turned:
            # The cut undid a clockwise turn of the die; past 45° it shows the die a quarter turn on.
            k = -1 if finds[id(p)].angle > 45 else 0
            turned[label], cuts[label], names[label] = [], [], []
        else:
            k = int(np.argmax(vectors @ turned[label][0][0]))
        turned[label].append(np.roll(vectors, -k, axis=0))
        if len(looks) == 1:
            # Row 0 is now the cut turned k quarter turns, as `quarter_turns` turns it.
            cuts[label].append(np.ascontiguousarray(np.rot90(looks[0], k)))
        names[label].append(p.name)
    uprights = {label: np.stack([v[0] for v in photo_vectors]) for label, photo_vectors in turned.items()}
    for label, upright in uprights.items():
        sims = upright @ upright.T
        fits = [float(np.delete(sims[j], j).mean()) if len(upright) > 1 else 1.0 for j in range(len(upright))]
        for j, fit in enumerate(fits):
            if fit < DISAGREE and (label, names[label][j]) not in named:
                warn(
                    f"face {label!r}: {names[label][j]} does not look like the face's other photos"
                    f" (similarity {floor(fit * 100) / 100:.2f} < {DISAGREE}); kept: retake it if it shows"
                    " something else"
                )
    alike: set[frozenset[str]] = set()
    for label, own in uprights.items():
        inner = float((own @ own.T).mean()) if len(own) > 1 else 1.0
        for other, theirs in turned.items():
            if other == label:
                continue
            cross = float((own @ np.concatenate(theirs).T).max(axis=1).mean())
            if cross >= inner:
                alike.add(frozenset((label, other)))
                warn(
                    f"face {label!r}: its photos look like those of face {other!r} (similarity {cross:.2f}"
                    f" against {inner:.2f} among its own): check the labels or retake the photos"
                )
    return (
        {label: tuple(photo_vectors) for label, photo_vectors in turned.items()},
        {label: tuple(photo_cuts) for label, photo_cuts in cuts.items()},
        frozenset(alike),
    )


def reading_view(image: Image, box: Box) -> tuple[Image, Box]:
    """A teaching photo as the table camera may see the die: READ_SIDE pixels wide, a little blurred.

    Teaching photos show the die large and sharp; a face's threshold is set from how well these views of
    its photos still match, so faces with fine detail (which suffers most from a small, soft view) get a
    lower threshold than bold ones.
    """
    scale = min(1.0, READ_SIDE / max(box.width, box.height, 1.0))
    small = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    return np.asarray(cv2.GaussianBlur(small, (0, 0), READ_BLUR), np.uint8), Box(
        box.x0 * scale, box.y0 * scale, box.x1 * scale, box.y1 * scale
    )


def calibrate(
    draft: SymbolProfile,
    arts: dict[str, list[Float]],
    views: dict[str, list[list[Float]]],
    alike: frozenset[frozenset[str]],
) -> tuple[list[float], float]:
    """Per-face thresholds and the margin; faces that look the same to the templates and to the embedder
    (`alike`) are an error naming both (templates alone confuse the art maps of real pip faces, which the
    embedder tells apart).

    A face's threshold: the worst score of its photos' reading views (each against the face's other photos,
    leave-one-out) less a little slack. The margin: a share of the smallest lead of a photo's own face over
    the best other face.
    """
    matcher = FaceMatcher(draft)
    n_rot = len(ROTATIONS)
    thresholds: list[float] = []
    gaps: list[float] = []
    for fi, face in enumerate(draft.faces):
        scores = matcher.scores(arts[face.label]).reshape(len(arts[face.label]), -1, n_rot).max(axis=2)
        for other, name in enumerate(draft.labels):
            cross = float(scores[:, other].max())
            if other != fi and cross >= SAME_FACE and frozenset((face.label, name)) in alike:
                raise TeachingError(
                    f"faces {face.label!r} and {name!r} look the same (match {cross:.2f});"
                    " check the labels or retake the photos of these faces"
                )
        impostor = (
            np.delete(scores, fi, axis=1).max(axis=1) if len(draft.faces) > 1 else np.zeros(len(scores))
        )
        hard: list[float] = []
        for j, view in enumerate(views[face.label]):
            rest = tuple(t for i, t in enumerate(face.templates) if i != j) or face.templates
            alone = FaceMatcher(SymbolProfile((TaughtFace(face.label, rest, 0.0),), draft.body_lab, 0.0))
            hard.append(float(alone.scores(view).max()))
            if len(face.templates) > 1:
                genuine = float(alone.scores([arts[face.label][j]]).max())
                gaps.append(genuine - float(impostor[j]))
        thresholds.append(float(np.clip(usual_worst(hard) - THRESHOLD_SLACK, *THRESHOLD_RANGE)))
    margin = float(np.clip(0.25 * min(gaps), *MARGIN_RANGE)) if gaps else MARGIN_RANGE[1]
    return thresholds, margin


def usual(scores: Sequence[float]) -> list[int]:
    """Indices of the scores not OUTLIER_DROP or more below the median, when there are three or more to tell
    an odd one out (else all)."""
    if len(scores) < 3:
        return list(range(len(scores)))
    floor = float(np.median(scores)) - OUTLIER_DROP
    return [j for j, score in enumerate(scores) if score >= floor]


def usual_worst(scores: Sequence[float]) -> float:
    """The lowest score of a face's reading views, leaving out any far below the others (`usual`).

    A view whose cut failed (a perspective photo shrunk to READ_SIDE) says nothing of how the face reads at
    the table, and one such view alone would let every foreign die that resembles the face pass as it.
    """
    return min(scores[j] for j in usual(scores))


def parse_edges(specs: Sequence[str]) -> dict[str, tuple[Sides, ...]]:
    """`LABEL=top,left` overrides: the sides each area reaches, `/` between separate areas
    (`city3=top/bottom`: two caps); nothing after `=` means no city area."""
    out: dict[str, tuple[Sides, ...]] = {}
    for spec in specs:
        label, sep, text = spec.partition("=")
        if label in out:
            # The last one silently won: which of the two the user meant is theirs to say.
            raise TeachingError(f"--edges names face {label!r} twice: give each face's areas once")
        areas = [frozenset(s.strip() for s in area.split(",") if s.strip()) for area in text.split("/")]
        areas = [area for area in areas if area]
        if not sep or not label or any(area - set(EDGES) for area in areas) or _overlap(areas):
            raise TeachingError(
                f"--edges {spec!r}: expected LABEL=SIDE[,SIDE...][/SIDE...] with sides from "
                f"{', '.join(EDGES)}, each side in one area"
            )
        out[label] = tuple(areas)
    return out


def _overlap(areas: list[Sides]) -> bool:
    return sum(len(a) for a in areas) != len(frozenset().union(*areas))


def enroll(
    faces_dir: Path,
    out: Path,
    edge_specs: Sequence[str] = (),
    warn: Callable[[str], None] = print,
    faces: Sequence[str] = (),
    say: Callable[[str], None] = _silent,
) -> SymbolProfile:
    """Teach from a folder of face folders (those of `faces` only, if given) and write the profile; progress
    is said to `say`."""
    areas = parse_edges(edge_specs)
    photos = read_faces_dir(faces_dir, warn, faces)
    labels = list(dict.fromkeys(p.face for p in photos))
    if unknown := [label for label in areas if label not in labels]:
        # A typo (`citi1`) was taught without a word, the face's areas left as found.
        raise TeachingError(
            f"--edges names {', '.join(map(repr, unknown))}: no such face in {faces_dir}"
            f" (its faces: {', '.join(labels)})"
        )
    profile = teach(photos, areas, warn, say=say)
    profile.save(out)
    return profile


def profile_file(text: str) -> Path:
    """`--out`: a file to write, refused before teaching where it names a folder (an unset variable gives
    '', the current folder: teaching ended in a traceback)."""
    path = Path(text)
    if not text.strip() or not path.name or path.is_dir():
        raise argparse.ArgumentTypeError(f"{text!r} is a folder, not a file to write the profile to")
    return path


def faces_folder(text: str) -> Path:
    """FACES_DIR, refused where empty: `Path("")` is the current folder, and an unset variable taught its
    subfolders as faces."""
    if not text.strip():
        raise argparse.ArgumentTypeError("an empty path, not a folder of faces")
    return Path(text)


def add_enroll_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--out", type=profile_file, required=True, help="profile JSON file to write")
    parser.add_argument(
        "--edges", action="append", default=[], metavar="LABEL=SIDES",
        help="override a face's city areas at rotation 0: the sides each reaches, / between two areas, e.g."
        " city2=top,left or city5=top/bottom (repeatable)",
    )  # fmt: skip


def run_enroll(args: argparse.Namespace, faces_dir: Path, faces: Sequence[str] = ()) -> int:
    try:
        profile = enroll(
            faces_dir, args.out, args.edges, lambda m: complain("warning", m), faces, say=_progress
        )
    except KeyboardInterrupt:  # Ctrl+C: the profile is written whole or not at all
        complain(
            "error",
            f"stopped: nothing taught, {args.out} left as it was (the photos are in {faces_dir})",
        )
        return 130
    except TeachingError as exc:
        complain("error", str(exc))
        return 2
    except OSError as exc:  # a full disk, a folder not writable: nothing half written is left
        complain("error", f"cannot write the profile: {exc}")
        return 2
    count = f"{len(profile.faces)} face{'s' if len(profile.faces) != 1 else ''}"
    print(
        f"taught {count} ({', '.join(profile.labels)});"
        f" thresholds {', '.join(f'{f.threshold:.2f}' for f in profile.faces)},"
        f" margin {profile.margin:.2f}; wrote {printable(str(args.out))}"
    )
    return 0


def _progress(line: str) -> None:
    """A line of teaching's progress, shown at once where the output is a pipe or a log too."""
    print(printable(line), flush=True)
