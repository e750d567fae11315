"""Colour names: the palette rules, and a taught profile telling yellow from blue under varied light."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from lab.colour_trial import random_trial_table, run_trials, throw
from vision.colour import body_labs, palette_name
from vision.colour_profile import ColourProfileError, load_profile, save_profile, teach, teach_from_folder
from vision.pips import PipReader
from vision.reading import Box
from vision.simulated_table.scene import BODY_COLOURS

RENDERED = Path(__file__).resolve().parents[1] / "data" / "rendered"


def lab_of(bgr: tuple[int, int, int]) -> np.ndarray:
    pixel = np.array([[bgr]], np.float32) / 255
    return cv2.cvtColor(pixel, cv2.COLOR_BGR2Lab)[0, 0]


@pytest.mark.parametrize("name", [n for n in BODY_COLOURS if n != "other"])
def test_palette_rules_name_the_renderers_body_colours(name: str) -> None:
    for bgr in BODY_COLOURS[name]:
        assert palette_name(lab_of(bgr)) == name, bgr


def test_a_white_die_under_a_tinted_light_stays_white_and_a_purple_one_purple() -> None:
    # A white symbol die's body on a rendered table under a bluish light (the reader measured it so).
    assert palette_name(np.array([64.0, 11.2, -11.0], np.float32)) == "white"
    assert palette_name(np.array([45.0, 30.0, -30.0], np.float32)) == "purple"


def test_a_die_is_named_by_its_own_body_not_by_clutter_its_box_takes_in() -> None:
    """The demo table's yellow 6 beside a lavender disc: the detector's box of the die holds much of the
    disc, as light as the die. Taken by lightness alone the body was the two mixed, named white, and the
    throw was typed in; the pixels nearest the face's median colour are the die's."""
    crop = cv2.imread(str(RENDERED / "yellow-six-beside-a-disc.png"))
    (lab,) = body_labs(crop, [Box(65, 61, 129, 123)])
    assert palette_name(lab) == "yellow"


def test_a_profile_tells_yellow_from_blue_under_varied_light(reader: PipReader) -> None:
    tally = run_trials(reader, trials=4, throws=3, seed=7)
    found = tally.dice - tally.missed
    assert found >= 0.95 * tally.dice
    assert tally.right_with_profile == found


def test_profile_json_round_trip_and_naming(tmp_path: Path) -> None:
    rng = np.random.default_rng(1)
    samples = {
        "yellow": [lab_of((30, 210, 240)) + rng.normal(0, 2, 3).astype(np.float32) for _ in range(10)],
        "blue": [lab_of((180, 60, 20)) + rng.normal(0, 2, 3).astype(np.float32) for _ in range(10)],
    }
    path = tmp_path / "colours.json"
    save_profile(teach(samples), path)
    profile = load_profile(path)
    assert profile.name(lab_of((30, 210, 240))) == "yellow"
    assert profile.name(lab_of((180, 60, 20))) == "blue"
    assert profile.name(lab_of((40, 40, 200))) is None  # red is none of the game's colours


def test_teaching_from_photo_folders(tmp_path: Path, reader: PipReader) -> None:
    rng = np.random.default_rng(3)
    table = random_trial_table(rng)
    for colour in ("yellow", "blue"):
        (tmp_path / colour).mkdir()
        for i in range(2):
            cv2.imwrite(str(tmp_path / colour / f"{i}.png"), throw(table, [colour] * 3, rng).image)
    (tmp_path / "blue" / "broken.jpg").write_bytes(b"\xff\xd8 not really")
    errors: list[str] = []
    found = reader.detector
    profile = teach_from_folder(tmp_path, lambda image: [d.box for d in found(image)], errors.append)
    assert set(profile.colours) == {"yellow", "blue"}
    assert profile.colours["yellow"].samples >= 5
    assert len(errors) == 1 and "broken.jpg" in errors[0]


FACES = Path(__file__).parents[1] / "data" / "d6-tray-faces"
"""Real photos each cut close around one die (a third of the photo): a yellow one and a blue one."""
CLOSE_CUT = {"yellow": "four/IMG_20191208_112010-3.jpg", "blue": "one/IMG_20191209_100645-0.jpg"}


def test_photos_cut_close_around_one_die_teach_that_die_not_its_pips(
    tmp_path: Path, reader: PipReader
) -> None:
    """The reader took a close photo's pips for dice: yellow was taught the pips' black from 9 "dice" of 3
    photos, blue the white of the pips. Each photo is one die now, turned a quarter each time."""
    for colour, name in CLOSE_CUT.items():
        (tmp_path / colour).mkdir()
        for turn in range(3):
            image = np.rot90(cv2.imread(str(FACES / name)), turn)
            cv2.imwrite(str(tmp_path / colour / f"{turn}.png"), image)
    said: list[str] = []
    profile = teach_from_folder(tmp_path, lambda image: [d.box for d in reader.read(image).dice], said.append)
    assert not said, said
    assert {name: stats.samples for name, stats in profile.colours.items()} == {"blue": 3, "yellow": 3}
    assert palette_name(np.array(profile.colours["yellow"].mean, np.float32)) == "yellow"
    assert profile.colours["blue"].mean[2] < -10, "blue, not its white pips"


def test_two_colours_that_look_alike_are_refused(tmp_path: Path, reader: PipReader) -> None:
    """Photos of both colours in each folder (or both in view as the camera is shown one) were taught as two
    near-identical colours without a word, and every later roll read a yellow die as blue."""
    rng = np.random.default_rng(3)
    table = random_trial_table(rng)
    for colour in ("yellow", "blue"):
        (tmp_path / colour).mkdir()
        for i in range(3):
            cv2.imwrite(str(tmp_path / colour / f"{i}.png"), throw(table, ["yellow", "blue"] * 2, rng).image)
    with pytest.raises(ColourProfileError, match="colours 'blue' and 'yellow' look alike to the camera"):
        teach_from_folder(tmp_path, lambda image: [d.box for d in reader.detector(image)], print)


def test_a_folder_without_colour_folders_says_what_it_expects(tmp_path: Path) -> None:
    """Photos put straight in COLOURS_DIR (or an empty one) were refused with "no colours to teach"."""
    (tmp_path / "yellow dice.jpg").write_bytes(b"")
    with pytest.raises(ColourProfileError, match=r"no colour folders \(expected one folder per colour name"):
        teach_from_folder(tmp_path, lambda image: [], print)


def test_photos_not_used_are_said_before_a_colour_is_found_to_have_too_few_dice(tmp_path: Path) -> None:
    """Teaching from photos none of which could be used said only "colour 'blue': 0 dice found, at least 3
    needed": not which photos were unreadable or showed no die, which is why."""
    for colour in ("yellow", "blue"):
        (tmp_path / colour).mkdir()
        (tmp_path / colour / "table.jpg").write_bytes(b"not a photo")
    said: list[str] = []
    with pytest.raises(ColourProfileError, match="0 dice found"):
        teach_from_folder(tmp_path, lambda image: [], said.append)
    named = [line.split(": ")[0] for line in said]
    assert named == [str(tmp_path / colour / "table.jpg") for colour in ("blue", "yellow")]


def valid_profile() -> dict[str, object]:
    cov = [[4.0, 0, 0], [0, 4.0, 0], [0, 0, 4.0]]
    return {"format": "dice-colour-profile/1", "colours": {"yellow": {"mean": [80, -5, 70], "covariance": cov,
                                                                    "samples": 8}}}  # fmt: skip


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda p: p.update(format="other"), "'format'"),
        (lambda p: p.update(colours={}), "'colours'"),
        (lambda p: p["colours"].update(teal=p["colours"]["yellow"]), "colours.teal"),
        (lambda p: p["colours"]["yellow"].update(mean=[1, 2]), "colours.yellow.mean"),
        (lambda p: p["colours"]["yellow"].update(mean=[1, 2, "x"]), "colours.yellow.mean"),
        (lambda p: p["colours"]["yellow"].update(covariance=[[1, 0, 0], [0, -1, 0], [0, 0, 1]]),
         "colours.yellow.covariance"),
        (lambda p: p["colours"]["yellow"].update(samples=1), "colours.yellow.samples"),
    ],
)  # fmt: skip
def test_bad_profiles_name_the_field(tmp_path: Path, change: object, field: str) -> None:
    data = valid_profile()
    change(data)  # type: ignore[operator]
    path = tmp_path / "p.json"
    path.write_text(json.dumps(data))
    with pytest.raises(ColourProfileError, match=field.replace(".", r"\.")):
        load_profile(path)


def test_a_profile_that_is_not_json(tmp_path: Path) -> None:
    path = tmp_path / "p.json"
    path.write_text("{not json")
    with pytest.raises(ColourProfileError, match="not valid JSON"):
        load_profile(path)
    with pytest.raises(ColourProfileError, match="cannot read"):
        load_profile(tmp_path / "missing.json")
