"""Alhambra Roll & Write: the rules engine (pure Python; the state is a fold over events).

Start a game, feed events, ask what is expected, score::

    from companion.games import alhambra_rw as rw

    sheet = rw.load_shipped_sheet("example")          # or rw.load_sheet(path); rw.shipped_sheets()
    setup = rw.GameStarted(sheet, players=("Barbara", "Ani"), imaginary=("Marc",))
    state = rw.start(setup)
    exp = rw.expectation(state)                       # who, what kind of input (exp.ask), how many dice
    state = rw.apply(state, rw.Roll("Barbara", yellow=(3,), blue=(5,)))   # dice values are IN the events
    rw.crossings(state)                               # the active player's crossings: building, free/crossed
    rw.legal_actions(state)                           # every legal decision event now
    state = rw.apply(state, rw.CrossBuilding("Barbara", 3, 5))  # raises rw.IllegalMove("...") if not allowed
    ...
    board = rw.score_game(state)                      # when state.is_over: why of every number

`apply` never changes the given state; an illegal event raises `IllegalMove` whose message is the reason.
`replay(events)` folds a whole list; undo = drop the last event and replay (`undo`). `Game` is the mutable
fold itself (same rules) for fast simulation. The kinds of input are listed in `Ask`:
set-up rolls (`SETUP_CROSS`, `SETUP_IMAGINARY`, `SETUP_DICE`, `SETUP_EXTRA_PAIR`), a turn (`ACTION`, then
`REROLL_USED_PAIR` or `ROLL_ALL` + `KEEP_PAIR`), `IMAGINARY_TURN`, and `GAME_OVER`.

The log on disk (`log.GameLog`, `log.load_log`) holds one event per line as JSON (`event_to_json`).
"""

from .engine import Game, IllegalMove, apply, crossings, expectation, fold, legal_actions, replay, start, undo
from .events import (
    COLOURS,
    GAME_ID,
    STANDARD,
    VARIANTS,
    VERSUS_IMAGINARY,
    ChangePips,
    Colour,
    CrossBuilding,
    Event,
    EventFormatError,
    GameStarted,
    KeepPair,
    Roll,
    TakeCoins,
    event_from_json,
    event_to_json,
)
from .log import GameLog, LoadedLog, LogError, load_log
from .scoring import (
    BuildingScore,
    PlayerScore,
    Scoreboard,
    ScoreError,
    end_state_of,
    score,
    score_game,
    score_so_far,
)
from .sheet import (
    BUILDING_TYPES,
    LETTERS,
    Sheet,
    SheetError,
    load_sheet,
    load_shipped_sheet,
    sheet_from_json,
    sheets_in,
    shipped_sheets,
)
from .state import Ask, Award, Crossing, Expectation, GameState, PlayerState

__all__ = [
    "BUILDING_TYPES",
    "COLOURS",
    "GAME_ID",
    "LETTERS",
    "STANDARD",
    "VARIANTS",
    "VERSUS_IMAGINARY",
    "Ask",
    "Award",
    "BuildingScore",
    "ChangePips",
    "Colour",
    "CrossBuilding",
    "Crossing",
    "Event",
    "EventFormatError",
    "Expectation",
    "Game",
    "GameLog",
    "GameStarted",
    "GameState",
    "IllegalMove",
    "KeepPair",
    "LoadedLog",
    "LogError",
    "PlayerScore",
    "PlayerState",
    "Roll",
    "ScoreError",
    "Scoreboard",
    "Sheet",
    "SheetError",
    "TakeCoins",
    "apply",
    "crossings",
    "end_state_of",
    "event_from_json",
    "event_to_json",
    "expectation",
    "fold",
    "legal_actions",
    "load_log",
    "load_sheet",
    "load_shipped_sheet",
    "replay",
    "score",
    "score_game",
    "score_so_far",
    "sheet_from_json",
    "sheets_in",
    "shipped_sheets",
    "start",
    "undo",
]
