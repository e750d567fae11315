"""What is printed on the original Alhambra's scoring card: each building type, how many tiles of it the game
holds, and the VP each place earns at each of the three scorings (`buildings.json`, checked on load)."""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from jsonfile import JsonFileError, Limits, is_whole_number, read_json, refuse_unknown, short, whole_number

SCORINGS = 3
TYPES = ("pavilion", "seraglio", "arcades", "chambers", "garden", "tower")
"""In the scoring card's order."""


class BuildingTableError(ValueError):
    """The building table file is not as the scoring card: the message names the field."""


@dataclass(frozen=True, slots=True)
class BuildingType:
    name: str
    tiles: int
    """Tiles of the type in the tile game: no player has more (towers: 11)."""
    extra: int
    """Tiles of the type the dice game adds: its extra tower, used in Alcazaba and, as its rulebook allows, in
    the tile game as an extra tile."""
    vp: tuple[tuple[int, ...], ...]
    """Per scoring (1-3), the VP of its paying places: scoring n pays places 1..n."""


def load_buildings(path: Path | None = None) -> tuple[BuildingType, ...]:
    where = str(path) if path else "buildings.json"
    try:
        data = read_json(
            path or Path(str(resources.files(__package__).joinpath("buildings.json"))), Limits(size=10_000)
        )
    except JsonFileError as exc:
        raise BuildingTableError(str(exc)) from exc
    if not isinstance(data, dict) or not isinstance(data.get("buildings"), dict):
        raise BuildingTableError(f"{where}: must be an object with 'buildings'")
    refuse_unknown(data, ("about", "buildings"), where, BuildingTableError)
    table = data["buildings"]
    if list(table) != list(TYPES):
        raise BuildingTableError(f"{where}.buildings: must list {', '.join(TYPES)} in that order")
    types = []
    for name in TYPES:
        entry, at = table[name], f"{where}.buildings.{name}"
        if not isinstance(entry, dict):
            raise BuildingTableError(f"{at}: must be an object with tiles and vp")
        refuse_unknown(entry, ("tiles", "extra", "vp"), at, BuildingTableError)
        tiles = whole_number(
            entry.get("tiles"), 1, 20, f"{at}.tiles", BuildingTableError, "a whole number 1-20"
        )
        extra = whole_number(
            entry.get("extra", 0), 0, 5, f"{at}.extra", BuildingTableError, "a whole number 0-5"
        )
        types.append(BuildingType(name, tiles, extra, _vp_rows(entry.get("vp"), f"{at}.vp")))
    return tuple(types)


def _vp_rows(vp: object, at: str) -> tuple[tuple[int, ...], ...]:
    """A type's VP per scoring. Tied players share the VP of the places they take, so equal places (and
    places worth 0) are the card's to print; a place worth more than a better one would reward finishing
    behind."""
    rows = vp if isinstance(vp, list) else []
    shaped = [len(v) if isinstance(v, list) else -1 for v in rows] == [1, 2, 3]
    if not shaped or not all(is_whole_number(x, 0, 99) for row in rows for x in row):
        raise BuildingTableError(
            f"{at}: must be [[1st], [1st, 2nd], [1st, 2nd, 3rd]] of 0-99, got {short(vp)}"
        )
    for scoring, row in enumerate(rows, 1):
        if row != sorted(row, reverse=True):
            raise BuildingTableError(
                f"{at}[{scoring - 1}]: at scoring {scoring} a place cannot earn more than a better place "
                f"(1st >= 2nd >= 3rd), got {short(row)}"
            )
    return tuple(tuple(row) for row in rows)
