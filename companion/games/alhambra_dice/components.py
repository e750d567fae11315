"""What is printed on the components, as data checked on load: the bonus tiles (`bonus_tiles.json`) and the
VP each place earns at scorings A, B and C (the original Alhambra's scoring card, `alhambra/buildings.json`,
which prints the same numbers as the dice game's board)."""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources

from companion.games.alhambra.buildings import TYPES, load_buildings
from jsonfile import JsonFileError, loads, refuse_unknown, whole_number

TILE_KINDS = ("vp", "exchange", "displace", "cancel", "black_die")
"""The bonus tiles' kinds, as files and events name them."""
START_TILE = "start_player"
"""The separate start-player tile: on a bonus field in rounds 1–4, not one of the 26."""
TILES = 26
"""The bonus tiles the rules give the game: a pile of 5 for each of rounds 1–4 and the 6 dark-backed ones of
round 5, every one laid out."""


class ComponentsError(ValueError):
    """A components file is damaged; the message names the file and the field."""


@dataclass(frozen=True, slots=True)
class BonusTiles:
    counts: dict[str, int]
    """How many tiles of each kind the game holds."""
    dark: int
    """Tiles with a dark back: the last round's set, one on each column."""
    pile: int
    """Tiles in each of the other rounds' piles (the start-player tile takes the sixth bonus field)."""


def load_bonus_tiles(text: str, where: str = "bonus_tiles.json") -> BonusTiles:
    try:
        data = loads(text.encode("utf-8"))
    except JsonFileError as exc:
        raise ComponentsError(f"{where}: {exc}") from exc
    if not isinstance(data, dict):
        raise ComponentsError(f"{where}: must be an object with tiles, dark and pile")
    refuse_unknown(data, ("about", "tiles", "dark", "pile"), where, ComponentsError)
    tiles = data.get("tiles")
    if not isinstance(tiles, dict):
        raise ComponentsError(f"{where}: tiles: must map {', '.join(TILE_KINDS)} to counts")
    refuse_unknown(tiles, TILE_KINDS, f"{where}: tiles", ComponentsError)
    counts = {}
    for kind in TILE_KINDS:
        counts[kind] = whole_number(tiles.get(kind), 0, 30, f"{where}: tiles.{kind}", ComponentsError)
    dark = whole_number(data.get("dark"), len(TYPES), len(TYPES), f"{where}: dark", ComponentsError)
    pile = whole_number(data.get("pile"), len(TYPES) - 1, len(TYPES) - 1, f"{where}: pile", ComponentsError)
    if sum(counts.values()) != TILES:
        raise ComponentsError(
            f"{where}: tiles: {sum(counts.values())} tiles in all, the game has {TILES} "
            f"(a pile of {pile} for each of rounds 1–4 and {dark} dark-backed tiles)"
        )
    return BonusTiles(counts, dark, pile)


BONUS_TILES = load_bonus_tiles(resources.files(__package__).joinpath("bonus_tiles.json").read_text("utf-8"))
VP_TABLE: tuple[tuple[tuple[int, ...], ...], ...] = tuple(kind.vp for kind in load_buildings())
"""Per building type (in `TYPES` order), per scoring A/B/C, the VP of the places it pays."""
