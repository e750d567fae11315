"""Events of an Alhambra dice game: every dice reading and every decision at the table is one event.

The engine never rolls dice: `Rolled` carries how many of the 8 white dice show each building type after the
roll, the dice set aside included. [interpretation] Any dice may be set aside or taken back before a roll, so
which dice were re-rolled constrains nothing: the 8 dice as they lie after the roll are what counts.
Each event converts to and from one JSON object, one per line in the game log; the first line
names the game (`"game": "alhambra-dice"`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Final, Literal, TypeAlias

from companion.games.alhambra.buildings import TYPES
from jsonfile import is_whole_number, refuse_unknown, short, whole_number

from ..eventlog import SAID, LogFormat, Said, event_fields, name_field, names_field, said_from_json
from .components import START_TILE, TILE_KINDS

GAME_ID = "alhambra-dice"
PRIZES = ("points", "tile")
"""A column's two prizes: 2 building points, or 1 building point and the column's bonus tile."""
STANDARD = "standard"
ALCAZABA = "alcazaba"
VARIANTS = (STANDARD, ALCAZABA)
"""The standard game, and the Alcazaba variant played with the original Alhambra's building tiles."""
SIDES = "NESW"
Cell: TypeAlias = tuple[int, int]
"""A place in a player's Alhambra: (row, col), row growing south, the fountain at (0, 0) (`alhambra.walls`).
"""
RESERVE: Final = "reserve"
TO_DIRK: Final = "dirk"
Where: TypeAlias = Cell | Literal["reserve", "dirk"]
"""Where a building tile taken goes: built at a place of the Alhambra, into the reserve, or (2 players) given
to Dirk."""


class EventFormatError(ValueError):
    """A JSON object is not a well-formed event; the message names the field."""


@dataclass(frozen=True, slots=True)
class GameStarted:
    """The first event: the real players clockwise, the first Caliph (start player, drawn by lot) first.
    With 2 players the imaginary Dirk joins."""

    players: tuple[str, ...]
    variant: str = STANDARD
    """`"alcazaba"`: the Alcazaba variant; a log without it is the standard game."""
    kind: ClassVar[str] = "game_started"


@dataclass(frozen=True, slots=True)
class BuildingTile:
    """A building tile of the original Alhambra as the scoring needs it: its type and the sides of it that
    carry a wall piece (among N, E, S, W, in that order; "" for none). Its price plays no part here."""

    building: str
    walls: str = ""


@dataclass(frozen=True, slots=True)
class TilesLaid:
    """Alcazaba: a round's building tiles are laid out, each on the column of its type: `pile`, one of each
    type, then `drawn`, the 5 drawn from the bag in the order drawn (Dirk's markers follow it); rounds 1–4:
    `start_column`, the column rolled for the start-player tile's bonus field."""

    pile: tuple[BuildingTile, ...]
    drawn: tuple[BuildingTile, ...]
    start_column: str | None = None
    kind: ClassVar[str] = "tiles_laid"


@dataclass(frozen=True, slots=True)
class TileTaken:
    """Alcazaba: the owner of the best marker left in column `building` takes laid-out tile `tile` (its place
    in the layout, the pile's 6 then the drawn 5; it lies on that column) and builds it at once `at` a place
    in their Alhambra, puts it into the `"reserve"` or gives it to `"dirk"` (Dirk's own marker: `at` None);
    `tile` None: the start-player tile instead, naming `start_player`."""

    player: str
    building: str
    tile: int | None
    at: Where | None = None
    start_player: str | None = None
    kind: ClassVar[str] = "tile_taken"


@dataclass(frozen=True, slots=True)
class Rebuilt:
    """Alcazaba: instead of placing a marker after roll 1 or 2, one rebuild action (the marker goes to the
    reserve board): `remove` a tile of the Alhambra into the reserve, build reserve tile `build` at `at`, or
    both at once (an exchange: the reserve tile takes the removed tile's place, `at` omitted)."""

    player: str
    remove: Cell | None = None
    build: int | None = None
    at: Cell | None = None
    kind: ClassVar[str] = "rebuilt"


@dataclass(frozen=True, slots=True)
class RoundPrepared:
    """The bonus fields are filled: `tiles[c]` lies on column c (pavilion … tower), the start-player tile on
    the column rolled for it (rounds 1–4). `dirk_column`: the column rolled for Dirk's first marker (2
    players)."""

    tiles: tuple[str, ...]
    dirk_column: str | None = None
    kind: ClassVar[str] = "round_prepared"


@dataclass(frozen=True, slots=True)
class Rolled(Said):
    """The active player rolled: `dice[t]` of the 8 white dice show building type t (in `TYPES` order)."""

    player: str
    dice: tuple[int, ...]
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
    when it is taken; `exchange`: the types that building points received go to instead, one exchange tile
    each (`()`: none used; None: not said, refused while the player holds an exchange tile); `start_player`:
    the start-player tile's receiver names the next Caliph."""

    player: str
    building: str
    prize: str
    value: int | None = None
    exchange: tuple[str, ...] | None = None
    start_player: str | None = None
    kind: ClassVar[str] = "prize_taken"


Event: TypeAlias = (
    GameStarted
    | RoundPrepared
    | Rolled
    | RollCancelled
    | BlackDieSet
    | MarkerPlaced
    | PrizeTaken
    | TilesLaid
    | TileTaken
    | Rebuilt
)
_OPTIONAL = ("dirk_column", "start_column", "value", "exchange", "start_player", "remove", "build", "at")


def _tile_json(tile: BuildingTile) -> dict[str, str]:
    return {"building": tile.building, "walls": tile.walls}


def event_to_json(event: Event) -> dict[str, Any]:
    """One event as a JSON-ready object; `"event"` names its kind, optional fields only when given."""
    if isinstance(event, GameStarted):
        variant = {"variant": event.variant} if event.variant != STANDARD else {}
        return {"event": event.kind, "game": GAME_ID, "players": list(event.players), **variant}
    out: dict[str, Any] = {"event": event.kind}
    if isinstance(event, RoundPrepared):
        out["tiles"] = dict(zip(TYPES, event.tiles, strict=True))
    elif isinstance(event, TilesLaid):
        out["pile"] = [_tile_json(t) for t in event.pile]
        out["drawn"] = [_tile_json(t) for t in event.drawn]
    else:
        out["player"] = event.player
    if isinstance(event, Rolled):
        out["dice"] = {t: n for t, n in zip(TYPES, event.dice, strict=True) if n}
        out |= event.said_json()
    elif isinstance(event, (BlackDieSet, MarkerPlaced, PrizeTaken, TileTaken)):
        out["building"] = event.building
    if isinstance(event, TileTaken):
        out["tile"] = event.tile
    if isinstance(event, MarkerPlaced) and event.displace:
        out["displace"] = True
    if isinstance(event, PrizeTaken):
        out["prize"] = event.prize
    for name in _OPTIONAL:
        value = getattr(event, name, None)
        if value is not None:
            out[name] = list(value) if isinstance(value, tuple) else value
    if isinstance(event, Rebuilt):
        out |= {"remove": _listed(event.remove), "build": event.build}
    if isinstance(event, PrizeTaken) and event.exchange is not None and len(event.exchange) == 1:
        out["exchange"] = event.exchange[0]  # one exchange as logs have always written it
    return out


_FIELDS: dict[str, tuple[str, ...]] = {
    GameStarted.kind: ("event", "game", "players", "variant"),
    RoundPrepared.kind: ("event", "tiles", "dirk_column"),
    Rolled.kind: ("event", "player", "dice", *SAID),
    RollCancelled.kind: ("event", "player"),
    BlackDieSet.kind: ("event", "player", "building"),
    MarkerPlaced.kind: ("event", "player", "building", "displace"),
    PrizeTaken.kind: ("event", "player", "building", "prize", "value", "exchange", "start_player"),
    TilesLaid.kind: ("event", "pile", "drawn", "start_column"),
    TileTaken.kind: ("event", "player", "building", "tile", "at", "start_player"),
    Rebuilt.kind: ("event", "player", "remove", "build", "at"),
}


def event_from_json(raw: object) -> Event:
    """Parse one event object; raises `EventFormatError` naming the bad field."""
    kind, data = event_fields(raw, _FIELDS, EventFormatError)
    if kind == GameStarted.kind:
        if data.get("game") != GAME_ID:
            raise EventFormatError(f"game: must be {GAME_ID!r}, got {short(data.get('game'))}")
        players = names_field(data, "players", EventFormatError)
        variant = data.get("variant", STANDARD)
        if variant not in VARIANTS:
            raise EventFormatError(f"variant: must be one of {', '.join(VARIANTS)}, got {short(variant)}")
        return GameStarted(players, str(variant))
    if kind == TilesLaid.kind:
        start = data.get("start_column")
        return TilesLaid(
            _tiles(data.get("pile"), "pile"),
            _tiles(data.get("drawn"), "drawn"),
            None if start is None else _building(start, "start_column"),
        )
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
    player = name_field(data, "player", EventFormatError)
    if kind == Rolled.kind:
        return Rolled(player, _dice(data.get("dice")), **said_from_json(data, EventFormatError))
    if kind == RollCancelled.kind:
        return RollCancelled(player)
    if kind == Rebuilt.kind:
        # Both are said (null for none): a rebuild line that lost one would still be a legal rebuild action.
        for name, none in (("remove", "no tile removed"), ("build", "no reserve tile built")):
            if name not in data:
                raise EventFormatError(f"{name}: missing (null for {none})")
        return Rebuilt(
            player,
            _cell(data.get("remove"), "remove"),
            _index(data.get("build"), "build"),
            _cell(data.get("at"), "at"),
        )
    building = _building(data.get("building"), "building")
    if kind == BlackDieSet.kind:
        return BlackDieSet(player, building)
    if kind == TileTaken.kind:
        at = data.get("at")
        where = at if at in (RESERVE, TO_DIRK) else _cell(at, "at", f'or "{RESERVE}" or "{TO_DIRK}"')
        return TileTaken(player, building, _index(data.get("tile"), "tile"), where, _start_player(data))
    if kind == MarkerPlaced.kind:
        displace = data.get("displace", False)
        if not isinstance(displace, bool):
            raise EventFormatError(f"displace: must be true or false, got {short(displace)}")
        return MarkerPlaced(player, building, displace)
    prize = data.get("prize")
    if prize not in PRIZES:
        raise EventFormatError(f"prize: must be points or tile, got {short(prize)}")
    value = data.get("value")
    if value is not None and not is_whole_number(value, 1, 3):
        raise EventFormatError(f"value: a VP tile's value must be 1, 2 or 3, got {short(value)}")
    return PrizeTaken(player, building, str(prize), value, _exchange(data), _start_player(data))


def _start_player(data: dict[str, Any]) -> str | None:
    """The start player a prize or tile names (the start-player tile's), None where none is."""
    return None if data.get("start_player") is None else name_field(data, "start_player", EventFormatError)


def _exchange(data: dict[str, Any]) -> tuple[str, ...] | None:
    """`"exchange"`: a building type, a list of them (one per exchange tile used) or `[]` for none; absent:
    not said (the engine refuses that while the player holds an exchange tile, so a deleted key is no
    silent default)."""
    if "exchange" not in data:
        return None
    given = data["exchange"]
    listed = given if isinstance(given, list) else [given]
    if len(listed) > 2:
        raise EventFormatError(
            f"exchange: a prize gives at most 2 building points to exchange, got {short(given)}"
        )
    return tuple(_building(b, "exchange") for b in listed)


def _listed(cell: Cell | None) -> list[int] | None:
    return None if cell is None else list(cell)


def _tiles(value: object, where: str) -> tuple[BuildingTile, ...]:
    if not isinstance(value, list):
        raise EventFormatError(
            f'{where}: must be a list of tiles, e.g. [{{"building": "garden", "walls": "NE"}}]'
        )
    tiles = []
    for n, tile in enumerate(value):
        at = f"{where}[{n}]"
        if not isinstance(tile, dict):
            raise EventFormatError(f"{at}: must be an object with building and walls")
        refuse_unknown(tile, ("building", "walls"), at, EventFormatError)
        # A tile's walls change its Alhambra's wall: no default, "" says it has none.
        if "walls" not in tile:
            raise EventFormatError(f'{at}.walls: missing ("" for a tile without walls)')
        walls = tile["walls"]
        if not isinstance(walls, str) or walls != "".join(s for s in SIDES if s in walls):
            raise EventFormatError(
                f"{at}.walls: must be sides among N, E, S, W in that order, got {short(walls)}"
            )
        tiles.append(BuildingTile(_building(tile.get("building"), f"{at}.building"), walls))
    return tuple(tiles)


def _cell(value: object, where: str, other: str = "") -> Cell | None:
    if value is None:
        return None
    if not isinstance(value, list) or len(value) != 2 or not all(is_whole_number(v) for v in value):
        raise EventFormatError(
            f"{where}: must be [row, col]{' ' + other if other else ''}, got {short(value)}"
        )
    return (value[0], value[1])


def _index(value: object, where: str) -> int | None:
    if value is None:
        return None
    return whole_number(value, 0, None, where, EventFormatError, "a tile's place (0, 1, …)")


def _building(value: object, where: str) -> str:
    if value not in TYPES:
        # Kept short: with a tile's place (`drawn[4].building`) and a long value shown, the one error line of
        # `companion score` stays within 200 characters.
        raise EventFormatError(f"{where}: {short(value)} is not one of {', '.join(TYPES)}")
    return str(value)


def _dice(value: object) -> tuple[int, ...]:
    if not isinstance(value, dict):
        raise EventFormatError('dice: must map building types to counts, e.g. {"garden": 3, "tower": 5}')
    refuse_unknown(value, TYPES, "dice", EventFormatError)
    counts = []
    for t in TYPES:
        counts.append(
            whole_number(value.get(t, 0), 0, 8, f"dice.{t}", EventFormatError, "a number of dice 0–8")
        )
    return tuple(counts)


LOG_FORMAT: LogFormat[Event] = LogFormat(event_from_json, event_to_json, EventFormatError)
"""This game's events in the log every game keeps."""
