"""Cities in a layout of city dice: which black areas join, which cities are completed, where edges are open.

A city die lies at a grid cell (row, col; rows grow downwards, as the camera sees the table) and shows black
city areas, each given by the edges it touches (a mask of `N`, `E`, `S`, `W`). Two dice at neighbouring cells
touch along one edge. Rules ("Building cities" on the rules page):

- black edges must touch black edges and white edges white: a black edge against a white one is a *rule
  break*, reported with where it is;
- **[interpretation]** "dice lie side by side": the dice built in a turn are one group, each built beside
  one built before it (`off_city`); a layout whose dice lie apart is a rule break too (`Apart`), named, as
  it does not change which cities are completed;
- a *city* is a connected set of black areas: two areas join where their black edges touch; two areas on one
  die are separate unless other dice join them;
- **[interpretation]** a city is *completed* when none of its black edges is open: every black edge touches a
  black edge of a neighbouring city die. An edge facing an empty cell (or a die that is not a city die, such
  as a kept knight) is open; an edge in a rule break is not closed either.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeAlias

N, E, S, W = 1, 2, 4, 8
EDGES: tuple[int, ...] = (N, E, S, W)
"""Edge bits in clockwise order from the top, as the camera sees the die after its rotation."""
LETTER = {N: "N", E: "E", S: "S", W: "W"}
NAME = {N: "north", E: "east", S: "south", W: "west"}
OPPOSITE = {N: S, E: W, S: N, W: E}
STEP = {N: (-1, 0), E: (0, 1), S: (1, 0), W: (0, -1)}
"""(row, col) to the neighbouring cell across each edge."""
_SIDES = tuple((e, *STEP[e], OPPOSITE[e]) for e in EDGES)
EDGES_OF = tuple(tuple(e for e in EDGES if mask & e) for mask in range(16))
"""The edges in each mask, for the loops that run once per built die."""

Pos: TypeAlias = tuple[int, int]
Areas: TypeAlias = tuple[int, ...]
"""A city die's black areas, each the mask of the edges it touches."""


def area_text(mask: int) -> str:
    """An area's edges as letters in clockwise order: `N|E` -> "NE"."""
    return "".join(LETTER[e] for e in EDGES if mask & e)


def parse_area(text: str) -> int:
    """An area's edge letters ("NE", "S", …) as a mask; `ValueError` says what is wrong."""
    mask = 0
    for ch in text:
        edge = next((e for e in EDGES if LETTER[e] == ch.upper()), None)
        if edge is None:
            raise ValueError(f"{ch!r} is not an edge (use N, E, S, W)")
        if mask & edge:
            raise ValueError(f"edge {ch.upper()} is given twice")
        mask |= edge
    if not mask:
        raise ValueError("an area touches at least one edge")
    return mask


def areas_problem(areas: Areas) -> str | None:
    """Why `areas` cannot be one city face (no area, an empty area, or two areas sharing an edge), or None."""
    if not areas:
        return "a city die shows at least one black area"
    seen = 0
    for mask in areas:
        if not 0 < mask < 16:
            return f"an area's edge mask must be 1–15, got {mask}"
        if seen & mask:
            return f"edge {area_text(seen & mask)[0]} belongs to two areas"
        seen |= mask
    return None


def black_of(areas: Areas) -> int:
    """The die's black edges: every edge some area touches."""
    black = 0
    for mask in areas:
        black |= mask
    return black


def place(at: Pos) -> str:
    return f"die at row {at[0]}, col {at[1]}"


def fit_problem(black: Mapping[Pos, int], at: Pos, edges: int) -> str | None:
    """Why a city die with black `edges` cannot be built at `at` beside the dice in `black` (black edges per
    cell), or None: the cell is taken, or a black edge would touch a white one."""
    if at in black:
        return f"row {at[0]}, col {at[1]} already holds a die"
    r, c = at
    for edge, dr, dc, opposite in _SIDES:
        other = black.get((r + dr, c + dc))
        if other is not None and bool(edges & edge) != bool(other & opposite):
            mine, theirs = edges & edge, other & opposite
            return (
                f"its {'black' if mine else 'white'} {NAME[edge]} edge would touch the "
                f"{'black' if theirs else 'white'} {NAME[opposite]} edge of the "
                f"{place((r + dr, c + dc))} (black must touch black, white white)"
            )
    return None


def groups(cells: Iterable[Pos]) -> list[set[Pos]]:
    """The dice joined side by side (whatever their edges), each group once."""
    left = set(cells)
    out = []
    while left:
        group, todo = set(), [left.pop()]
        while todo:
            at = todo.pop()
            group.add(at)
            near = {(at[0] + dr, at[1] + dc) for dr, dc in STEP.values()} & left
            left -= near
            todo.extend(near)
        out.append(group)
    return out


def off_city(built: Sequence[Pos], new: Sequence[Pos]) -> Pos | None:
    """Building: "dice lie side by side". **[interpretation]** The dice built in a turn are one group: each
    new die joins, through dice side by side, the city built before it (none built yet: the first new die).
    The first of the `new` dice that does not, or None."""
    if not new:
        return None
    anchor = (built or new)[0]
    city = next(g for g in groups([*built, *new]) if anchor in g)
    return next((at for at in new if at not in city), None)


@dataclass(frozen=True, slots=True)
class Apart:
    """The dice of a layout joined side by side to the die at `at` (its top-left one), `size` of them,
    lie apart from its `others` dice: a break of the building rule as `off_city` reads it."""

    at: Pos
    size: int
    others: int

    @property
    def text(self) -> str:
        who = "it touches" if self.size == 1 else f"its group of {self.size} dice touches"
        rest = "the other die" if self.others == 1 else f"the other {self.others} dice"
        return f"{place(self.at)}: {who} none of {rest} (dice lie side by side, in one group)"


def apart(cells: Iterable[Pos]) -> tuple[Apart, ...]:
    """Each group of dice apart from the largest (ties: the one with the top-left-most die), top-left first.
    Knights are no part of the city: `cells` are the city dice's."""
    found = sorted(groups(cells), key=lambda g: (-len(g), min(g)))
    total = sum(len(g) for g in found)
    return tuple(sorted((Apart(min(g), len(g), total - len(g)) for g in found[1:]), key=lambda a: a.at))


@dataclass(frozen=True, slots=True)
class OpenEdge:
    """A black edge of the die at `at` that faces no city die."""

    at: Pos
    edge: int

    @property
    def text(self) -> str:
        return f"{place(self.at)}: the {NAME[self.edge]} edge is open"


@dataclass(frozen=True, slots=True)
class RuleBreak:
    """The black `edge` of the die at `at` touches a white edge of its neighbour."""

    at: Pos
    edge: int

    @property
    def neighbour(self) -> Pos:
        dr, dc = STEP[self.edge]
        return (self.at[0] + dr, self.at[1] + dc)

    @property
    def text(self) -> str:
        return (
            f"{place(self.at)}: its black {NAME[self.edge]} edge touches the white "
            f"{NAME[OPPOSITE[self.edge]]} edge of the {place(self.neighbour)}"
        )


@dataclass(frozen=True, slots=True)
class City:
    """One city: its dice (each once, even where two of its areas belong to it) and what keeps it open."""

    dice: tuple[Pos, ...]
    open_edges: tuple[OpenEdge, ...]
    rule_breaks: tuple[RuleBreak, ...]

    @property
    def size(self) -> int:
        return len(self.dice)

    @property
    def completed(self) -> bool:
        return not self.open_edges and not self.rule_breaks


@dataclass(frozen=True, slots=True)
class Survey:
    """Every city of a layout, largest first (ties: the one with the top-left-most die first), and the dice
    lying apart from the rest."""

    cities: tuple[City, ...]
    apart: tuple[Apart, ...]

    @property
    def rule_breaks(self) -> tuple[RuleBreak, ...]:
        return tuple(b for c in self.cities for b in c.rule_breaks)

    @property
    def largest_completed(self) -> City | None:
        """Scoring: only the largest completed city counts."""
        return next((c for c in self.cities if c.completed), None)


class Cities:
    """The cities of a growing layout: dice are added one at a time, as the player builds them, and the
    largest completed city is known at any moment without surveying the layout again.

    Black areas are joined with union-find; each city counts its black edges that no black edge closes yet:
    a new die's black edge against a black edge closes both, so a city with none left is completed.
    """

    __slots__ = ("_dice", "_masks", "_nodes_at", "_parent", "_unclosed", "layout")

    def __init__(self, layout: Mapping[Pos, Areas] | None = None) -> None:
        self.layout: dict[Pos, Areas] = {}
        self._masks: list[int] = []
        self._nodes_at: dict[Pos, list[int]] = {}
        self._parent: list[int] = []
        self._unclosed: list[int] = []
        self._dice: list[set[Pos]] = []
        for at, areas in (layout or {}).items():
            self.add(at, areas)

    def _root(self, node: int) -> int:
        parent = self._parent
        while parent[node] != node:
            parent[node] = parent[parent[node]]
            node = parent[node]
        return node

    def _joined(self, at: Pos, edge: int) -> int | None:
        """The area of the die across `edge` from `at` whose black edge meets it, if any."""
        dr, dc = STEP[edge]
        facing = self._nodes_at.get((at[0] + dr, at[1] + dc))
        if facing:
            opposite, masks = OPPOSITE[edge], self._masks
            for node in facing:
                if masks[node] & opposite:
                    return node
        return None

    def add(self, at: Pos, areas: Areas) -> None:
        """Build a city die at the empty cell `at`; a black edge against white is kept as a rule break."""
        masks, nodes = self._masks, []
        for mask in areas:
            node = len(masks)
            nodes.append(node)
            masks.append(mask)
            self._parent.append(node)
            self._unclosed.append(mask.bit_count())
            self._dice.append({at})
        self._nodes_at[at] = nodes
        self.layout[at] = areas
        joined = self._joined
        for node in nodes:
            for edge in EDGES_OF[masks[node]]:
                other = joined(at, edge)
                if other is not None:
                    self._join(node, other)

    def _join(self, node: int, other: int) -> None:
        a, b = self._root(node), self._root(other)
        if a != b:
            self._parent[a] = b
            self._unclosed[b] += self._unclosed[a]
            self._dice[b] |= self._dice[a]
        self._unclosed[b] -= 2

    def largest_completed_size(self) -> int:
        """Dice in the largest completed city (0 when none is completed)."""
        best = 0
        for node in range(len(self._masks)):
            if self._parent[node] == node and not self._unclosed[node]:
                best = max(best, len(self._dice[node]))
        return best

    def survey(self) -> Survey:
        """Every city, with each black edge that keeps it open: open to an empty cell, or a rule break."""
        open_edges: dict[int, list[OpenEdge]] = {}
        breaks: dict[int, list[RuleBreak]] = {}
        for at, nodes in self._nodes_at.items():
            for node in nodes:
                for edge in EDGES_OF[self._masks[node]]:
                    if self._joined(at, edge) is not None:
                        continue
                    dr, dc = STEP[edge]
                    if (at[0] + dr, at[1] + dc) in self._nodes_at:
                        breaks.setdefault(self._root(node), []).append(RuleBreak(at, edge))
                    else:
                        open_edges.setdefault(self._root(node), []).append(OpenEdge(at, edge))
        cities = [
            City(tuple(sorted(self._dice[r])), tuple(open_edges.get(r, ())), tuple(breaks.get(r, ())))
            for r in range(len(self._masks))
            if self._parent[r] == r
        ]
        cities.sort(key=lambda c: (-c.size, c.dice))
        return Survey(tuple(cities), apart(self.layout))


def survey(layout: Mapping[Pos, Areas]) -> Survey:
    """The cities of a layout of city dice (cell -> black areas)."""
    return Cities(layout).survey()
