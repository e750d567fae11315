"""Score files of the Carcassonne dice game: a turn file (one built city, as the camera reports it), validated
field by field, or a finished game's log.

A turn file::

    {"game": "carcassonne-dice", "knight": false,
     "dice": [{"at": [0, 0], "kind": "city", "areas": ["NE", "S"]}, {"at": [0, 1], "kind": "knight"}]}

`knight`: the player began the turn holding a knight (the points double). Each city die gives its black areas
by the edges each touches (N, E, S, W as the camera sees the die); dice at neighbouring cells touch. A knight
die lying beside the city is not part of it ([interpretation]: a black edge facing it is open). A layout the
game refuses to build (black against white, city dice lying apart from the rest) is scored as laid, with
each rule break named: the file settles a dispute over a city on the table.
"""

from __future__ import annotations

from companion.games import eventlog
from jsonfile import refuse_unknown, short

from ..entry import ScoreFileError as ScoreFileError
from .city import Areas, Pos
from .engine import IllegalMove, fold
from .events import GAME_ID, Event, EventFormatError, areas, cell, event_to_json
from .scoring import DICE, CityScore, GameScore, score_game, score_layout

KINDS = ("city", "knight")


def turn_from_json(data: object) -> tuple[dict[Pos, Areas], bool]:
    """A turn file's city dice (cell -> black areas) and whether the player held a knight; `EventFormatError`
    names the bad field."""
    if not isinstance(data, dict):
        raise EventFormatError("a turn must be a JSON object with game, knight and dice")
    refuse_unknown(data, ("game", "knight", "dice"), "", EventFormatError)
    if data.get("game") != GAME_ID:
        raise EventFormatError(f"game: must be {GAME_ID!r}, got {short(data.get('game'))}")
    knight = data.get("knight")
    if not isinstance(knight, bool):
        raise EventFormatError(
            f"knight: must be true or false (a knight held from the last turn), got {short(knight)}"
        )
    dice = data.get("dice")
    if not isinstance(dice, list) or len(dice) > DICE:
        raise EventFormatError(f"dice: must be a list of at most {DICE} dice, got {short(dice)}")
    layout: dict[Pos, Areas] = {}
    taken: set[Pos] = set()
    for i, die in enumerate(dice):
        where = f"dice[{i}]"
        if not isinstance(die, dict):
            raise EventFormatError(f"{where}: must be an object with at, kind and (for a city die) areas")
        kind = die.get("kind")
        if kind not in KINDS:
            raise EventFormatError(f"{where}.kind: must be city or knight, got {short(kind)}")
        refuse_unknown(
            die, ("at", "kind", "areas") if kind == "city" else ("at", "kind"), where, EventFormatError
        )
        at = cell(die.get("at"), f"{where}.at")
        if at in taken:
            raise EventFormatError(f"{where}.at: row {at[0]}, col {at[1]} already holds a die")
        taken.add(at)
        if kind == "city":
            layout[at] = areas(die.get("areas"), f"{where}.areas")
    return layout, knight


def score_turn(data: object) -> CityScore:
    """Score a turn file's JSON; `ScoreFileError` names the field."""
    try:
        layout, knight = turn_from_json(data)
    except EventFormatError as exc:
        raise ScoreFileError(str(exc)) from exc
    return score_layout(layout, knight)


def score_finished(events: list[Event]) -> GameScore:
    """Score a finished game's events; `ScoreFileError` for a game not over or a move the rules refuse."""
    try:
        state = fold(events).state
    except IllegalMove as exc:
        raise ScoreFileError(str(exc)) from exc
    if not state.is_over:
        # A log cut short is a game in progress: never scored as if it were the whole game (as the other
        # games' logs are refused; the app shows a game in progress on its own score pad).
        raise ScoreFileError(f"the game is not over: turn {state.turn} is being played")
    return score_game(state)


def log_text(events: list[Event]) -> str:
    """A game log's text: one event a line (the examples are written with it)."""
    return eventlog.log_text(events, event_to_json)
