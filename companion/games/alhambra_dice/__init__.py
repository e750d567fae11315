"""Alhambra – the dice game: the rules engine and its scorings (pure Python; state is a fold over events).

Rules: `shared/rules/alhambra-dice-game.md`. Start a game, feed events, ask what is expected, score::

    from companion.games import alhambra_dice as ad

    state = ad.start(ad.GameStarted(("Ann", "Ben", "Cleo")))
    ad.expectation(state).prompt        # "Round 1: roll a die for the start-player tile's column, …"
    state = ad.apply(state, ad.RoundPrepared(("vp", "cancel", "start_player", "vp", "exchange", "vp")))
    state = ad.apply(state, ad.Rolled("Ann", (0, 3, 1, 2, 1, 1)))      # dice per type, pavilion … tower
    state = ad.apply(state, ad.MarkerPlaced("Ann", "seraglio"))         # raises ad.IllegalMove("...")
    ad.score_log(list(state.log))                                       # scorings A, B, C with reasons
"""

from .components import BONUS_TILES, START_TILE, TILE_KINDS, VP_TABLE
from .engine import DIRK, Game, IllegalMove, apply, expectation, fold, replay, start, undo
from .events import (
    GAME_ID,
    BlackDieSet,
    Event,
    EventFormatError,
    GameStarted,
    MarkerPlaced,
    PrizeTaken,
    RollCancelled,
    Rolled,
    RoundPrepared,
)
from .scorefile import ScoreFileError, score_data, score_log
from .scoring import GameScore, PlayerScoring, Standing, TypeVP, score_standings
from .state import Ask, Expectation, GameState

__all__ = [
    "BONUS_TILES",
    "DIRK",
    "GAME_ID",
    "START_TILE",
    "TILE_KINDS",
    "VP_TABLE",
    "Ask",
    "BlackDieSet",
    "Event",
    "EventFormatError",
    "Expectation",
    "Game",
    "GameScore",
    "GameStarted",
    "GameState",
    "IllegalMove",
    "MarkerPlaced",
    "PlayerScoring",
    "PrizeTaken",
    "RollCancelled",
    "Rolled",
    "RoundPrepared",
    "ScoreFileError",
    "Standing",
    "TypeVP",
    "apply",
    "expectation",
    "fold",
    "replay",
    "score_data",
    "score_log",
    "score_standings",
    "start",
    "undo",
]
