"""The camera's word on the city typed this turn: a frame read as a built city (`companion.live.city`), scored
for the player as `companion city` scores a photo, and compared with the city dice the players typed.

The camera numbers its grid from the dice it sees, the players from wherever they started building, so the
two cities are laid over each other at their top-left corners (as `lab.city_evaluate` compares a reading with
the truth) and every difference is named at the cell the players typed.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass

from calibration.table_area import TableArea
from companion.games.carcassonne_dice import Built, CityScore, score_layout
from companion.games.carcassonne_dice.city import Areas, Pos, area_text
from companion.live.city import CityReading, city_from_grid, settled_text
from vision.grid import read_grid
from vision.reader import DiceReader
from vision.reading import Image
from vision.symbols.profile import SymbolProfile

AGREES = "the camera's city agrees with the one built"


@dataclass(frozen=True)
class CityCamera:
    """What the app reads a city with: the camera's newest frame (None before its first one or while it is
    lost), the dice taught with `--preset carcassonne` (None: the camera was given no symbol profile) and the
    calibrated dice area (None: the whole frame)."""

    latest_frame: Callable[[], Image | None]
    profile: SymbolProfile | None
    area: TableArea | None = None

    def frame(self) -> Image | None:
        """The newest frame cut to the dice area, as the live reader cuts it: the city reader takes the dice's
        silhouette on a plain table, and the table's edge or what lies beyond it is no die."""
        image = self.latest_frame()
        if image is None or self.area is None:
            return image
        x0, y0, x1, y1 = self.area.pixels(image.shape[1], image.shape[0])
        return image[y0:y1, x0:x1]


@dataclass(frozen=True)
class CityCheck:
    """A frame's city, scored, beside the city typed this turn."""

    reading: CityReading
    scored: CityScore
    differences: tuple[str, ...]
    camera_origin: Pos | None
    """The typed cell of the camera's row 0, col 0, which maps its cells onto the typed ones (None: no city
    die typed or none seen)."""

    @property
    def verdict(self) -> str:
        if not self.differences:
            return AGREES
        n = len(self.differences)
        return f"the camera's city differs from the one built at {n} cell{'s' if n != 1 else ''}"

    def text(self) -> str:
        """The verdict with every difference, then what the frame says the city scores and why."""
        lines = [f"{self.verdict}{':' if self.differences else '.'}"]
        lines += [f"  {d}" for d in self.differences]
        if self.camera_origin is not None:
            r, c = self.camera_origin
            lines.append(f"(the camera's row 0, col 0 is the typed {r},{c})")
        lines += ["", settled_text("the camera's frame", self.reading, self.scored)]
        return "\n".join(lines)


def check_city(image: Image, reader: DiceReader, built: Sequence[Built], doubled: bool) -> CityCheck:
    """Read the city in a frame (a `vision.grid.GridError` says why none is found) and compare it with the
    dice typed this turn; `doubled`: the player began the turn holding a knight."""
    reading = city_from_grid(read_grid(image, reader))
    scored = score_layout(reading.layout, doubled)
    return CityCheck(reading, scored, differences(reading, built), camera_origin(reading, built))


def differences(reading: CityReading, built: Sequence[Built]) -> tuple[str, ...]:
    """Every typed cell the camera reads otherwise, sees nothing at or is unsure of, and every city die it
    sees where none is typed; the cells in the typed numbering."""
    dr, dc = camera_origin(reading, built) or (0, 0)
    typed = {b.at: b.areas for b in built}
    read = {(r + dr, c + dc): areas for (r, c), areas in reading.layout.items()}
    asked = {(r + dr, c + dc) for r, c in reading.asked_at}
    knights = {(r + dr, c + dc) for r, c in reading.knights_at}
    found = []
    for at in sorted(typed.keys() | read.keys() | asked):
        mine, seen = typed.get(at), read.get(at)
        if mine is not None and seen is not None and sorted(mine) == sorted(seen):
            continue
        if mine is None:
            what = f"reads a city die {_areas(seen)}" if seen is not None else "sees a die it is unsure of"
            found.append(f"{at[0]},{at[1]}: nothing typed, the camera {what} there")
            continue
        if seen is not None:
            what = f"the camera reads {_areas(seen)}"
        elif at in asked:
            what = "the camera is unsure of the die there (asked below)"
        elif at in knights:
            what = "the camera reads a knight there"
        else:
            what = "the camera sees no city die there"
        found.append(f"{at[0]},{at[1]}: typed {_areas(mine)}, {what}")
    return tuple(found)


def camera_origin(reading: CityReading, built: Sequence[Built]) -> Pos | None:
    """The typed cell of the camera's row 0, col 0: its top-left corner laid on the typed city's. The camera's
    corner counts the dice it is unsure of (as `lab.city_evaluate`): a doubt in the top row must not move the
    dice read surely. None when no city die is typed or none seen: nothing to lay over."""
    seen = [*reading.layout, *reading.asked_at]
    if not seen or not built:
        return None
    typed_r, typed_c = _corner([b.at for b in built])
    seen_r, seen_c = _corner(seen)
    return typed_r - seen_r, typed_c - seen_c


def _corner(cells: Collection[Pos]) -> Pos:
    return min(r for r, _ in cells), min(c for _, c in cells)


def _areas(areas: Areas) -> str:
    """As the players type a die's areas: `NE/S`."""
    return "/".join(area_text(m) for m in areas)
