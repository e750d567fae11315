"""Carcassonne – the dice game: the rules engine and city scoring (pure Python; state is a fold over events).

Rules: `shared/rules/carcassonne-dice-game.md`. Start a game, feed events, ask what is expected, score::

    from companion.games import carcassonne_dice as cd

    state = cd.start(cd.GameStarted(("Barbara", "Dirk", "Ani")))
    cd.expectation(state)                                   # who rolls how many dice, what may be kept
    state = cd.apply(state, cd.Rolled("Barbara", city=6, knights=2, catapults=1))
    state = cd.apply(state, cd.Kept("Barbara", knights=2, built=(cd.Built((0, 0), (cd.S,)),)))
    state = cd.apply(state, cd.TurnEnded("Barbara"))       # raises cd.IllegalMove("...") if not allowed
    cd.score_game(state)                                    # the score pad, turn by turn

    cd.score_layout({(0, 0): (cd.S,), (1, 0): (cd.N,)}, doubled=False)   # one built city, explained

A city die's black areas are edge masks (`N`, `E`, `S`, `W` as the camera sees the die after rotation); the
faces' own patterns are taught from the dice (`calibration.faces --preset carcassonne`), not known here.
"""

from .city import City, E, N, OpenEdge, RuleBreak, S, Survey, W, survey
from .engine import Game, IllegalMove, apply, expectation, fold, legal_actions, replay, start, undo
from .events import GAME_ID, Built, Event, EventFormatError, GameStarted, Kept, Rolled, TurnEnded
from .scoring import POINTS, CityScore, GameScore, score_game, score_layout
from .state import Ask, Expectation, GameState, TurnRecord

__all__ = [
    "GAME_ID",
    "POINTS",
    "Ask",
    "Built",
    "City",
    "CityScore",
    "E",
    "Event",
    "EventFormatError",
    "Expectation",
    "Game",
    "GameScore",
    "GameStarted",
    "GameState",
    "IllegalMove",
    "Kept",
    "N",
    "OpenEdge",
    "Rolled",
    "RuleBreak",
    "S",
    "Survey",
    "TurnEnded",
    "TurnRecord",
    "W",
    "apply",
    "expectation",
    "fold",
    "legal_actions",
    "replay",
    "score_game",
    "score_layout",
    "start",
    "survey",
    "undo",
]
