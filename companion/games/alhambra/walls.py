"""The longest connected outer wall of an Alhambra laid out as tiles.

A layout is the player's tiles on a grid: `{"tiles": [{"at": [row, col], "walls": "NE"}, ...]}`, row growing
downwards (south), col to the right (east), `walls` the sides of the tile that carry a wall piece (N, E, S, W;
"" for none; the fountain is a tile without walls). The rules of laying (`../shared/rules`, seed 003): edges
must match, wall against wall; every tile is joined to the others by a side. A wall piece is *outer* when no
tile lies beyond it ("the wall around the Alhambra"); outer pieces are connected where they meet at a corner,
and the wall scores 1 VP per piece of its largest connected run.

[interpretation] Pieces meeting at a corner are connected whichever way they turn, also where two runs only
touch at the corner of two tiles laid diagonally; a run that branches there counts all its pieces.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

Cell = tuple[int, int]
Corner = tuple[int, int]
SIDES = "NESW"
STEP = {"N": (-1, 0), "E": (0, 1), "S": (1, 0), "W": (0, -1)}
OPPOSITE = {"N": "S", "E": "W", "S": "N", "W": "E"}


class LayoutError(ValueError):
    """A layout that cannot lie on a table: the message names the tile."""


@dataclass(frozen=True, slots=True)
class Tile:
    at: Cell
    walls: frozenset[str]


@dataclass(frozen=True, slots=True)
class Wall:
    length: int
    """Pieces in the longest connected outer wall."""
    pieces: tuple[tuple[Cell, str], ...]
    """Those pieces: (tile, side)."""
    runs: tuple[int, ...]
    """The length of every connected outer wall, longest first."""


def _corners(at: Cell, side: str) -> tuple[Corner, Corner]:
    r, c = at
    return {
        "N": ((r, c), (r, c + 1)),
        "E": ((r, c + 1), (r + 1, c + 1)),
        "S": ((r + 1, c), (r + 1, c + 1)),
        "W": ((r, c), (r + 1, c)),
    }[side]


def check_layout(tiles: Iterable[Tile]) -> dict[Cell, Tile]:
    """The tiles by cell, after the laying rules: one tile a cell, wall against wall, all joined."""
    placed: dict[Cell, Tile] = {}
    for tile in tiles:
        if tile.at in placed:
            raise LayoutError(f"two tiles at row {tile.at[0]}, col {tile.at[1]}")
        placed[tile.at] = tile
    for tile in placed.values():
        for side in SIDES:
            dr, dc = STEP[side]
            other = placed.get((tile.at[0] + dr, tile.at[1] + dc))
            if other is not None and (side in tile.walls) != (OPPOSITE[side] in other.walls):
                raise LayoutError(
                    f"tile at row {tile.at[0]}, col {tile.at[1]}: its {side} edge "
                    f"{'has' if side in tile.walls else 'has no'} wall, the tile beyond "
                    f"{'has none' if side in tile.walls else 'has one'} (edges must match)"
                )
    if placed:
        start = next(iter(placed))
        reached, todo = {start}, [start]
        while todo:
            r, c = todo.pop()
            for dr, dc in STEP.values():
                if (r + dr, c + dc) in placed and (r + dr, c + dc) not in reached:
                    reached.add((r + dr, c + dc))
                    todo.append((r + dr, c + dc))
        apart = sorted(set(placed) - reached)
        if apart:
            raise LayoutError(f"tile at row {apart[0][0]}, col {apart[0][1]} is not joined to the others")
    return placed


def longest_wall(tiles: Iterable[Tile]) -> Wall:
    placed = check_layout(tiles)
    outer = [
        (at, side)
        for at, tile in placed.items()
        for side in sorted(tile.walls)
        if (at[0] + STEP[side][0], at[1] + STEP[side][1]) not in placed
    ]
    by_corner: dict[Corner, list[int]] = {}
    for i, (at, side) in enumerate(outer):
        for corner in _corners(at, side):
            by_corner.setdefault(corner, []).append(i)
    seen: set[int] = set()
    runs: list[list[int]] = []
    for i in range(len(outer)):
        if i in seen:
            continue
        run, todo = [], [i]
        seen.add(i)
        while todo:
            j = todo.pop()
            run.append(j)
            for corner in _corners(*outer[j]):
                for k in by_corner[corner]:
                    if k not in seen:
                        seen.add(k)
                        todo.append(k)
        runs.append(run)
    runs.sort(key=len, reverse=True)
    longest = tuple(sorted(outer[j] for j in runs[0])) if runs else ()
    return Wall(len(longest), longest, tuple(len(r) for r in runs))
