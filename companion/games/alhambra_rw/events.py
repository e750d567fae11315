"""Events of an Alhambra Roll & Write game: every dice reading and every decision is one event.

The engine never rolls dice: a `Roll` carries the values (read by the camera, typed in, or a virtual roll the
app made for an imaginary player). Each event converts to and from one JSON object, one per line in the log;
the first line names the game (`"game": "alhambra-roll-and-write"`), as every game's does. A log written
before it did names none, and is read as ever: a file naming no game is this game's (`table.game_named`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Literal, TypeAlias

from jsonfile import is_whole_number, short, whole_number

from ..eventlog import SAID, LogFormat, Said, event_fields, name_field, names_field, said_from_json
from .sheet import Sheet, SheetError, sheet_from_json

GAME_ID = "alhambra-roll-and-write"
Colour: TypeAlias = Literal["yellow", "blue"]
COLOURS: tuple[Colour, ...] = ("yellow", "blue")

STANDARD = "standard"
VERSUS_IMAGINARY = "versus-imaginary"
VARIANTS: tuple[str, ...] = (STANDARD, VERSUS_IMAGINARY)


class EventFormatError(ValueError):
    """A JSON object is not a well-formed event; the message names the field."""


@dataclass(frozen=True, slots=True)
class GameStarted:
    """The first event: the sheet, the real players in turn order (start player first, then clockwise),
    the imaginary players' names and the variant."""

    sheet: Sheet
    players: tuple[str, ...]
    imaginary: tuple[str, ...] = ()
    variant: str = STANDARD
    kind: ClassVar[str] = "game_started"


@dataclass(frozen=True, slots=True)
class Roll(Said):
    """Dice that `player` rolled (or that were rolled for an imaginary player): what they are for is
    whatever the game expects now (see `expectation`)."""

    player: str
    yellow: tuple[int, ...]
    blue: tuple[int, ...]
    kind: ClassVar[str] = "roll"


@dataclass(frozen=True, slots=True)
class ChangePips:
    """Special action "change pips": turn a `colour` die from `from_value` to `to_value`, a coin per pip."""

    player: str
    colour: Colour
    from_value: int
    to_value: int
    kind: ClassVar[str] = "change_pips"


@dataclass(frozen=True, slots=True)
class CrossBuilding:
    """Action A "cross a building" at the crossing (yellow, blue); a second one in the same turn is the
    special action "two buildings"."""

    player: str
    yellow: int
    blue: int
    kind: ClassVar[str] = "cross_building"


@dataclass(frozen=True, slots=True)
class TakeCoins:
    """Action B "take coins"."""

    player: str
    kind: ClassVar[str] = "take_coins"


@dataclass(frozen=True, slots=True)
class KeepPair:
    """After rolling all 4 dice: keep the yellow+blue pair (yellow, blue), pass the other pair."""

    player: str
    yellow: int
    blue: int
    kind: ClassVar[str] = "keep_pair"


Event: TypeAlias = GameStarted | Roll | ChangePips | CrossBuilding | TakeCoins | KeepPair


def event_to_json(event: Event) -> dict[str, Any]:
    """One event as a JSON-ready object; `"event"` names its kind."""
    if isinstance(event, GameStarted):
        return {
            "event": event.kind,
            "game": GAME_ID,
            "sheet": event.sheet.to_json(),
            "players": list(event.players),
            "imaginary": list(event.imaginary),
            "variant": event.variant,
        }
    if isinstance(event, Roll):
        return {
            "event": event.kind,
            "player": event.player,
            "yellow": list(event.yellow),
            "blue": list(event.blue),
        } | event.said_json()
    if isinstance(event, ChangePips):
        return {
            "event": event.kind,
            "player": event.player,
            "colour": event.colour,
            "from": event.from_value,
            "to": event.to_value,
        }
    if isinstance(event, CrossBuilding | KeepPair):
        return {"event": event.kind, "player": event.player, "yellow": event.yellow, "blue": event.blue}
    return {"event": event.kind, "player": event.player}


_FIELDS: dict[str, tuple[str, ...]] = {
    GameStarted.kind: ("event", "game", "sheet", "players", "imaginary", "variant"),
    Roll.kind: ("event", "player", "yellow", "blue", *SAID),
    ChangePips.kind: ("event", "player", "colour", "from", "to"),
    CrossBuilding.kind: ("event", "player", "yellow", "blue"),
    KeepPair.kind: ("event", "player", "yellow", "blue"),
    TakeCoins.kind: ("event", "player"),
}
"""The fields `event_to_json` writes for each kind of event."""


def event_from_json(raw: object) -> Event:
    """Parse one event object; raises `EventFormatError` naming the bad field."""
    kind, data = event_fields(raw, _FIELDS, EventFormatError)
    if kind == GameStarted.kind:
        # Absent in a log written before the first line named its game: read as ever.
        if data.get("game", GAME_ID) != GAME_ID:
            raise EventFormatError(f"game: must be {GAME_ID!r}, got {short(data.get('game'))}")
        try:
            sheet = sheet_from_json(data.get("sheet"), where="sheet")
        except SheetError as exc:
            raise EventFormatError(str(exc)) from exc
        variant = data.get("variant", STANDARD)
        if variant not in VARIANTS:
            raise EventFormatError(f"variant: must be one of {', '.join(VARIANTS)}, got {short(variant)}")
        return GameStarted(
            sheet,
            names_field(data, "players", EventFormatError),
            names_field(data, "imaginary", EventFormatError),
            variant,
        )
    player = name_field(data, "player", EventFormatError)
    if kind == Roll.kind:
        return Roll(
            player, _ints(data, "yellow"), _ints(data, "blue"), **said_from_json(data, EventFormatError)
        )
    if kind == ChangePips.kind:
        colour = data.get("colour")
        if colour == "yellow" or colour == "blue":
            return ChangePips(player, colour, _int(data, "from"), _int(data, "to"))
        raise EventFormatError(f"colour: must be yellow or blue, got {short(colour)}")
    if kind == CrossBuilding.kind:
        return CrossBuilding(player, _int(data, "yellow"), _int(data, "blue"))
    if kind == KeepPair.kind:
        return KeepPair(player, _int(data, "yellow"), _int(data, "blue"))
    return TakeCoins(player)


def _int(data: dict[str, Any], key: str) -> int:
    return whole_number(data.get(key), None, None, key, EventFormatError)


def _ints(data: dict[str, Any], key: str) -> tuple[int, ...]:
    value = data.get(key)
    if not isinstance(value, list) or not all(is_whole_number(v) for v in value):
        raise EventFormatError(f"{key}: must be a list of die values, got {short(value)}")
    return tuple(value)


LOG_FORMAT: LogFormat[Event] = LogFormat(event_from_json, event_to_json, EventFormatError)
"""This game's events in the log every game keeps."""
