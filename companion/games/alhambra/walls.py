"""The longest connected outer wall of an Alhambra laid out as tiles.

A layout is the player's tiles on a grid: `{"tiles": [{"at": [row, col], "walls": "NE"}, ...]}`, row growing
downwards (south), col to the right (east), `walls` the sides of the tile that carry a wall piece (N, E, S, W;
"" for none; the fountain is a tile without walls). The building rules (seed 003, `check_layout`): edge types
must match, wall against wall; every tile is joined by at least one side without a wall; no hole (an empty
space surrounded by buildings); every tile can be reached on foot from the starting tile without crossing a
wall. A wall piece is *outer* when no tile lies beyond it ("the wall around the Alhambra"); outer pieces are
connected where they meet at a corner, and the wall scores 1 VP per piece of its largest connected run.

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
NEIGHBOURS = tuple((side, *STEP[side]) for side in SIDES)
"""Each side with the step to the cell beyond it: the layout checks run in every playout of Alcazaba's advice,
and looking the step up per side cost more than the rest of the check."""


class LayoutError(ValueError):
    """A layout that cannot lie on a table: the message names the tile."""


@dataclass(frozen=True, slots=True)
class Tile:
    at: Cell
    walls: frozenset[str]
    name: str = "tile"
    """What a refusal calls it ("garden", "fountain"); where it lies is added."""


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


def _place(at: Cell) -> str:
    return f"row {at[0]}, col {at[1]}"


def _named(tile: Tile) -> str:
    return f"{tile.name} at {_place(tile.at)}"


def _beyond(at: Cell, side: str) -> Cell:
    return (at[0] + STEP[side][0], at[1] + STEP[side][1])


def _reach(placed: dict[Cell, Tile], start: Cell, on_foot: bool) -> set[Cell]:
    """The tiles joined to `start` by sides; `on_foot`: only through sides without a wall."""
    reached, todo = {start}, [start]
    while todo:
        at = todo.pop()
        walls = placed[at].walls if on_foot else frozenset()
        for side, dr, dc in NEIGHBOURS:
            there = (at[0] + dr, at[1] + dc)
            if there in placed and there not in reached and side not in walls:
                reached.add(there)
                todo.append(there)
    return reached


def _mismatch(placed: dict[Cell, Tile], tile: Tile) -> tuple[str, Tile] | None:
    """A side of `tile` whose edge type differs from the tile's beyond it, and that tile (None: all match)."""
    for side, dr, dc in NEIGHBOURS:
        other = placed.get((tile.at[0] + dr, tile.at[1] + dc))
        if other is not None and (side in tile.walls) != (OPPOSITE[side] in other.walls):
            return side, other
    return None


def may_lie_beside(placed: dict[Cell, Tile], tile: Tile) -> bool:
    """Whether `tile`, added to a layout that keeps the building rules, keeps the rules that look at its own
    sides alone: its edges match the tiles beyond them and one side without a wall joins it to one of them
    (then it is reached on foot as that tile is). Holes still need the whole layout (`check_layout`)."""
    if _mismatch(placed, tile) is not None:
        return False
    return any(
        side not in tile.walls and (tile.at[0] + dr, tile.at[1] + dc) in placed for side, dr, dc in NEIGHBOURS
    )


def check_layout(tiles: Iterable[Tile], start: Cell | None = None) -> dict[Cell, Tile]:
    """The tiles by cell, after the building rules, each refusal naming the tile and the rule: one tile a
    place, edge types matching, every tile joined by a side without a wall, no hole, every tile reachable on
    foot from `start` (the starting tile; None: from the first tile given, [interpretation] a layout that
    lists only part of an Alhambra then has all its tiles joined on foot, whichever is the fountain)."""
    placed: dict[Cell, Tile] = {}
    for tile in tiles:
        if tile.at in placed:
            raise LayoutError(f"two tiles at {_place(tile.at)}")
        placed[tile.at] = tile
    for tile in placed.values():
        mismatch = _mismatch(placed, tile)
        if mismatch is not None:
            side, other = mismatch
            walled = side in tile.walls
            raise LayoutError(
                f"{_named(tile)}: its {side} edge {'has' if walled else 'has no'} wall, "
                f"the {other.name} beyond {'has none' if walled else 'has one'} (edges must match)"
            )
    if not placed:
        return placed
    first = start if start is not None and start in placed else next(iter(placed))
    apart = sorted(set(placed) - _reach(placed, first, on_foot=False))
    if apart:
        raise LayoutError(f"{_named(placed[apart[0]])} is not joined to the others")
    for tile in placed.values():
        if len(placed) > 1 and all(side in tile.walls for side in SIDES if _beyond(tile.at, side) in placed):
            raise LayoutError(
                f"{_named(tile)} is joined only wall against wall (each tile is joined by at least one side "
                "without a wall)"
            )
    cut_off = sorted(set(placed) - _reach(placed, first, on_foot=True))
    if cut_off:
        raise LayoutError(
            f"{_named(placed[cut_off[0]])} cannot be reached on foot from the {placed[first].name} at "
            f"{_place(first)} (every tile reachable without crossing a wall)"
        )
    holes = _holes(set(placed))
    if holes:
        raise LayoutError(
            f"{_place(holes[0])} is a hole: an empty space surrounded by buildings (no holes in the Alhambra)"
        )
    return placed


def _holes(placed: set[Cell]) -> list[Cell]:
    """Empty places cut off from the outside by tiles. [interpretation] A hole is any such empty area, not
    only one square with tiles on its 4 sides: "a space completely surrounded by buildings"."""
    rows = [r for r, _ in placed]
    cols = [c for _, c in placed]
    top, bottom, left, right = min(rows) - 1, max(rows) + 1, min(cols) - 1, max(cols) + 1
    outside, todo = {(top, left)}, [(top, left)]
    while todo:
        at = todo.pop()
        for _, dr, dc in NEIGHBOURS:
            r, c = at[0] + dr, at[1] + dc
            if top <= r <= bottom and left <= c <= right and (r, c) not in placed and (r, c) not in outside:
                outside.add((r, c))
                todo.append((r, c))
    return [
        (r, c)
        for r in range(top, bottom + 1)
        for c in range(left, right + 1)
        if (r, c) not in placed and (r, c) not in outside
    ]


def longest_wall(tiles: Iterable[Tile], start: Cell | None = None) -> Wall:
    """The longest connected outer wall of a layout laid by the building rules (`check_layout`)."""
    placed = check_layout(tiles, start)
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
