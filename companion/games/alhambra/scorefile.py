"""A scoring pad typed in from the table: `{"game": "alhambra", "players": [...]}`, read and checked.

    {"game": "alhambra", "players": [
      {"name": "Ann", "scorings": [{"buildings": {"pavilion": 2, "seraglio": 0, "arcades": 1, "chambers": 0,
                                                   "garden": 3, "tower": 1}, "wall": 4}, ...]},
      {"name": "Dirk", "dirk": true, "scorings": [{"buildings": {...}}, ...]}]}

One entry per scoring held so far (1-3, as many for every player). Instead of `"wall": N` a scoring may give
the Alhambra's tiles, `"layout": {"tiles": [{"at": [row, col], "walls": "NE"}, ...]}`, and the longest
connected outer wall is found on them (`walls`). `"extra_tower": true` (top level): the dice game's extra
tower tile is played as an extra tile, 12 towers instead of 11. Every field is checked; an unknown one is
refused by name; a field that changes the score has no default (a layout tile's `walls`: `""` for none).
"""

from __future__ import annotations

from jsonfile import JsonFileError, Limits, refuse_unknown, short, whole_number

from ..entry import ScoreFileError as ScoreFileError
from .buildings import SCORINGS, TYPES, BuildingType, load_buildings
from .scoring import Holding, Result, score_game
from .walls import SIDES, LayoutError, Tile, longest_wall

GAME_ID = "alhambra"
LIMITS = Limits(size=200_000)
MAX_PLAYERS = 6
MAX_NAME = 40
MAX_TILES = 60


def _whole(value: object, low: int, high: int, where: str) -> int:
    # This game's files and messages write a range with a hyphen ("0-5"), as its building table does.
    return whole_number(value, low, high, where, ScoreFileError, f"a whole number {low}-{high}")


def _layout(data: object, where: str) -> tuple[Tile, ...]:
    if not isinstance(data, dict):
        raise ScoreFileError(f"{where}: must be an object with tiles")
    refuse_unknown(data, ("tiles",), where, ScoreFileError)
    tiles = data.get("tiles")
    if not isinstance(tiles, list) or not 1 <= len(tiles) <= MAX_TILES:
        raise ScoreFileError(f"{where}.tiles: must be a list of 1-{MAX_TILES} tiles")
    found = []
    for n, tile in enumerate(tiles):
        at = f"{where}.tiles[{n}]"
        if not isinstance(tile, dict):
            raise ScoreFileError(f"{at}: must be an object with at and walls")
        refuse_unknown(tile, ("at", "walls"), at, ScoreFileError)
        if "walls" not in tile:
            raise ScoreFileError(f'{at}.walls: missing ("" for a tile without walls)')
        cell, walls = tile.get("at"), tile["walls"]
        if not isinstance(cell, list) or len(cell) != 2:
            raise ScoreFileError(f"{at}.at: must be [row, col], got {short(cell)}")
        row, col = (_whole(v, -MAX_TILES, MAX_TILES, f"{at}.at") for v in cell)
        if not isinstance(walls, str) or not set(walls) <= set(SIDES) or len(set(walls)) != len(walls):
            raise ScoreFileError(
                f"{at}.walls: must be sides among N, E, S, W (each once), got {short(walls)}"
            )
        found.append(Tile((row, col), frozenset(walls)))
    return tuple(found)


def most_wall(buildings: int) -> int:
    """The most wall pieces an Alhambra of the fountain and `buildings` tiles can carry. [interpretation]
    Every tile is joined through a side without a wall (the fountain, without walls, to at most 4), so of a
    building's 4 sides at most 3 carry wall if it is joined to the fountain, 2 if only to other buildings:
    2n + min(n, 4), whatever walls the printed tiles have (our sources do not list them)."""
    return 2 * buildings + min(buildings, 4)


def _holding(
    data: object, where: str, name: str, dirk: bool, types: tuple[BuildingType, ...], extra: bool
) -> Holding:
    if not isinstance(data, dict):
        raise ScoreFileError(
            f"{where}: must be an object with buildings{'' if dirk else ' and wall or layout'}"
        )
    refuse_unknown(data, ("buildings",) if dirk else ("buildings", "wall", "layout"), where, ScoreFileError)
    buildings = data.get("buildings")
    if not isinstance(buildings, dict):
        raise ScoreFileError(f"{where}.buildings: must map each building type to a count")
    refuse_unknown(buildings, TYPES, f"{where}.buildings", ScoreFileError)
    missing = [t for t in TYPES if t not in buildings]
    if missing:
        raise ScoreFileError(f"{where}.buildings: missing {', '.join(missing)} (0 where there is none)")
    counts = tuple(_whole(buildings[t.name], 0, held(t, extra), f"{where}.buildings.{t.name}") for t in types)
    if dirk:
        return Holding(name, True, counts, 0)
    if ("wall" in data) == ("layout" in data):
        raise ScoreFileError(f"{where}: give the wall's length (wall) or the tiles (layout), one of them")
    built = sum(counts)
    if "wall" in data:
        length = _whole(data["wall"], 0, most_wall(MAX_TILES), f"{where}.wall")
        if length > most_wall(built):
            raise ScoreFileError(
                f"{where}.wall: an Alhambra of the fountain and {built} buildings carries at most "
                f"{most_wall(built)} wall pieces (every tile joined by a side without wall), got {length}"
            )
        return Holding(name, False, counts, length)
    tiles = _layout(data["layout"], f"{where}.layout")
    if len(tiles) > built + 1:
        raise ScoreFileError(
            f"{where}.layout.tiles: {len(tiles)} tiles, the Alhambra holds the fountain and {built} buildings"
        )
    try:
        wall = longest_wall(tiles)
    except LayoutError as exc:
        raise ScoreFileError(f"{where}.layout: {exc}") from exc
    return Holding(name, False, counts, wall.length, wall)


def held(kind: BuildingType, extra: bool) -> int:
    """Tiles of a type in the game: the tile game's, and the dice game's extra tower when it is played.
    [interpretation] A pad plays the extra tower only when it says so (`"extra_tower": true`): the dice game's
    rulebook lets it join the tile game, as an extra tile or in another's place."""
    return kind.tiles + (kind.extra if extra else 0)


DIRK_DEALT = (6, 6, 3)
"""The buildings the rule deals the imaginary Dirk before each scoring: 6 at the start, 6 more after the first
scoring, 3 more after the second (players may give him more besides)."""


def _check_dirk(scorings: list[Holding], where: str, types: tuple[BuildingType, ...]) -> None:
    """Dirk (2 players): the rules page deals him buildings (6 at the start and after the first scoring, 3
    more after the second) and none ever leaves him, so fewer than those dealt on top of the last scoring's,
    or fewer of a type than at the last scoring, is a slip in typing that moves the real players' places. (The
    dice game's Alcazaba deals him none [interpretation] and scores its own holdings, never a pad.)"""
    for k, holding in enumerate(scorings):
        at = f"{where}.scorings[{k}].buildings"
        before = scorings[k - 1].counts if k else (0,) * len(types)
        need = sum(before) + DIRK_DEALT[k]
        if sum(holding.counts) < need:
            held = f"the {sum(before)} of scoring {k} and the {DIRK_DEALT[k]} more" if k else f"the {need}"
            when = f"after scoring {k}" if k else "at the start"
            raise ScoreFileError(
                f"{at}: {sum(holding.counts)} in all, the imaginary third player holds at least {need}: "
                f"{held} the rule deals him {when}"
            )
        for kind, was, now in zip(types, before, holding.counts, strict=True):
            if now < was:
                raise ScoreFileError(
                    f"{at}.{kind.name}: {now}, fewer than the {was} of scoring {k}: the imaginary third "
                    "player's buildings stay, the rule only deals him more"
                )


def read_scorings(data: object, types: tuple[BuildingType, ...]) -> list[list[Holding]]:
    """The holdings of every player at each scoring, checked; `ScoreFileError` names the field."""
    if not isinstance(data, dict):
        raise ScoreFileError("must be an object with game and players")
    refuse_unknown(data, ("game", "extra_tower", "players"), "", ScoreFileError)
    extra = data.get("extra_tower", False)
    if not isinstance(extra, bool):
        raise ScoreFileError(f"extra_tower: must be true or false, got {short(extra)}")
    players = data.get("players")
    if not isinstance(players, list) or not 2 <= len(players) <= MAX_PLAYERS + 1:
        raise ScoreFileError(f"players: must be a list of 2-{MAX_PLAYERS} players (and Dirk)")
    per_player: list[list[Holding]] = []
    names: list[str] = []
    for n, player in enumerate(players):
        where = f"players[{n}]"
        if not isinstance(player, dict):
            raise ScoreFileError(f"{where}: must be an object with name and scorings")
        refuse_unknown(player, ("name", "dirk", "scorings"), where, ScoreFileError)
        name, dirk, scorings = player.get("name"), player.get("dirk", False), player.get("scorings")
        if not isinstance(name, str) or not 1 <= len(name.strip()) <= MAX_NAME:
            raise ScoreFileError(
                f"{where}.name: must be a name of 1-{MAX_NAME} characters, got {short(name)}"
            )
        if not isinstance(dirk, bool):
            raise ScoreFileError(f"{where}.dirk: must be true or false, got {short(dirk)}")
        if not isinstance(scorings, list) or not 1 <= len(scorings) <= SCORINGS:
            raise ScoreFileError(f"{where}.scorings: must list the 1-{SCORINGS} scorings held so far")
        names.append(name.strip())
        per_player.append(
            [
                _holding(s, f"{where}.scorings[{k}]", name.strip(), dirk, types, extra)
                for k, s in enumerate(scorings)
            ]
        )
    if len(set(names)) != len(names):
        raise ScoreFileError("players: every player needs a name of their own")
    if len({len(p) for p in per_player}) != 1:
        raise ScoreFileError("players: every player must have the same number of scorings")
    dirks = [h[0] for h in per_player if h[0].dirk]
    real = len(per_player) - len(dirks)
    # Dirk (2 players): the imaginary third player of a 2-player game, and only of one.
    if dirks and (len(dirks) > 1 or real != 2):
        raise ScoreFileError("players: Dirk plays only in a 2-player game, as its one imaginary third player")
    if real < 2 or real > MAX_PLAYERS:
        raise ScoreFileError(f"players: the game is for 2-{MAX_PLAYERS} real players, got {real}")
    if real == 2 and not dirks:
        raise ScoreFileError(
            'players: a 2-player game has the imaginary Dirk as third player: add {"name": "Dirk", "dirk": '
            'true, "scorings": [...]}'
        )
    for n, scorings in enumerate(per_player):
        if scorings[0].dirk:
            _check_dirk(scorings, f"players[{n}]", types)
    for k in range(len(per_player[0])):
        for t, kind in enumerate(types):
            built = sum(p[k].counts[t] for p in per_player)
            if built > held(kind, extra):
                more = "" if extra or not kind.extra else ' ("extra_tower": true with the dice game\'s tower)'
                raise ScoreFileError(
                    f"scoring {k + 1}: {built} {kind.name} buildings in all, "
                    f"the game holds {held(kind, extra)}{more}"
                )
    return [[p[k] for p in per_player] for k in range(len(per_player[0]))]


def score_pad(data: object) -> Result:
    """Score a pad file's JSON; `ScoreFileError` names the field."""
    try:
        types = load_buildings()
    except JsonFileError as exc:
        raise ScoreFileError(str(exc)) from exc
    return score_game(read_scorings(data, types), types)
