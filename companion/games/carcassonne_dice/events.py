"""Events of a Carcassonne dice game: every dice reading and every decision is one event.

The engine never rolls dice: `Rolled` carries how many dice showed each face (read by the camera or typed
in); `Kept` carries the knights set aside and the city dice built, each at its grid cell with its black areas
as they lie (after the player turned the die). Each event converts to and from one JSON object, one per line
in the game log; the first line names the game (`"game": "carcassonne-dice"`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, TypeAlias

from jsonfile import is_whole_number, refuse_unknown, short, whole_number

from ..eventlog import SAID, LogFormat, Said, event_fields, name_field, names_field, said_from_json
from .city import Areas, Pos, area_text, areas_problem, parse_area

GAME_ID = "carcassonne-dice"
MAX_CELL = 99
"""Grid cells -99–99 in files: 9 dice span at most 9 cells, so any layout fits with room to spare."""


class EventFormatError(ValueError):
    """A JSON object is not a well-formed event (or die); the message names the field."""


@dataclass(frozen=True, slots=True)
class GameStarted:
    """The first event: the players in turn order (the start player first, then each left neighbour)."""

    players: tuple[str, ...]
    kind: ClassVar[str] = "game_started"


@dataclass(frozen=True, slots=True)
class Rolled(Said):
    """`player` rolled every die not kept: so many showed a city face, a knight, a catapult."""

    player: str
    city: int
    knights: int
    catapults: int
    kind: ClassVar[str] = "rolled"


@dataclass(frozen=True, slots=True)
class Built:
    """A city die built at grid cell `at` showing black `areas` (edge masks) as it lies."""

    at: Pos
    areas: Areas


@dataclass(frozen=True, slots=True)
class Kept:
    """After a roll: `knights` knight dice set aside, and the city dice `built` (in that order)."""

    player: str
    knights: int = 0
    built: tuple[Built, ...] = ()
    kind: ClassVar[str] = "kept"


@dataclass(frozen=True, slots=True)
class TurnEnded:
    """The player stops (or has rolled 3 times): the turn is scored, or, with `hold_knight`, scores nothing
    and the player keeps one knight die to double the next turn."""

    player: str
    hold_knight: bool = False
    kind: ClassVar[str] = "turn_ended"


Event: TypeAlias = GameStarted | Rolled | Kept | TurnEnded


def built_to_json(die: Built) -> dict[str, Any]:
    return {"at": list(die.at), "areas": [area_text(m) for m in die.areas]}


def event_to_json(event: Event) -> dict[str, Any]:
    """One event as a JSON-ready object; `"event"` names its kind."""
    if isinstance(event, GameStarted):
        return {"event": event.kind, "game": GAME_ID, "players": list(event.players)}
    if isinstance(event, Rolled):
        return {
            "event": event.kind,
            "player": event.player,
            "city": event.city,
            "knight": event.knights,
            "catapult": event.catapults,
        } | event.said_json()
    if isinstance(event, Kept):
        return {
            "event": event.kind,
            "player": event.player,
            "knights": event.knights,
            "built": [built_to_json(d) for d in event.built],
        }
    return {"event": event.kind, "player": event.player, "hold_knight": event.hold_knight}


_FIELDS: dict[str, tuple[str, ...]] = {
    GameStarted.kind: ("event", "game", "players"),
    Rolled.kind: ("event", "player", "city", "knight", "catapult", *SAID),
    Kept.kind: ("event", "player", "knights", "built"),
    TurnEnded.kind: ("event", "player", "hold_knight"),
}


def event_from_json(raw: object) -> Event:
    """Parse one event object; raises `EventFormatError` naming the bad field."""
    kind, data = event_fields(raw, _FIELDS, EventFormatError)
    if kind == GameStarted.kind:
        if data.get("game") != GAME_ID:
            raise EventFormatError(f"game: must be {GAME_ID!r}, got {short(data.get('game'))}")
        players = names_field(data, "players", EventFormatError)
        return GameStarted(players)
    player = name_field(data, "player", EventFormatError)
    if kind == Rolled.kind:
        return Rolled(
            player,
            _count(data, "city"),
            _count(data, "knight"),
            _count(data, "catapult"),
            **said_from_json(data, EventFormatError),
        )
    if kind == Kept.kind:
        # Every field that changes the score is written and required: a line that lost one is refused by name.
        if "built" not in data:
            raise EventFormatError("built: missing ([] where no city die was built)")
        built = data["built"]
        if not isinstance(built, list):
            raise EventFormatError(f"built: must be a list of dice, got {short(built)}")
        dice = []
        for i, die in enumerate(built):
            where = f"built[{i}]"
            if not isinstance(die, dict):
                raise EventFormatError(f"{where}: must be an object with at and areas")
            refuse_unknown(die, ("at", "areas"), where, EventFormatError)
            dice.append(Built(cell(die.get("at"), f"{where}.at"), areas(die.get("areas"), f"{where}.areas")))
        if "knights" not in data:
            raise EventFormatError("knights: missing (0 where no knight was kept)")
        return Kept(player, _count(data, "knights"), tuple(dice))
    if "hold_knight" not in data:
        raise EventFormatError("hold_knight: missing (false where the turn is scored)")
    hold = data["hold_knight"]
    if not isinstance(hold, bool):
        raise EventFormatError(f"hold_knight: must be true or false, got {short(hold)}")
    return TurnEnded(player, hold)


def _count(data: dict[str, Any], key: str) -> int:
    return whole_number(data.get(key), 0, 9, key, EventFormatError, "a number of dice 0–9")


def cell(value: object, where: str) -> Pos:
    """A grid cell `[row, col]`, each from -`MAX_CELL` to `MAX_CELL`: a city grows every way from the die
    built first, past 0 too."""
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(is_whole_number(v, -MAX_CELL, MAX_CELL) for v in value)
    ):
        raise EventFormatError(
            f"{where}: must be [row, col], each a whole number -{MAX_CELL}–{MAX_CELL}, got {short(value)}"
        )
    return (value[0], value[1])


def areas(value: object, where: str) -> Areas:
    """A city die's black areas: a list of edge-letter strings ("NE", "S"), no edge in two areas."""
    if not isinstance(value, list) or not value:
        raise EventFormatError(f'{where}: must be a list of areas such as ["NE", "S"], got {short(value)}')
    masks = []
    for i, text in enumerate(value):
        if not isinstance(text, str):
            raise EventFormatError(f'{where}[{i}]: must be edge letters such as "NE", got {short(text)}')
        try:
            masks.append(parse_area(text))
        except ValueError as exc:
            raise EventFormatError(f"{where}[{i}]: {exc}") from None
    problem = areas_problem(tuple(masks))
    if problem:
        raise EventFormatError(f"{where}: {problem}")
    return tuple(masks)


LOG_FORMAT: LogFormat[Event] = LogFormat(event_from_json, event_to_json, EventFormatError)
"""This game's events in the log every game keeps."""
