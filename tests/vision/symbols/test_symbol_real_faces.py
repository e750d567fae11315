"""Symbol dice on real photos: real pip faces taught as symbols from four close photos each, then real tray
photos read with that profile (the faces' photos come from other tray photos than those read)."""

from __future__ import annotations

import json
import shutil
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from models import model_card, model_path
from vision.dataset import load_set
from vision.detect import box_array, overlaps
from vision.images import load_image
from vision.reader import DiceReader
from vision.reading import ASKED, SURE_READ, UNKNOWN
from vision.symbols.embed import FaceEmbedder, TaughtFaces
from vision.symbols.profile import ProfileError, SymbolProfile, load_profile
from vision.symbols.teach import read_faces_dir, teach
from vision.symbols.top_face import face_square

DATA = Path(__file__).resolve().parents[2] / "data"
FACES_DIR = DATA / "d6-tray-faces"
TRAY = DATA / "d6-tray"
FACES = ("one", "two", "three", "four", "five", "six")


@pytest.fixture(scope="module")
def taught() -> tuple[SymbolProfile, list[str]]:
    warnings: list[str] = []
    return teach(read_faces_dir(FACES_DIR, warnings.append), warn=warnings.append), warnings


def reads(profile: SymbolProfile) -> list[tuple[str, str | None, float]]:
    """(true face, face read or None when not read as a symbol die, confidence) per labelled tray die."""
    reader = DiceReader(symbols=profile)
    out = []
    for item in load_set(TRAY):
        reading = reader.read(load_image(item.image))
        iou = overlaps(box_array([d.box for d in item.dice]), box_array([d.box for d in reading.dice]))
        for die, row in zip(item.dice, iou, strict=True):
            j = int(row.argmax()) if len(reading.dice) else -1
            found = reading.dice[j] if j >= 0 and row[j] >= 0.3 else None
            face = found.face if found is not None and found.kind == "symbol" else None
            out.append((FACES[die.value - 1], face, found.confidence if found else 0.0))
    return out


def test_close_photos_of_real_dice_are_all_taught(taught: tuple[SymbolProfile, list[str]]) -> None:
    """Every photo is a die lying alone, cut close: none is refused for want of a die (the blob finder that
    taught before refused 16-84% of such photos)."""
    profile, warnings = taught
    assert sorted(profile.labels) == sorted(FACES)
    assert not [w for w in warnings if "no die found" in w]
    assert all(1 <= len(f.vectors) <= 4 for f in profile.faces)


def test_real_tray_photos_read_with_real_faces_taught(taught: tuple[SymbolProfile, list[str]]) -> None:
    results = reads(taught[0])
    right = sum(true == face for true, face, _ in results)
    sure_wrong = [(t, f) for t, f, c in results if f not in (None, UNKNOWN) and f != t and c >= 0.8]
    assert len(results) == 52
    assert right >= 0.75 * len(results), results
    assert not sure_wrong


def test_a_face_never_taught_is_not_named(taught: tuple[SymbolProfile, list[str]]) -> None:
    profile = taught[0]
    without_six = profile.without("six")
    sixes = [face for true, face, _ in reads(without_six) if true == "six"]
    assert len(sixes) == 8
    assert all(face in (None, UNKNOWN) for face in sixes)


def test_a_sure_read_of_a_moved_square_needs_the_square_around_its_box(
    taught: tuple[SymbolProfile, list[str]],
) -> None:
    """A die whose face square the top-face locator moved to its top face is named surely only where the
    square around its box names the same face: else it is asked about, its face kept."""
    faces = TaughtFaces(taught[0])
    photo = load_image(sorted((TRAY / "images").iterdir())[0])
    finds = DiceReader().pips.detector(photo)
    boxed = faces.embedder.looks_of(faces.embedder.cut(photo, [face_square(f) for f in finds]))
    reads = faces.decide(*boxed, [f.angle for f in finds])
    i = next(i for i, r in enumerate(reads) if r.confidence >= SURE_READ)
    other = next(label for label in faces.labels if label != reads[i].face)
    claimed = [replace(r, face=other, confidence=0.95) if j == i else r for j, r in enumerate(reads)]
    moved = np.arange(len(finds)) == i
    asked = faces.checked(photo, finds, moved, claimed)
    assert (asked[i].face, asked[i].confidence) == (other, ASKED)
    assert asked[:i] + asked[i + 1 :] == reads[:i] + reads[i + 1 :]
    assert faces.checked(photo, finds, moved, reads) == reads
    assert faces.checked(photo, finds, np.zeros(len(finds), bool), claimed) == claimed


def test_a_photo_without_a_die_is_named_and_the_rest_taught(tmp_path: Path) -> None:
    for face in ("one", "two"):
        (tmp_path / face).mkdir()
        for photo in sorted((FACES_DIR / face).iterdir()):
            (tmp_path / face / photo.name).write_bytes(photo.read_bytes())
    table = np.full((120, 120, 3), (150, 160, 170), np.uint8)
    cv2.imwrite(str(tmp_path / "two" / "zz-empty.png"), table)
    warnings: list[str] = []
    profile = teach(read_faces_dir(tmp_path, warnings.append), warn=warnings.append)
    assert profile.labels == ("one", "two")
    assert any("face 'two': zz-empty.png: no die found, not used" in w for w in warnings)


def test_vectors_survive_the_file_and_a_profile_without_them_is_refused(
    taught: tuple[SymbolProfile, list[str]], tmp_path: Path
) -> None:
    profile = taught[0]
    path = tmp_path / "pips.json"
    profile.save(path)
    loaded = load_profile(path)
    assert loaded.embedder == profile.embedder
    for a, b in zip(loaded.faces, profile.faces, strict=True):
        assert np.allclose(np.stack(a.vectors), np.stack(b.vectors), atol=2e-3)
    old = json.loads(path.read_text())
    old["version"] = 1
    for face in old["faces"]:
        del face["vectors"]
    del old["embedder"]
    path.write_text(json.dumps(old))
    with pytest.raises(ProfileError, match="taught before the face embedder"):
        DiceReader(symbols=load_profile(path)).read(load_image(sorted((TRAY / "images").iterdir())[0]))
    without_cuts = tuple(replace(f, cuts=()) for f in profile.faces)
    with pytest.raises(ProfileError, match="teach it again"):
        TaughtFaces(replace(profile, faces=without_cuts, embedder="face-embedder-other"))


def test_a_profile_taught_with_another_embedder_is_read_with_it(
    taught: tuple[SymbolProfile, list[str]], tmp_path: Path
) -> None:
    """A training run's embedder (a folder, as `lab.symbol_real --model` reads) teaches and reads; the shipped
    one reads what it taught from the cuts the profile keeps, as it reads what it taught itself, and refuses
    a profile without them."""
    shutil.copy(model_path("face_embedder"), tmp_path / "face_embedder.onnx")
    card = {**model_card("face_embedder"), "version": "face-embedder-a-training-run"}
    (tmp_path / "face_embedder.json").write_text(json.dumps(card))
    other = FaceEmbedder(folder=tmp_path)
    profile = teach(read_faces_dir(FACES_DIR, lambda _: None), warn=lambda _: None, embedder=other)
    assert profile.embedder == "face-embedder-a-training-run"
    photo = load_image(sorted((TRAY / "images").iterdir())[0])
    faces = [d.face for d in DiceReader(symbols=profile, embedder=other).read(photo).dice]
    assert any(f not in (None, UNKNOWN) for f in faces)
    assert faces == [d.face for d in DiceReader(symbols=taught[0]).read(photo).dice]
    path = tmp_path / "other.json"
    profile.save(path)
    assert faces == [d.face for d in DiceReader(symbols=load_profile(path)).read(photo).dice]
    without = replace(profile, faces=tuple(replace(f, cuts=()) for f in profile.faces))
    with pytest.raises(ProfileError, match="teach it again"):
        DiceReader(symbols=without)


def test_the_app_refuses_a_profile_taught_before_the_embedder(
    taught: tuple[SymbolProfile, list[str]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`companion --camera ... --symbols OLD.json` says to teach it again, in one line, before any window."""
    from companion.cli import EXIT_BAD_INPUT, main

    path = tmp_path / "old.json"
    taught[0].save(path)
    old = json.loads(path.read_text())
    old["version"] = 1
    del old["embedder"]
    for face in old["faces"]:
        del face["vectors"]
    path.write_text(json.dumps(old))
    photo = sorted((TRAY / "images").iterdir())[0]
    assert main(["--camera", str(photo), "--symbols", str(path)]) == EXIT_BAD_INPUT
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "taught before the face embedder" in err[0] and str(path) in err[0]


def test_a_photo_unlike_its_face_is_named_and_kept(tmp_path: Path) -> None:
    """A six among the ones: teaching names it (it may be a slip of the hand) but keeps it, as it keeps every
    clear photo (an embedder that never saw a table puts clear photos of one face far apart)."""
    for face in ("one", "six"):
        (tmp_path / face).mkdir()
        for photo in sorted((FACES_DIR / face).iterdir()):
            (tmp_path / face / photo.name).write_bytes(photo.read_bytes())
    slip = sorted((FACES_DIR / "six").iterdir())[0]
    (tmp_path / "one" / "zz-slip.png").write_bytes(slip.read_bytes())
    warnings: list[str] = []
    profile = teach(read_faces_dir(tmp_path, warnings.append), warn=warnings.append)
    named = [w for w in warnings if "zz-slip" in w and "does not look like the face's other photos" in w]
    assert len(named) == 1 and named[0].startswith("face 'one': ") and "kept" in named[0], warnings
    assert len(profile.face("one").vectors) == len(list((tmp_path / "one").iterdir()))


def test_no_rule_names_a_die_whose_nearest_taught_face_is_another(
    taught: tuple[SymbolProfile, list[str]],
) -> None:
    """`lab.symbol_real`'s ceiling: a die named right has its nearest taught vector of its own face (the
    templates' word only names the embedder's nearest face), so the ceiling is at least the dice named right,
    and a face left untaught is never its dice's nearest."""
    from lab.symbol_real import nearest_right

    profile, _ = taught
    photos = [(load_image(item.image), item.dice) for item in load_set(TRAY)]
    right = sum(true == face for true, face, _ in reads(profile))
    nearest = sum(nearest_right(DiceReader(symbols=profile), image, dice) for image, dice in photos)
    assert right <= nearest <= sum(len(dice) for _, dice in photos)
    fewer = DiceReader(symbols=profile.without("six"))
    sixes = [(image, tuple(d for d in dice if d.value == 6)) for image, dice in photos]
    assert sum(len(dice) for _, dice in sixes) == 8
    assert sum(nearest_right(fewer, image, dice) for image, dice in sixes if dice) == 0
