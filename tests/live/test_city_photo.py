"""A photo of a built Carcassonne city read into its layout: dice placed on a grid from where they lie, each
face's black area turned as the die lies, and what the photo does not settle asked about (rendered cities with
known truth: completed and open cities, every rotation)."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace
from functools import cache
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.games.carcassonne_dice import E, N, S, W, score_layout
from companion.games.carcassonne_dice.city import Areas, Pos
from companion.live.carcassonne_demo import face_areas, taught_dice
from companion.live.city import CityReading, city_from_grid, drawing
from vision.grid import GridError, read_grid
from vision.reader import DiceReader
from vision.simulated_table.city import BuiltDie, city_scene
from vision.simulated_table.symbol_art import CARCASSONNE, IconSet, SymbolPainter, city_caps, teaching_photos
from vision.symbols.profile import SymbolProfile, turned
from vision.symbols.teach import TeachingPhoto, teach

COMPANION = Path(sys.executable).parent / "companion"
RING = [
    BuiltDie((0, 0), "city2", 180),
    BuiltDie((0, 1), "city2", 90),
    BuiltDie((1, 0), "city2", 270),
    BuiltDie((1, 1), "city2", 0),
]
"""Four corner faces turned into a closed ring: a completed city of 4 dice."""


@cache
def profile() -> SymbolProfile:
    return taught_dice(0)


def photo(dice: list[BuiltDie], seed: int) -> np.ndarray:
    return city_scene(SymbolPainter(CARCASSONNE), dice, np.random.default_rng(seed)).image


def read(dice: list[BuiltDie], seed: int) -> CityReading:
    return city_from_grid(read_grid(photo(dice, seed), DiceReader(symbols=profile())))


def truth(dice: list[BuiltDie]) -> dict[Pos, Areas]:
    return {d.at: face_areas(d.label, d.rotation) for d in dice if d.label.startswith("city")}


def test_a_quarter_turn_counter_clockwise_takes_the_top_side_to_the_left() -> None:
    assert turned(frozenset({"top"}), 90) == {"left"}
    assert turned(frozenset({"top", "left"}), 180) == {"bottom", "right"}
    assert face_areas("city4", 270) == (N | E | S,)
    assert face_areas("city3", 90) == face_areas("city3", 270) == (E | W,)


@pytest.mark.parametrize("seed", [1, 2])
def test_a_completed_ring_with_a_knight_beside_it_scores_its_four_dice(seed: int) -> None:
    dice = [*RING, BuiltDie((2, 0), "knight", 90)]
    found = read(dice, seed)
    assert dict(found.layout) == truth(dice) and found.knights == 1 and not found.asked
    scored = score_layout(found.layout, doubled=False)
    assert scored.points == 3 and "largest completed city: 4 dice" in scored.why
    assert "#" in drawing(found, scored) and "!" not in drawing(found, scored)


@pytest.mark.parametrize("seed", [4, 5])
def test_an_open_row_is_drawn_with_its_open_edge_and_scores_nothing(seed: int) -> None:
    dice = [BuiltDie((0, 0), "city3", 90), BuiltDie((0, 1), "city3", 270), BuiltDie((0, 2), "city1", 90)]
    found = read(dice, seed)
    assert dict(found.layout) == {(0, 0): (E | W,), (0, 1): (E | W,), (0, 2): (W,)} and not found.asked
    scored = score_layout(found.layout, doubled=True)
    assert scored.points == 0
    (city,) = scored.survey.cities
    assert [o.text for o in city.open_edges] == ["die at row 0, col 0: the west edge is open"]
    assert drawing(found, scored).splitlines()[1].startswith("! 1 #")


@pytest.mark.parametrize("seed", [6])
def test_every_turn_of_every_city_face_is_read(seed: int) -> None:
    # A cell apart: side by side, one face at every turn would put black against white, which is asked.
    dice = [
        BuiltDie((2 * r, 2 * c), label, rotation)
        for r, label in enumerate(("city1", "city2", "city4"))
        for c, rotation in enumerate((0, 90, 180, 270))
    ]
    found = read(dice, seed)
    assert dict(found.layout) == truth(dice) and not found.asked


@pytest.fixture
def city_photo(tmp_path: Path) -> tuple[Path, Path]:
    image, taught = tmp_path / "city.png", tmp_path / "carc.json"
    cv2.imwrite(str(image), photo([*RING, BuiltDie((0, 2), "city3", 0)], 1))
    profile().save(taught)
    return image, taught


def companion(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([COMPANION, *map(str, args)], capture_output=True, text=True, timeout=120)


def test_companion_city_settles_a_photo_and_its_turn_file_scores_the_same(
    city_photo: tuple[Path, Path], tmp_path: Path
) -> None:
    image, taught = city_photo
    shown = companion("city", image, "--profile", taught, "--knight")
    assert shown.returncode == 0, shown.stderr
    assert (
        "5 city dice on the grid" in shown.stdout
        and "6 points (largest completed city: 4 dice" in shown.stdout
    )
    assert "die at row 0, col 2: the north edge is open" in shown.stdout
    as_json = json.loads(companion("city", image, "--profile", taught, "--json").stdout)
    assert as_json["score"]["points"] == 3 and as_json["asked"] == []
    turn = tmp_path / "turn.json"
    turn.write_text(json.dumps(as_json["turn"]))
    scored = json.loads(companion("score", turn, "--json").stdout)
    assert scored["points"] == 3 and scored["largest_completed_city"] == 4


@pytest.mark.parametrize(
    ("damage", "says"),
    [
        ("no-profile", "No such file"),
        ("not-a-photo", "city.png"),
        ("bad-profile", "carc.json"),
        # Another game's dice (no face with a city area) read the city as none: 0 points, exit 0.
        ("another-game", "carc.json: no face of this profile has a city area"),
    ],
)
def test_companion_city_refuses_bad_input_in_one_line(
    city_photo: tuple[Path, Path], damage: str, says: str
) -> None:
    image, taught = city_photo
    if damage == "no-profile":
        taught.unlink()
    elif damage == "not-a-photo":
        image.write_text("not a picture")
    elif damage == "bad-profile":
        taught.write_text('{"format": "symbol-dice-profile"')
    else:
        other = json.loads(taught.read_text())
        for face in other["faces"]:
            face["areas"] = []
        taught.write_text(json.dumps(other))
    result = companion("city", image, "--profile", taught)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and says in result.stderr


def test_a_photo_of_the_plain_table_is_no_city() -> None:
    """On a photo of one plain colour the silhouette's level fell to 0, and the rounding of the table's fit
    made two dice to ask about."""
    with pytest.raises(GridError, match="no die found in the photo"):
        read_grid(np.full((640, 640, 3), (60, 120, 70), np.uint8), DiceReader(symbols=profile()))


def test_a_misread_die_whose_black_edge_meets_a_white_one_is_asked_not_scored() -> None:
    # The ring read right, then its top right corner (black W and S) misread, not surely, as a band (black N
    # and S): its white west edge meets the black east edge of the die beside it, read surely.
    grid = read_grid(photo(RING, 1), DiceReader(symbols=profile()))
    (corner,) = [d for d in grid.dice if d.at == (0, 1)]
    band = (frozenset({"top", "bottom"}),)
    misread = replace(corner, face="city3", rotation=0, areas=band, confidence=0.85)
    found = city_from_grid(replace(grid, dice=tuple(misread if d is corner else d for d in grid.dice)))
    assert (0, 1) not in found.layout and found.asked_at == ((0, 1),)
    assert "do not meet its neighbours'" in found.asked[0]


def test_a_black_edge_against_a_white_one_read_surely_on_both_sides_is_a_rule_break() -> None:
    dice = [BuiltDie((0, 0), "city1", 90), BuiltDie((0, 1), "city1", 90)]
    found = read(dice, 3)
    assert dict(found.layout) == truth(dice) and not found.asked
    assert "x" in drawing(found, score_layout(found.layout, doubled=False))


def test_a_face_with_two_separate_city_areas_is_taught_read_and_scored_as_two() -> None:
    """Dice whose band face is two caps instead: taught as two areas, read as two, and a line of three dice
    with the two-cap die in the middle is two closed 2-dice cities (0 points), not one of 3 dice (1)."""
    caps = IconSet(
        "carcassonne-caps",
        {**CARCASSONNE.icons, "city3": city_caps},
        {**CARCASSONNE.areas, "city3": (frozenset({"top"}), frozenset({"bottom"}))},
    )
    painter = SymbolPainter(caps)
    photos = teaching_photos(painter, np.random.default_rng(2))
    taught = teach(
        [TeachingPhoto(label, f"{j}.png", im) for label, ims in photos.items() for j, im in enumerate(ims)],
        warn=lambda _: None,
    )
    assert taught.face("city3").areas == caps.areas["city3"]
    line = [BuiltDie((0, 0), "city1", 180), BuiltDie((1, 0), "city3", 0), BuiltDie((2, 0), "city1", 0)]
    image = city_scene(painter, line, np.random.default_rng(4)).image
    found = city_from_grid(read_grid(image, DiceReader(symbols=taught)))
    assert dict(found.layout) == {(0, 0): (S,), (1, 0): (N, S), (2, 0): (N,)} and not found.asked
    scored = score_layout(found.layout, doubled=False)
    assert scored.points == 0 and len(scored.survey.cities) == 2


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_die_turned_against_its_neighbours_is_asked_not_placed(seed: int) -> None:
    dice = [*RING, BuiltDie((1, 2), "city1", 270, turn=35.0)]
    found = read(dice, seed)
    assert dict(found.layout) == truth(RING) and found.asked_at == ((1, 2),)
    assert "against its neighbours" in found.asked[0]
