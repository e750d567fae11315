"""The faces `calibration.faces --preset` asks for are the names the games and the rendered dice use: the
calibration layer lies below the games and cannot import their names, so they are checked to agree here."""

from __future__ import annotations

from calibration.faces import CATAPULT, KNIGHT, PRESETS
from companion.games.alhambra import TYPES
from companion.games.alhambra_rw import BUILDING_TYPES
from vision.simulated_table.symbol_art import ALHAMBRA, CARCASSONNE


def test_the_alhambra_preset_names_the_games_six_buildings_in_order() -> None:
    assert PRESETS["alhambra"] == TYPES == BUILDING_TYPES == tuple(ALHAMBRA.icons)


def test_the_carcassonne_preset_names_the_rendered_faces() -> None:
    assert PRESETS["carcassonne"] == tuple(CARCASSONNE.icons)
    assert PRESETS["carcassonne"][-2:] == (KNIGHT, CATAPULT)
