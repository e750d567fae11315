"""The face embedder: a die's top face, cut square from the detector's find, turned into a unit vector.

The net (`models/face_embedder.onnx`) was trained once, by metric learning, on rendered faces of random art
and real pip faces under hard augmentation (perspective with side faces, blur, glare, marbled and ghosted
bodies): two views of one face give close vectors whatever the die's colour, light and camera, two
different faces far apart ones. It has never seen the games' own artwork, so a new set of dice is taught by
storing the vectors of a few photos of each face (`vision.symbols.profile`). A second output says how much
the cut looks like a die's face at all: a laptop key or a cable end found by the detector is no symbol die.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path

import numpy as np
import numpy.typing as npt

from jsonfile import short
from vision.crops import Square, crop_squares
from vision.detect import Detection
from vision.reading import ASKED, SURE_READ, UNKNOWN, Image, Rotation
from vision.runtime import Model, channels_first
from vision.symbols.matcher import ROTATIONS
from vision.symbols.profile import ProfileError, SymbolProfile
from vision.symbols.top_face import default_top_face, face_square

LOOKS = (1.0,)
"""Each face is cut at these scales of its square and read as the mean of their vectors. Three scales (1.0,
0.92, 1.08) helped the first embedder; the one trained on 2026-11-26 at 13:04 names as many dice from one
(chosen on the sets' training parts with nets that never saw the set: docs/symbol-reader.md), in a third of
the time."""
Vectors = npt.NDArray[np.float32]


class FaceEmbedder:
    """Cuts and embeds die faces with the `face_embedder` model: N×D unit vectors and N die-face scores."""

    def __init__(self, name: str = "face_embedder", folder: Path | None = None) -> None:
        self.model = Model(name, folder=folder)
        self.size = int(self.model.card["input_size"])  # type: ignore[call-overload]
        self.dims = int(self.model.card["dims"])  # type: ignore[call-overload]
        self.top_face = default_top_face()

    def cuts(self, image: Image, finds: Sequence[Detection]) -> npt.NDArray[np.uint8]:
        """The squares the embedder reads of each find (its top face where seen at an angle: `TopFace`), one
        per `LOOKS` scale, look-major (looks·N×S×S×3)."""
        return self.cut(image, self.top_face.squares(image, finds)[0])

    def cut(self, image: Image, squares: Sequence[Square]) -> npt.NDArray[np.uint8]:
        """`squares` cut at each `LOOKS` scale, look-major."""
        # Every look of every find in one cut: the frame's halvings are made once.
        looks = [(x, y, side * scale, angle) for scale in LOOKS for x, y, side, angle in squares]
        return crop_squares(image, looks, self.size)

    def looks_of(self, cuts: npt.NDArray[np.uint8], turns: int = 1) -> tuple[Vectors, Vectors]:
        """Each find's vector, the mean of its `LOOKS` (N×D, or turns×N×D at the first `turns` quarter turns),
        and its die-face score (N), from the squares `cut` made."""
        n = len(cuts) // len(LOOKS)
        if turns > 1:
            cuts = quarter_turns(cuts)
        vectors, die_face = self(cuts)
        mean = vectors.reshape(turns, len(LOOKS), n, -1).mean(axis=1)
        mean /= np.maximum(np.linalg.norm(mean, axis=-1, keepdims=True), 1e-6)
        face = die_face.reshape(turns, len(LOOKS), n)[0].mean(axis=0)
        return (mean[0] if turns == 1 else mean), face

    def at_turns(self, cuts: npt.NDArray[np.uint8]) -> Vectors:
        """Each cut's vectors at its four quarter turns counter-clockwise (N×4×D), as a profile keeps them."""
        vectors = self(quarter_turns(cuts))[0]
        return np.ascontiguousarray(vectors.reshape(4, len(cuts), -1).transpose(1, 0, 2))

    def __call__(self, cuts: npt.NDArray[np.uint8]) -> tuple[Vectors, Vectors]:
        """Unit vectors (N×D) and die-face scores (N, 0-1) of face cuts."""
        if not len(cuts):
            return np.zeros((0, self.dims), np.float32), np.zeros(0, np.float32)
        vectors, face = self.model.run(channels_first(cuts))
        return np.asarray(vectors, np.float32), np.asarray(face, np.float32).reshape(-1)


def quarter_turns(cuts: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
    """Each cut at its four quarter turns counter-clockwise (4N×S×S×3, turn-major): turn k of cut i is row
    k·N + i, the face as it looks turned k·90° counter-clockwise."""
    return np.ascontiguousarray(np.concatenate([np.rot90(cuts, k, axes=(1, 2)) for k in range(4)]))


@dataclass(frozen=True)
class FaceRule:
    """How a die's vector is read against the taught ones (constants chosen when the net was trained, on arts
    it never saw): the nearest taught face is named when the die is at least `accept` similar (cosine) to one
    of its vectors and the softmax of the faces' best similarities over `temperature` gives it at least
    half."""

    accept: float
    temperature: float

    def to_json(self) -> dict[str, float]:
        return {"accept": round(self.accept, 4), "temperature": self.temperature}

    def decide_scores(
        self, sims: Vectors, faces: npt.NDArray[np.intp], n_faces: int
    ) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp], Vectors]:
        """Per die (rows of `sims`, its similarity to every taught vector, whose faces are `faces`): the face
        named (-1: unknown), the nearest taught vector, and the confidence."""
        per_face = np.full((len(sims), n_faces), -1.0, np.float32)
        for f in range(n_faces):
            mine = faces == f
            if mine.any():
                per_face[:, f] = sims[:, mine].max(axis=1)
        best = per_face.argmax(axis=1)
        top = per_face.max(axis=1)
        e = np.exp((per_face - top[:, None]) / self.temperature)
        confidence = np.asarray(1.0 / e.sum(axis=1), np.float32)
        named = (top >= self.accept) & (confidence >= 0.5)
        nearest = np.asarray(sims.argmax(axis=1), np.intp)
        return np.where(named, best, -1).astype(np.intp), nearest, confidence


def card_rule(card: Mapping[str, object]) -> FaceRule:
    """The reading rule from a model card's `rule`."""
    rule = card["rule"]
    assert isinstance(rule, dict)
    return FaceRule(float(rule["accept"]), float(rule["temperature"]))


@dataclass(frozen=True)
class FaceRead:
    """One found die read against the taught faces: the face (or "unknown"), its rotation counter-clockwise
    against the taught face, the confidence, and how much the cut looks like a die's face at all (0-1)."""

    face: str
    rotation: Rotation
    confidence: float
    die_face: float
    nearest: str
    """The nearest taught face, named or not."""
    similarity: float
    """The die's similarity (cosine) to the nearest taught vector."""
    doubted: bool = False
    """Read surely in its top face's square but otherwise in its box's (`TaughtFaces.checked`): no other word
    makes it sure again."""


TEACH_AGAIN = "teach it again (python -m vision enroll, or python -m calibration.faces)"


class TaughtFaces:
    """A profile's taught vectors, ready to read the dice a detector found."""

    def __init__(self, profile: SymbolProfile, embedder: FaceEmbedder | None = None) -> None:
        self.embedder = embedder or default_embedder()
        if not profile.embedder or any(not f.vectors for f in profile.faces):
            raise ProfileError(f"taught before the face embedder (no face vectors): {TEACH_AGAIN}")
        self.labels = profile.labels
        vectors = self._vectors(profile)
        rows = [(fi, t, v[t]) for fi, f in enumerate(vectors) for v in f for t in range(4)]
        self.bank_t = np.ascontiguousarray(np.stack([r[2] for r in rows]).T, np.float32)
        self.faces = np.array([r[0] for r in rows], np.intp)
        self.turns = np.array([r[1] for r in rows], np.intp)
        self.rule = card_rule(self.embedder.model.card)

    def _vectors(self, profile: SymbolProfile) -> Sequence[Sequence[Vectors]]:
        """Per face, its photos' vectors at the four quarter turns: the profile's own, or, for a profile
        taught with another embedder, this one's of the cuts the profile keeps."""
        if profile.embedder == str(self.embedder.model.card["version"]):
            return [f.vectors for f in profile.faces]
        # Another embedder's vectors mean nothing to this one; the squares it read are the same input.
        if not all(f.cuts and f.cuts[0].shape[0] == self.embedder.size for f in profile.faces):
            raise ProfileError(
                f"taught with another face embedder ({short(profile.embedder)}): {TEACH_AGAIN}"
            )
        made = self.embedder.at_turns(np.stack([c for f in profile.faces for c in f.cuts]))
        return [tuple(face) for face in np.split(made, np.cumsum([len(f.cuts) for f in profile.faces])[:-1])]

    def read(
        self, image: Image, finds: Sequence[Detection], crops: npt.NDArray[np.uint8] | None = None
    ) -> list[FaceRead]:
        """The read of each find (`crops`: its pip classifier's crops, which the top-face locator reads)."""
        squares, moved = self.embedder.top_face.squares(image, finds, crops)
        return self.checked(image, finds, moved, self.read_squares(image, squares))

    def read_squares(self, image: Image, squares: Sequence[Square]) -> list[FaceRead]:
        """The reads of these face squares of the frame (each cut at its own turn)."""
        vectors, die_face = self.embedder.looks_of(self.embedder.cut(image, squares))
        return self.decide(vectors, die_face, [angle for *_, angle in squares])

    def checked(
        self, image: Image, finds: Sequence[Detection], moved: npt.NDArray[np.bool_], reads: list[FaceRead]
    ) -> list[FaceRead]:
        """`reads`, where a die whose square was moved to its top face is named surely, asked about unless
        the square around its box names the same face: two cuts' word for a sure read. The locator never saw
        a real die, and a square moved wrong shows a side face's art (a first locator moved a gold tray five's
        square, and it read six at 0.87)."""
        sure = [int(i) for i in np.flatnonzero(moved) if reads[i].confidence >= SURE_READ]
        if not sure:
            return reads
        boxed = self.read_squares(image, [face_square(finds[i]) for i in sure])
        out = list(reads)
        for i, box in zip(sure, boxed, strict=True):
            if box.face != reads[i].face:
                out[i] = replace(reads[i], confidence=min(reads[i].confidence, ASKED), doubted=True)
        return out

    def decide(self, vectors: Vectors, die_face: Vectors, angles: Sequence[float]) -> list[FaceRead]:
        """The reads of dice whose cuts gave these vectors; `angles` are the turns the cuts were made at."""
        sims = vectors @ self.bank_t
        named, nearest, confidence = self.rule.decide_scores(sims, self.faces, len(self.labels))
        out = []
        for i, angle in enumerate(angles):
            # The cut shows the face turned the nearest vector's quarter turns; the cut itself undid the die's
            # clockwise turn by `angle` in the frame.
            turns = round((90 * int(self.turns[nearest[i]]) - angle) / 90) % 4
            face = self.labels[named[i]] if named[i] >= 0 else UNKNOWN
            nearest_face = self.labels[int(self.faces[nearest[i]])]
            similarity = float(sims[i, nearest[i]])
            out.append(
                FaceRead(
                    face, ROTATIONS[turns], float(confidence[i]), float(die_face[i]), nearest_face, similarity
                )
            )
        return out


@cache
def default_embedder() -> FaceEmbedder:
    """The shipped face embedder, loaded once."""
    return FaceEmbedder()
