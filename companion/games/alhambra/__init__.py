"""The original Alhambra (the tile game): its three scorings, majorities with ties, walls, Dirk.

Pure: no UI, no OpenCV. Alhambra – the dice game's Alcazaba variant scores with the same `score_game`.
"""

from .buildings import TYPES, BuildingType, load_buildings
from .scorefile import GAME_ID, ScoreFileError, read_scorings, score_pad
from .scoring import Holding, PlayerResult, Result, ScoringScore, TypeScore, majorities, score_game
from .walls import LayoutError, Tile, Wall, longest_wall

__all__ = [
    "GAME_ID",
    "TYPES",
    "BuildingType",
    "Holding",
    "LayoutError",
    "PlayerResult",
    "Result",
    "ScoreFileError",
    "ScoringScore",
    "Tile",
    "TypeScore",
    "Wall",
    "load_buildings",
    "longest_wall",
    "majorities",
    "read_scorings",
    "score_game",
    "score_pad",
]
