"""The squares a profile keeps of its teaching photos: in the file, and made into vectors by an embedder that
did not teach the profile."""

from __future__ import annotations

import json
import shutil
from dataclasses import replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from models import model_card, model_path
from vision.detect import Detection
from vision.reading import Box
from vision.symbols.embed import FaceEmbedder, TaughtFaces, default_embedder
from vision.symbols.profile import ProfileError, SymbolProfile, load_profile, parse_profile
from vision.symbols.teach import TeachingPhoto, face_vectors, read_faces_dir, teach

FACES_DIR = Path(__file__).resolve().parents[2] / "data" / "d6-tray-faces"
F2 = 2e-3
"""How far a vector stored as float16 lies from the one taught."""


@pytest.fixture(scope="module")
def taught() -> SymbolProfile:
    return teach(read_faces_dir(FACES_DIR, lambda _: None), warn=lambda _: None)


def other_embedder(folder: Path) -> FaceEmbedder:
    """The shipped net under another version's name: a newer embedder, as far as a profile can tell."""
    shutil.copy(model_path("face_embedder"), folder / "face_embedder.onnx")
    card = {**model_card("face_embedder"), "version": "face-embedder-a-newer-one"}
    (folder / "face_embedder.json").write_text(json.dumps(card))
    return FaceEmbedder(folder=folder)


def test_every_photo_keeps_its_cut_and_they_survive_the_file(taught: SymbolProfile, tmp_path: Path) -> None:
    path = tmp_path / "pips.json"
    taught.save(path)
    loaded = load_profile(path)
    size = default_embedder().size
    for a, b in zip(loaded.faces, taught.faces, strict=True):
        assert len(b.cuts) == len(b.vectors) and b.cuts[0].shape == (size, size, 3)
        assert all(np.array_equal(x, y) for x, y in zip(a.cuts, b.cuts, strict=True))


def test_a_profile_without_cuts_still_loads(taught: SymbolProfile) -> None:
    data = taught.to_json()
    for face in data["faces"]:  # type: ignore[attr-defined]
        del face["cuts"]
    assert all(not f.cuts and f.vectors for f in parse_profile(data).faces)


def test_the_stored_cuts_give_the_stored_vectors(taught: SymbolProfile, tmp_path: Path) -> None:
    """Each photo's cut, read at its four quarter turns by the embedder that taught it, gives the photo's
    vectors row by row: the cut is turned as the vectors were."""
    path = tmp_path / "pips.json"
    taught.save(path)
    embedder = default_embedder()
    for face in load_profile(path).faces:
        made = embedder.at_turns(np.stack(face.cuts))
        assert np.abs(made - np.stack(face.vectors)).max() < F2, face.label


def letter_photos() -> list[TeachingPhoto]:
    """One face, an F (no turn of it looks like another), photographed at each quarter turn."""
    image = np.full((200, 200, 3), 110, np.uint8)
    cv2.rectangle(image, (60, 60), (140, 140), (235, 235, 235), -1)
    cv2.putText(image, "F", (78, 128), cv2.FONT_HERSHEY_SIMPLEX, 2.0, (20, 20, 20), 6)
    return [TeachingPhoto("f", f"turn{k}", np.ascontiguousarray(np.rot90(image, k))) for k in range(4)]


def test_a_photo_turned_keeps_its_cut_turned_to_the_face() -> None:
    """Photos of one face at each quarter turn: every photo's cut is turned back to the first photo's
    orientation, and gives its vectors again."""
    photos = letter_photos()
    finds = {id(p): Detection(Box(60, 60, 140, 140), 1.0, 0.0) for p in photos}
    embedder = default_embedder()
    vectors, cuts, _ = face_vectors(photos, finds, embedder, lambda _: None)
    assert len(cuts["f"]) == 4
    for v, cut in zip(vectors["f"], cuts["f"], strict=True):
        assert np.abs(embedder.at_turns(cut[None])[0] - v).max() < 1e-4
        off = [np.abs(np.rot90(cut, k).astype(int) - cuts["f"][0]).mean() for k in range(4)]
        assert int(np.argmin(off)) == 0, off


def test_a_newer_embedder_reads_the_profile_from_its_cuts(taught: SymbolProfile, tmp_path: Path) -> None:
    """An embedder of another version makes the vectors anew from the cuts: the same net makes the same."""
    path = tmp_path / "pips.json"
    taught.save(path)
    faces = TaughtFaces(load_profile(path), other_embedder(tmp_path))
    stored = TaughtFaces(taught)
    assert np.abs(faces.bank_t - stored.bank_t).max() < F2
    assert np.array_equal(faces.faces, stored.faces) and np.array_equal(faces.turns, stored.turns)


def test_a_newer_embedder_refuses_a_profile_without_cuts_it_can_read(
    taught: SymbolProfile, tmp_path: Path
) -> None:
    other = other_embedder(tmp_path)
    without = replace(taught, faces=(replace(taught.faces[0], cuts=()), *taught.faces[1:]))
    with pytest.raises(ProfileError, match=r"taught with another face embedder .*teach it again"):
        TaughtFaces(without, other)
    small = replace(
        taught, faces=tuple(replace(f, cuts=tuple(c[:40, :40] for c in f.cuts)) for f in taught.faces)
    )
    with pytest.raises(ProfileError, match=r"taught with another face embedder .*teach it again"):
        TaughtFaces(small, other)


def damaged(taught: SymbolProfile, damage: str) -> dict[str, Any]:
    data: dict[str, Any] = taught.to_json()
    cuts = data["faces"][1]["cuts"]
    if damage == "size":
        cuts[0] = cuts[0][:-8]
    elif damage == "count":
        cuts.pop()
    elif damage == "base64":
        cuts[1] = "not base64!"
    elif damage == "empty":
        data["faces"][1]["cuts"] = []
    elif damage == "sizes":
        for face in data["faces"][1:]:
            face["cuts"] = [c[: 40 * 40 * 4] for c in face["cuts"]]  # 40x40x3 bytes
    return data


@pytest.mark.parametrize(
    ("damage", "field"),
    [
        ("size", "faces[1] (four).cuts[0]"),
        ("count", "faces[1] (four).cuts"),
        ("base64", "faces[1] (four).cuts[1]"),
        ("empty", "faces[1] (four).cuts"),
        ("sizes", "faces': cuts of different sizes"),
    ],
)
def test_a_damaged_cuts_field_is_refused_naming_it(taught: SymbolProfile, damage: str, field: str) -> None:
    assert taught.faces[1].label == "four"
    with pytest.raises(ProfileError) as error:
        parse_profile(damaged(taught, damage))
    assert field in str(error.value) and "\n" not in str(error.value)
