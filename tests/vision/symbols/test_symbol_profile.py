"""Profile files: round trip, and every bad field named in the error."""

from __future__ import annotations

import base64
import json
from pathlib import Path

import numpy as np
import pytest

from vision.symbols.profile import ProfileError, SymbolProfile, TaughtFace, load_profile


def small_profile() -> SymbolProfile:
    rng = np.random.default_rng(0)
    faces = tuple(
        TaughtFace(label, (rng.integers(0, 256, (32, 32)).astype(np.uint8),), threshold, areas)
        for label, threshold, areas in (("city1", 0.7, (frozenset({"top"}),)), ("knight", 0.75, ()))
    )
    return SymbolProfile(faces, (90.0, 0.5, 1.0), margin=0.1)


def write(tmp_path: Path, data: object) -> Path:
    path = tmp_path / "profile.json"
    path.write_text(json.dumps(data))
    return path


def test_round_trip(tmp_path: Path) -> None:
    profile = small_profile()
    path = tmp_path / "p.json"
    profile.save(path)
    loaded = load_profile(path)
    assert loaded.labels == ("city1", "knight")
    assert loaded.face("city1").areas == (frozenset({"top"}),)
    assert np.array_equal(loaded.face("knight").templates[0], profile.face("knight").templates[0])
    assert loaded.face("knight").threshold == pytest.approx(0.75) and loaded.margin == pytest.approx(0.1)


def broken(change: str) -> dict[str, object]:
    data = small_profile().to_json()
    faces = data["faces"]
    assert isinstance(faces, list)
    if change == "format":
        data["format"] = "pip-profile"
    elif change == "threshold":
        faces[1]["threshold"] = 1.5
    elif change == "margin":
        del data["margin"]
    elif change == "body_lab":
        data["body_lab"] = [1, 2]
    elif change == "label":
        faces[0]["label"] = ""
    elif change == "duplicate":
        faces[1]["label"] = faces[0]["label"]
    elif change == "edges":
        del faces[0]["areas"]
        faces[0]["edges"] = ["north"]
    elif change == "areas":
        faces[0]["areas"] = [["top"], []]
    elif change == "area sides":
        faces[0]["areas"] = [["top", "left"], ["left"]]
    elif change == "both":
        faces[0]["edges"] = ["top"]
    elif change == "templates":
        faces[1]["templates"] = [base64.b64encode(b"short").decode()]
    elif change == "faces":
        data["faces"] = []
    return data


@pytest.mark.parametrize(
    ("change", "named"),
    [
        ("format", "'format'"),
        ("threshold", "faces[1] (knight).threshold"),
        ("margin", "'margin'"),
        ("body_lab", "'body_lab'"),
        ("label", "faces[0].label"),
        ("duplicate", "appears twice"),
        ("edges", "faces[0] (city1).edges"),
        ("areas", "faces[0] (city1).areas[1]"),
        ("area sides", "a side belongs to one area"),
        ("both", "both 'areas' and 'edges'"),
        ("templates", "faces[1] (knight).templates[0]"),
        ("faces", "'faces'"),
    ],
)
def test_bad_field_is_named(tmp_path: Path, change: str, named: str) -> None:
    path = write(tmp_path, broken(change))
    with pytest.raises(ProfileError) as err:
        load_profile(path)
    assert named in str(err.value) and str(path) in str(err.value)


def test_not_json_and_missing_file(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": ')
    with pytest.raises(ProfileError, match="line 1, column 12: not valid JSON"):
        load_profile(bad)
    with pytest.raises(ProfileError, match="cannot read"):
        load_profile(tmp_path / "missing.json")


def test_a_profile_taught_before_areas_were_kept_reads_its_edges_as_one_area(tmp_path: Path) -> None:
    data = small_profile().to_json()
    faces = data["faces"]
    assert isinstance(faces, list)
    for face in faces:
        face["edges"] = [side for area in face.pop("areas") for side in area]
    faces[0]["edges"] = ["top", "bottom"]
    loaded = load_profile(write(tmp_path, data))
    assert loaded.face("city1").areas == (frozenset({"top", "bottom"}),)
    assert loaded.face("knight").areas == ()
