"""A symbol-dice profile: the taught faces of one set of dice, as a validated JSON file.

```json
{"format": "symbol-dice-profile", "version": 2, "patch": 32, "body_lab": [92.1, 0.3, 1.2], "margin": 0.1,
 "embedder": "face-embedder-...",
 "faces": [{"label": "tower", "threshold": 0.72, "areas": [],
            "vectors": ["<base64 of 4*D float16>", ...],
            "cuts": ["<base64 of S*S*3 uint8>", ...],
            "templates": ["<base64 of patch*patch uint8>", ...]}, ...]}
```

`vectors` hold, per teaching photo, the face embedder's vectors of its face at the four quarter turns
(counter-clockwise, the first the taught orientation); `embedder` names the model that made them, since
another model's vectors mean nothing to it. `cuts` (optional) hold, per teaching photo, the S×S BGR square
the embedder read, turned as the photo's first vector: a newer embedder of the same input size makes the
vectors anew from them when it reads the profile, so that its dice need no teaching again. A die on the table
reads as the face of the nearest vector (`vision.symbols.embed.FaceRule`). Profiles of version 1, taught
before the embedder, have no vectors: they load, and the reader asks for them to be taught again.

The city reader (`vision.grid`) still matches templates: a cell reads as a face when its best match reaches
the face's `threshold` and beats every other face by `margin` (a share of it for a face that looks alike);
both are calibrated from the teaching photos.

`templates` are art maps (see `vision.symbols.art`) of the teaching photos, aligned to the taught orientation
(rotation 0). `areas` lists the face's separate areas of art that reach its sides, each by the sides ("top",
"right", "bottom", "left") it reaches at rotation 0 — the city areas of a Carcassonne city face: a band
across the face is `[["top", "bottom"]]`, a cap at the top and another at the bottom `[["top"],
["bottom"]]`. They are found from the photos and may be edited. Profiles taught before areas were kept give
`edges` instead (one list of sides: one area).
"""

from __future__ import annotations

import base64
import binascii
import json
import math
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
import numpy.typing as npt

from jsonfile import JsonFileError, Limits, control_character, read_json, refuse_unknown, short, shown
from jsonfile.whole import write_whole
from vision.reading import UNKNOWN
from vision.symbols.locate import PATCH

FORMAT = "symbol-dice-profile"
VERSION = 2
VERSIONS = (1, 2)
"""Version 1 profiles (no vectors) still load, for the counting helpers; the reader refuses them."""
EDGES = ("top", "right", "bottom", "left")
"""Sides of a face in clockwise order as seen at rotation 0."""

Template = npt.NDArray[np.uint8]
Turns = npt.NDArray[np.float32]
"""One teaching photo's face vectors at the four quarter turns: 4×D."""
MAX_DIMS = 1024
Cut = npt.NDArray[np.uint8]
"""The square of a teaching photo that the embedder read, in the taught orientation: S×S×3 BGR."""
CUT_SIDES = (8, 256)
"""The least and most pixels on a side of a cut (the shipped embedder reads 48): a file's cut outside them is
damage, not an embedder's input."""
Sides = frozenset[str]

LIMITS = Limits(size=50_000_000)
"""A taught set of dice is some 300 KB (a template is 1,368 characters, a cut 9,216); a file of 50 MB is not a
profile."""
LAB_RANGE = 1000.0
"""No body colour is further from 0 on any Lab axis (L is 0–100, a and b within ±128)."""


class ProfileError(ValueError):
    """A profile file that cannot be used; the message names the file and the field."""


def turned(sides: Sides, rotation: int) -> Sides:
    """Sides of a face (named at rotation 0) as they lie when the face is turned `rotation` degrees
    counter-clockwise: a quarter turn takes the top side to the left."""
    turns = rotation // 90
    return frozenset(EDGES[(EDGES.index(side) - turns) % 4] for side in sides)


@dataclass(frozen=True)
class TaughtFace:
    label: str
    templates: tuple[Template, ...]
    threshold: float
    areas: tuple[Sides, ...] = ()
    """The face's separate areas of art that reach its sides, each by the sides it reaches, at rotation 0."""
    vectors: tuple[Turns, ...] = ()
    """Per teaching photo, the embedder's vectors of the face at the four quarter turns."""
    cuts: tuple[Cut, ...] = ()
    """Per teaching photo, the square its vectors were made of, turned to the taught orientation (or none)."""

    @property
    def edges(self) -> Sides:
        """Every side the face's art reaches."""
        return frozenset().union(*self.areas)

    def areas_at(self, rotation: int) -> tuple[Sides, ...]:
        """The areas as they lie when the face is turned `rotation` degrees counter-clockwise."""
        return tuple(turned(area, rotation) for area in self.areas)


@dataclass(frozen=True)
class SymbolProfile:
    """Everything needed to read one set of symbol dice."""

    faces: tuple[TaughtFace, ...]
    body_lab: tuple[float, float, float]
    """The taught body colour in Lab (`vision.colour.Lab` as stored)."""
    margin: float
    patch: int = PATCH
    embedder: str = ""
    """The face embedder whose vectors the faces hold ("" for a profile taught before it)."""

    @property
    def labels(self) -> tuple[str, ...]:
        return tuple(f.label for f in self.faces)

    def face(self, label: str) -> TaughtFace:
        for f in self.faces:
            if f.label == label:
                return f
        raise KeyError(f"no taught face {label!r} (taught: {', '.join(self.labels)})")

    def without(self, label: str) -> SymbolProfile:
        """The profile with that face never taught: how a face missing from a profile is measured."""
        return replace(self, faces=tuple(f for f in self.faces if f.label != label))

    def to_json(self) -> dict[str, object]:
        """The file's JSON: version 2 with the embedder's vectors, version 1 for a profile without them."""
        out: dict[str, object] = {
            "format": FORMAT,
            "version": VERSION if self.embedder else 1,
            "patch": self.patch,
            "body_lab": [round(v, 2) for v in self.body_lab],
            "margin": round(self.margin, 4),
        }
        if self.embedder:
            out["embedder"] = self.embedder
        out["faces"] = [self._face_json(f) for f in self.faces]
        return out

    def _face_json(self, face: TaughtFace) -> dict[str, object]:
        out: dict[str, object] = {
            "label": face.label,
            "threshold": round(face.threshold, 4),
            "areas": [[e for e in EDGES if e in area] for area in face.areas],
        }
        if self.embedder:
            out["vectors"] = [
                base64.b64encode(v.astype("<f2").tobytes()).decode("ascii") for v in face.vectors
            ]
            if face.cuts:
                out["cuts"] = [base64.b64encode(c.tobytes()).decode("ascii") for c in face.cuts]
        out["templates"] = [base64.b64encode(t.tobytes()).decode("ascii") for t in face.templates]
        return out

    def save(self, path: Path) -> None:
        write_whole(path, json.dumps(self.to_json(), indent=1) + "\n")


def load_profile(path: Path) -> SymbolProfile:
    """Read and validate a profile; every problem is a ProfileError naming the file and the field."""
    try:
        data = read_json(Path(path), LIMITS)
    except JsonFileError as exc:
        raise ProfileError(str(exc)) from None
    try:
        return parse_profile(data)
    except ProfileError as exc:
        raise ProfileError(f"{path}: {exc}") from None


def parse_profile(data: object) -> SymbolProfile:
    if not isinstance(data, dict):
        raise ProfileError("profile must be a JSON object")
    refuse_unknown(
        data, ("format", "version", "patch", "body_lab", "margin", "embedder", "faces"), "", ProfileError
    )
    if data.get("format") != FORMAT:
        raise ProfileError(f"field 'format' must be {FORMAT!r}, got {short(data.get('format'))}")
    version = data.get("version")
    if version not in VERSIONS or isinstance(version, bool):
        raise ProfileError(f"field 'version' must be one of {VERSIONS}, got {short(version)}")
    embedder = data.get("embedder", "") if version == 2 else ""
    if not isinstance(embedder, str) or (version == 2 and not embedder):
        raise ProfileError(f"field 'embedder' must name the face embedder, got {short(embedder)}")
    patch = data.get("patch")
    if patch != PATCH:
        # The reader cuts every face to one size: templates of any other would not fit it.
        raise ProfileError(f"field 'patch' must be {PATCH} (the reader's face cut), got {short(patch)}")
    body = data.get("body_lab")
    if not (
        isinstance(body, list) and len(body) == 3 and all(_is_number(v) and abs(v) <= LAB_RANGE for v in body)
    ):
        raise ProfileError(f"field 'body_lab' must be a list of 3 Lab numbers, got {short(body)}")
    faces_raw = data.get("faces")
    if not isinstance(faces_raw, list) or not faces_raw:
        raise ProfileError("field 'faces' must be a non-empty list")
    faces = tuple(_face(f, i, PATCH, version == 2) for i, f in enumerate(faces_raw))
    dims = {v.shape[1] for f in faces for v in f.vectors}
    if len(dims) > 1:
        raise ProfileError(
            f"field 'faces': vectors of different lengths ({', '.join(map(str, sorted(dims)))})"
        )
    sides = {c.shape[0] for f in faces for c in f.cuts}
    if len(sides) > 1:
        raise ProfileError(f"field 'faces': cuts of different sizes ({', '.join(map(str, sorted(sides)))})")
    seen: set[str] = set()
    for f in faces:
        if f.label in seen:
            raise ProfileError(f"field 'faces': label {short(f.label)} appears twice")
        seen.add(f.label)
    return SymbolProfile(
        faces=faces,
        body_lab=(float(body[0]), float(body[1]), float(body[2])),
        margin=_number(data, "margin", 0.0, 1.0),
        patch=PATCH,
        embedder=embedder,
    )


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and np.isfinite(value)


def _number(data: dict[str, object], key: str, lo: float, hi: float, where: str = "") -> float:
    value = data.get(key)
    name = f"{where}.{key}" if where else key
    if not _is_number(value):
        raise ProfileError(f"field {name!r} must be a number, got {short(value)}")
    number = float(value)  # type: ignore[arg-type]
    if not lo <= number <= hi:
        raise ProfileError(f"field {name!r} must be between {lo:g} and {hi:g}, got {number:g}")
    return number


def label_error(label: str) -> str:
    """Why `label` cannot name a taught face ('' where it can): what teaching refuses before it teaches, and
    a profile's reader refuses too, so that a profile taught is always read back."""
    if not label.strip():
        return "an empty name"
    if label == UNKNOWN:
        return f"'{UNKNOWN}' is what the reader says of a face it was not taught"
    if control_character(label):
        return f"it holds control character {control_character(label)}"
    return ""


def _face(raw: object, index: int, patch: int, with_vectors: bool) -> TaughtFace:
    where = f"faces[{index}]"
    if not isinstance(raw, dict):
        raise ProfileError(f"field '{where}' must be an object")
    refuse_unknown(
        raw,
        ("label", "threshold", "areas", "edges", "vectors", "cuts", "templates"),
        f"field '{where}'",
        ProfileError,
    )
    label = raw.get("label")
    if not isinstance(label, str) or label_error(label):
        raise ProfileError(
            f"field '{where}.label' must be a non-empty name other than '{UNKNOWN}', got {short(label)}"
        )
    where = f"faces[{index}] ({shown(label)})"
    threshold = _number(raw, "threshold", 0.0, 1.0, where)
    areas = _areas(raw, where)
    templates = []
    for j, blob in enumerate(_blobs(raw, "templates", where)):
        if len(blob) != patch * patch:
            raise ProfileError(
                f"field '{where}.templates[{j}]' must be base64 of {patch}x{patch} bytes ({patch * patch}), "
                f"got {len(blob)} bytes"
            )
        templates.append(np.frombuffer(blob, np.uint8).reshape(patch, patch).copy())
    vectors = _vectors(raw, where) if with_vectors else ()
    cuts = _cuts(raw, where, len(vectors)) if with_vectors and "cuts" in raw else ()
    return TaughtFace(label, tuple(templates), threshold, areas, vectors, cuts)


def _blobs(raw: dict[str, object], key: str, where: str) -> list[bytes]:
    """The bytes of each base64 text of a face's list `key` (b"" for text that is not base64)."""
    encoded = raw.get(key)
    if not isinstance(encoded, list) or not encoded:
        raise ProfileError(f"field '{where}.{key}' must be a non-empty list")
    out = []
    for text in encoded:
        try:
            out.append(base64.b64decode(text, validate=True) if isinstance(text, str) else b"")
        except (binascii.Error, ValueError):
            out.append(b"")
    return out


def _vectors(raw: dict[str, object], where: str) -> tuple[Turns, ...]:
    out = []
    for j, blob in enumerate(_blobs(raw, "vectors", where)):
        dims = len(blob) // 8  # 4 turns of float16
        vectors = np.frombuffer(blob[: dims * 8], "<f2").astype(np.float32).reshape(4, dims)
        finite = bool(np.isfinite(vectors).all())
        norms = np.linalg.norm(vectors, axis=1) if finite else np.zeros(4)
        if not 0 < dims <= MAX_DIMS or len(blob) != dims * 8 or not np.all(np.abs(norms - 1) < 0.01):
            raise ProfileError(
                f"field '{where}.vectors[{j}]' must be base64 of 4 unit vectors of float16,"
                f" got {len(blob)} bytes"
            )
        out.append(vectors)
    return tuple(out)


def _cuts(raw: dict[str, object], where: str, photos: int) -> tuple[Cut, ...]:
    blobs = _blobs(raw, "cuts", where)
    if len(blobs) != photos:
        raise ProfileError(f"field '{where}.cuts' must hold one cut per vector ({photos}), got {len(blobs)}")
    out = []
    for j, blob in enumerate(blobs):
        side = math.isqrt(len(blob) // 3)
        if len(blob) != side * side * 3 or not CUT_SIDES[0] <= side <= CUT_SIDES[1]:
            raise ProfileError(
                f"field '{where}.cuts[{j}]' must be base64 of a square cut (SxSx3 bytes, S from"
                f" {CUT_SIDES[0]} to {CUT_SIDES[1]}), got {len(blob)} bytes"
            )
        out.append(np.frombuffer(blob, np.uint8).reshape(side, side, 3).copy())
    return tuple(out)


def _areas(raw: dict[str, object], where: str) -> tuple[Sides, ...]:
    """A face's `areas`, or the `edges` of a profile taught before areas were kept (one area)."""
    sides = ", ".join(EDGES)
    if "edges" in raw:
        if "areas" in raw:
            raise ProfileError(f"field '{where}' gives both 'areas' and 'edges': keep 'areas'")
        edges = raw["edges"]
        if not isinstance(edges, list) or any(e not in EDGES for e in edges):
            raise ProfileError(f"field '{where}.edges' must list some of {sides}, got {short(edges)}")
        return (frozenset(edges),) if edges else ()
    areas = raw.get("areas", [])
    if not isinstance(areas, list):
        raise ProfileError(f"field '{where}.areas' must be a list of lists of sides, got {short(areas)}")
    found: list[Sides] = []
    for j, area in enumerate(areas):
        if not isinstance(area, list) or not area or any(e not in EDGES for e in area):
            raise ProfileError(
                f"field '{where}.areas[{j}]' must list one or more of {sides}, got {short(area)}"
            )
        if any(set(area) & other for other in found):
            raise ProfileError(f"field '{where}.areas[{j}]': a side belongs to one area, got {short(area)}")
        found.append(frozenset(area))
    return tuple(found)
