"""The Alhambra dice game's board as text: per building type its dice range (lines 8 to 1, fields for 1, 2
and 3 rolls) with every marker, the bonus tile on offer, and the building-point track with its stacks; in the
Alcazaba variant the building tiles on each column and every player's Alhambra instead of tiles and track."""

from __future__ import annotations

from textual.widgets import Static

from companion.games import alhambra_dice as ad
from companion.games.alhambra.buildings import TYPES
from companion.games.alhambra_dice.events import Cell

LINES = 8
FIELDS = 3
TRACK = 12
TILE_NAMES = {"vp": "VP", "exchange": "exchange", "displace": "displace", "cancel": "cancel",
              "black_die": "black die", "start_player": "start"}  # fmt: skip
EMPTY = "·"
WIDTH = 10
"""Characters per column of the dice ranges."""


def marks(names: tuple[str, ...]) -> tuple[str, ...]:
    """One character per player for the board: the initial, or the player's number where initials clash."""
    initials = tuple(name[:1].upper() or "?" for name in names)
    return initials if len(set(initials)) == len(initials) else tuple(str(n + 1) for n in range(len(names)))


def board_text(state: ad.GameState) -> str:
    """The dice ranges side by side (a column per type), then the building-point track (a row per type)."""
    mark = marks(state.names)
    offer = [TILE_NAMES.get(tile, tile) if tile else "" for tile in state.offer]
    rows = _ranges(state, "bonus " + "".join(f"{tile:<{WIDTH}}" for tile in offer))
    rows.append("")
    rows.append("points    " + "".join(f"{n:<4}" for n in range(1, TRACK + 1)))
    for t, track in zip(TYPES, state.stacks, strict=True):
        stacks = ("".join(mark[who] for who in stack) or EMPTY for stack in track[1:])
        rows.append(f"{t:<10}" + "".join(f"{stack:<4}" for stack in stacks))
    rows.append("")
    rows.append("   ".join(f"{m} {name}" for m, name in zip(mark, state.names, strict=True)))
    return "\n".join(row.rstrip() for row in rows)


def tile_text(tile: ad.BuildingTile) -> str:
    """A building tile as typed: its type's first letter and its walled sides (`g/NES`)."""
    return tile.building[0] + (f"/{tile.walls}" if tile.walls else "")


def alcazaba_text(state: ad.GameState) -> str:
    """Alcazaba: the dice ranges, under each column its building tiles by number (top to bottom as laid,
    the lowest last) and the start-player tile, then each player's Alhambra as a grid (F the fountain) and
    reserve."""
    view = state.alcazaba
    assert view is not None
    mark = marks(state.names)
    start = "start " + "".join(f"{'start' if view.start_tile == t else '':<{WIDTH}}" for t in TYPES)
    rows = _ranges(state, start)
    columns = [
        [f"{i} {tile_text(x)}" for i, x in enumerate(view.laid) if x and x.building == t] for t in TYPES
    ]
    for k in range(max(map(len, columns), default=0)):
        rows.append("tiles " + "".join(f"{(c[k] if k < len(c) else ''):<{WIDTH}}" for c in columns))
    for who, (built, reserve) in enumerate(zip(view.alhambras, view.reserves, strict=True)):
        kept = ", ".join(f"{n} {tile_text(x)}" for n, x in enumerate(reserve)) or "none"
        rows += ["", f"{mark[who]} {state.names[who]}'s Alhambra (reserve: {kept})", *_grid(dict(built))]
    if state.dirk is not None:
        rows += [
            "",
            f"{mark[state.dirk]} {state.names[state.dirk]}: "
            + ", ".join(f"{n} {t}" for t, n in zip(TYPES, view.dirk, strict=True) if n),
        ]
    return "\n".join(row.rstrip() for row in rows)


def _grid(built: dict[Cell, ad.BuildingTile]) -> list[str]:
    cells = [(0, 0), *built]
    rows, cols = [r for r, _ in cells], [c for _, c in cells]
    lines = ["  row " + "".join(f"{c:<7}" for c in range(min(cols), max(cols) + 1))]
    for r in range(min(rows), max(rows) + 1):
        shown = ("F" if (r, c) == (0, 0) else tile_text(built[r, c]) if (r, c) in built else EMPTY
                 for c in range(min(cols), max(cols) + 1))  # fmt: skip
        lines.append(f"  {r:>3} " + "".join(f"{x:<7}" for x in shown))
    return lines


def _ranges(state: ad.GameState, second: str) -> list[str]:
    """The heading, `second` (what lies on the bonus fields), and the dice ranges with every marker."""
    mark = marks(state.names)
    width = WIDTH
    rows = ["line  " + "".join(f"{t:<{width}}" for t in TYPES), second]
    for line in range(LINES, 0, -1):
        cells = []
        for column in state.board:
            first = (LINES - line) * FIELDS
            fields = column[first : first + FIELDS]
            cells.append(" ".join(EMPTY if who is None else mark[who] for who in fields))
        rows.append(f"  {line}   " + "".join(f"{cell:<{width}}" for cell in cells))
    if state.out:
        rows.append("out:  " + ", ".join(f"{mark[state.names.index(who)]} ({t})" for t, who in state.out))
    return rows


class AlhambraBoard(Static):
    """Shows the board of a game state; `show` redraws it after every event."""

    def show(self, state: ad.GameState) -> None:
        self.update(alcazaba_text(state) if state.alcazaba is not None else board_text(state))
