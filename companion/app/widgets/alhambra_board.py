"""The Alhambra dice game's board as text: per building type its dice range (lines 8 to 1, fields for 1, 2
and 3 rolls) with every marker, the bonus tile on offer, and the building-point track with its stacks."""

from __future__ import annotations

from textual.widgets import Static

from companion.games import alhambra_dice as ad
from companion.games.alhambra.buildings import TYPES

LINES = 8
FIELDS = 3
TRACK = 12
TILE_NAMES = {"vp": "VP", "exchange": "exchange", "displace": "displace", "cancel": "cancel",
              "black_die": "black die", "start_player": "start"}  # fmt: skip
EMPTY = "·"


def marks(names: tuple[str, ...]) -> tuple[str, ...]:
    """One character per player for the board: the initial, or the player's number where initials clash."""
    initials = tuple(name[:1].upper() or "?" for name in names)
    return initials if len(set(initials)) == len(initials) else tuple(str(n + 1) for n in range(len(names)))


def board_text(state: ad.GameState) -> str:
    """The dice ranges side by side (a column per type), then the building-point track (a row per type)."""
    mark = marks(state.names)
    width = 10
    rows = ["line  " + "".join(f"{t:<{width}}" for t in TYPES)]
    offer = [TILE_NAMES.get(tile, tile) if tile else "" for tile in state.offer]
    rows.append("bonus " + "".join(f"{tile:<{width}}" for tile in offer))
    for line in range(LINES, 0, -1):
        cells = []
        for column in state.board:
            first = (LINES - line) * FIELDS
            fields = column[first : first + FIELDS]
            cells.append(" ".join(EMPTY if who is None else mark[who] for who in fields))
        rows.append(f"  {line}   " + "".join(f"{cell:<{width}}" for cell in cells))
    if state.out:
        rows.append("out:  " + ", ".join(f"{mark[state.names.index(who)]} ({t})" for t, who in state.out))
    rows.append("")
    rows.append("points    " + "".join(f"{n:<4}" for n in range(1, TRACK + 1)))
    for t, track in zip(TYPES, state.stacks, strict=True):
        stacks = ("".join(mark[who] for who in stack) or EMPTY for stack in track[1:])
        rows.append(f"{t:<10}" + "".join(f"{stack:<4}" for stack in stacks))
    rows.append("")
    rows.append("   ".join(f"{m} {name}" for m, name in zip(mark, state.names, strict=True)))
    return "\n".join(row.rstrip() for row in rows)


class AlhambraBoard(Static):
    """Shows the board of a game state; `show` redraws it after every event."""

    def show(self, state: ad.GameState) -> None:
        self.update(board_text(state))
