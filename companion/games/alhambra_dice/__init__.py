"""Alhambra – the dice game: the rules engine and its scorings (pure Python; state is a fold over events).

Rules: `shared/rules/alhambra-dice-game.md`. Start a game, feed events, ask what is expected, score::

    from companion.games import alhambra_dice as ad

    state = ad.start(ad.GameStarted(("Ann", "Ben", "Cleo")))
    ad.expectation(state).prompt        # "Round 1: roll a die for the start-player tile's column, …"
    state = ad.apply(state, ad.RoundPrepared(("vp", "cancel", "start_player", "vp", "exchange", "vp")))
    state = ad.apply(state, ad.Rolled("Ann", (0, 3, 1, 2, 1, 1)))      # dice per type, pavilion … tower
    state = ad.apply(state, ad.MarkerPlaced("Ann", "seraglio"))         # raises ad.IllegalMove("...")
    ad.score_log(list(state.log))                                       # scorings A, B, C with reasons

The Alcazaba variant (`GameStarted(players, "alcazaba")`, `alcazaba.py`) lays out building tiles
(`TilesLaid`), a marker wins one (`TileTaken`) or is given up for a rebuild action (`Rebuilt`), and
`AlcazabaGame.result()` scores the Alhambras with the original game's scoring.
"""

from .alcazaba import AlcazabaGame
from .components import BONUS_TILES, START_TILE, TILE_KINDS, VP_TABLE
from .engine import DIRK, Game, IllegalMove
from .events import (
    GAME_ID,
    BlackDieSet,
    BuildingTile,
    Event,
    EventFormatError,
    GameStarted,
    MarkerPlaced,
    PrizeTaken,
    Rebuilt,
    RollCancelled,
    Rolled,
    RoundPrepared,
    TilesLaid,
    TileTaken,
)
from .play import apply, expectation, fold, game_at, new_game, replay, start, undo
from .scorefile import ScoreFileError, end_state, score_finished, score_log, score_state
from .scoring import GameScore, PlayerScoring, Standing, TypeVP, score_standings
from .state import AlcazabaView, Ask, Expectation, GameState

__all__ = [
    "BONUS_TILES",
    "DIRK",
    "GAME_ID",
    "START_TILE",
    "TILE_KINDS",
    "VP_TABLE",
    "AlcazabaGame",
    "AlcazabaView",
    "Ask",
    "BlackDieSet",
    "BuildingTile",
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
    "Rebuilt",
    "RollCancelled",
    "Rolled",
    "RoundPrepared",
    "ScoreFileError",
    "Standing",
    "TileTaken",
    "TilesLaid",
    "TypeVP",
    "apply",
    "end_state",
    "expectation",
    "fold",
    "game_at",
    "new_game",
    "replay",
    "score_finished",
    "score_log",
    "score_standings",
    "score_state",
    "start",
    "undo",
]
