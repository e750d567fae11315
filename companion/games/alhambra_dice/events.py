"""Events of an Alhambra dice game: every dice reading and every decision at the table is one event.

The engine never rolls dice: `Rolled` carries how many of the 8 white dice show each building type after the
roll, the dice set aside included. [interpretation] Any dice may be set aside or taken back before a roll, so
which dice were re-rolled constrains nothing: the 8 dice as they lie after the roll are what counts.
Each event converts to and from one JSON object, one per line in the game log; the first line
names the game (`"game": "alhambra-dice"`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeAlias

from companion.games.alhambra.buildings import TYPES
from vision.jsonfile import refuse_unknown, short

from .components import START_TILE, TILE_KINDS

GAME_ID = "alhambra-dice"
PRIZES = ("points", "tile")
"""A column's two prizes: 2 building points, or 1 building point and the column's bonus tile."""


class EventFormatError(ValueError):
    """A JSON object is not a well-formed event; the message names the field."""


@dataclass(frozen=True, slots=True)
class GameStarted:
    """The first event: the real players clockwise, the first Caliph (start player, drawn by lot) first.
    With 2 players the imaginary Dirk joins."""

    players: tuple[str, ...]
    kind: ClassVar[str] = "game_started"


@dataclass(frozen=True, slots=True)
class RoundPrepared:
    """The bonus fields are filled: `tiles[c]` lies on column c (pavilion … tower), the start-player tile on
    the column rolled for it (rounds 1–4). `dirk_column`: the column rolled for Dirk's first marker (2
    players)."""

    tiles: tuple[str, ...]
    dirk_column: str | None = None
    kind: ClassVar[str] = "round_prepared"


@dataclass(frozen=True, slots=True)
class Rolled:
    """The active player rolled: `dice[t]` of the 8 white dice show building type t (in `TYPES` order)."""

    player: str
    dice: tuple[int, ...]
    source: str = field(default="", compare=False)
    """Who read the dice ("keyboard", "camera"): kept in the log, no rule depends on it."""
    note: str = field(default="", compare=False)
    """What the camera read when the players typed the dice instead: kept to settle disputes later."""
    kind: ClassVar[str] = "rolled"


@dataclass(frozen=True, slots=True)
class RollCancelled:
    """Cancel tile: the last roll is void (the dice are as before it and it is not counted)."""

    player: str
    kind: ClassVar[str] = "roll_cancelled"


@dataclass(frozen=True, slots=True)
class BlackDieSet:
    """Black-die tile: the black die is set to `building` and counts for this turn's result."""

    player: str
    building: str
    kind: ClassVar[str] = "black_die_set"


@dataclass(frozen=True, slots=True)
class MarkerPlaced:
    """The turn's result: a marker in column `building` on the line of its count, in the field of the rolls
    used; `displace`: with a displace tile, an opponent's marker on that field is pushed back."""

    player: str
    building: str
    displace: bool = False
    kind: ClassVar[str] = "marker_placed"


@dataclass(frozen=True, slots=True)
class PrizeTaken:
    """A column's prize to the best (then the second best) marker's owner: `"points"` (2 building points) or
    `"tile"` (1 building point and the column's bonus tile). `value`: a VP tile's printed value (1–3), typed
    when it is taken; `exchange`: with an exchange tile, one building point received goes to this type
    instead; `start_player`: the start-player tile's receiver names the next Caliph."""

    player: str
    building: str
    prize: str
    value: int | None = None
    exchange: str | None = None
    start_player: str | None = None
    kind: ClassVar[str] = "prize_taken"


Event: TypeAlias = (
    GameStarted | RoundPrepared | Rolled | RollCancelled | BlackDieSet | MarkerPlaced | PrizeTaken
)
_OPTIONAL = ("dirk_column", "value", "exchange", "start_player")


def event_to_json(event: Event) -> dict[str, Any]:
    """One event as a JSON-ready object; `"event"` names its kind, optional fields only when given."""
    if isinstance(event, GameStarted):
        return {"event": event.kind, "game": GAME_ID, "players": list(event.players)}
    out: dict[str, Any] = {"event": event.kind}
    if isinstance(event, RoundPrepared):
        out["tiles"] = dict(zip(TYPES, event.tiles, strict=True))
    else:
        out["player"] = event.player
    if isinstance(event, Rolled):
        out["dice"] = {t: n for t, n in zip(TYPES, event.dice, strict=True) if n}
        out |= {name: text for name, text in (("source", event.source), ("note", event.note)) if text}
    elif isinstance(event, (BlackDieSet, MarkerPlaced, PrizeTaken)):
        out["building"] = event.building
    if isinstance(event, MarkerPlaced) and event.displace:
        out["displace"] = True
    if isinstance(event, PrizeTaken):
        out["prize"] = event.prize
    for name in _OPTIONAL:
        value = getattr(event, name, None)
        if value is not None:
            out[name] = value
    return out


_FIELDS: dict[str, tuple[str, ...]] = {
    GameStarted.kind: ("event", "game", "players"),
    RoundPrepared.kind: ("event", "tiles", "dirk_column"),
    Rolled.kind: ("event", "player", "dice", "source", "note"),
    RollCancelled.kind: ("event", "player"),
    BlackDieSet.kind: ("event", "player", "building"),
    MarkerPlaced.kind: ("event", "player", "building", "displace"),
    PrizeTaken.kind: ("event", "player", "building", "prize", "value", "exchange", "start_player"),
}


def event_from_json(data: object) -> Event:
    """Parse one event object; raises `EventFormatError` naming the bad field."""
    if not isinstance(data, dict):
        raise EventFormatError("an event must be a JSON object")
    kind = data.get("event")
    if not isinstance(kind, str) or kind not in _FIELDS:
        raise EventFormatError(f"event: unknown kind {short(kind)}")
    refuse_unknown(data, _FIELDS[kind], "", EventFormatError)
    if kind == GameStarted.kind:
        if data.get("game") != GAME_ID:
            raise EventFormatError(f"game: must be {GAME_ID!r}, got {short(data.get('game'))}")
        players = data.get("players")
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise EventFormatError(f"players: must be a list of names, got {short(players)}")
        return GameStarted(tuple(players))
    if kind == RoundPrepared.kind:
        tiles = data.get("tiles")
        if not isinstance(tiles, dict):
            raise EventFormatError("tiles: must map each building type to the bonus tile on its field")
        refuse_unknown(tiles, TYPES, "tiles", EventFormatError)
        laid = []
        for t in TYPES:
            tile = tiles.get(t)
            if tile not in (*TILE_KINDS, START_TILE):
                raise EventFormatError(
                    f"tiles.{t}: must be one of {', '.join((*TILE_KINDS, START_TILE))}, got {short(tile)}"
                )
            laid.append(str(tile))
        dirk = data.get("dirk_column")
        return RoundPrepared(tuple(laid), None if dirk is None else _building(dirk, "dirk_column"))
    player = data.get("player")
    if not isinstance(player, str):
        raise EventFormatError(f"player: must be a name, got {short(player)}")
    if kind == Rolled.kind:
        return Rolled(player, _dice(data.get("dice")), _text(data, "source"), _text(data, "note"))
    if kind == RollCancelled.kind:
        return RollCancelled(player)
    building = _building(data.get("building"), "building")
    if kind == BlackDieSet.kind:
        return BlackDieSet(player, building)
    if kind == MarkerPlaced.kind:
        displace = data.get("displace", False)
        if not isinstance(displace, bool):
            raise EventFormatError(f"displace: must be true or false, got {short(displace)}")
        return MarkerPlaced(player, building, displace)
    prize = data.get("prize")
    if prize not in PRIZES:
        raise EventFormatError(f"prize: must be points or tile, got {short(prize)}")
    value = data.get("value")
    if value is not None and (isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 3):
        raise EventFormatError(f"value: a VP tile's value must be 1, 2 or 3, got {short(value)}")
    exchange = data.get("exchange")
    start = data.get("start_player")
    if start is not None and not isinstance(start, str):
        raise EventFormatError(f"start_player: must be a name, got {short(start)}")
    return PrizeTaken(
        player,
        building,
        str(prize),
        value,
        None if exchange is None else _building(exchange, "exchange"),
        start,
    )


def _text(data: dict[str, Any], name: str) -> str:
    value = data.get(name, "")
    if not isinstance(value, str):
        raise EventFormatError(f"{name}: must be text, got {short(value)}")
    return value


def _building(value: object, where: str) -> str:
    if value not in TYPES:
        raise EventFormatError(f"{where}: must be a building type ({', '.join(TYPES)}), got {short(value)}")
    return str(value)


def _dice(value: object) -> tuple[int, ...]:
    if not isinstance(value, dict):
        raise EventFormatError('dice: must map building types to counts, e.g. {"garden": 3, "tower": 5}')
    refuse_unknown(value, TYPES, "dice", EventFormatError)
    counts = []
    for t in TYPES:
        n = value.get(t, 0)
        if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= 8:
            raise EventFormatError(f"dice.{t}: must be a number of dice 0–8, got {short(n)}")
        counts.append(n)
    return tuple(counts)
