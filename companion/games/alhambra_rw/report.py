"""The scoring breakdown as a readable text table, with the reason for every number below it."""

from __future__ import annotations

from ..cells import cells, padded
from ..words import standing
from .scoring import Scoreboard
from .sheet import BUILDING_TYPES


def scoreboard_text(board: Scoreboard) -> str:
    """A plain-text table: one row per player, one column per score part, then every reason."""
    headers = ["player", *BUILDING_TYPES, "rows/cols", "coins", "extra", "total"]
    rows = []
    for p in board.players:
        label = f"{p.name} (imaginary)" if p.imaginary else p.name
        numbers = [*(b.vp for b in p.buildings), p.rows_columns, p.coins, p.extra, p.total]
        rows.append([label, *map(str, numbers)])
    # In cells on screen: a name of wide letters (李雷) pushed its row's numbers right.
    widths = [max(cells(r[i]) for r in [headers, *rows]) for i in range(len(headers))]

    def line(row: list[str]) -> str:
        first = padded(row[0], widths[0])
        return "  ".join([first, *(c.rjust(w) for c, w in zip(row[1:], widths[1:], strict=True))])

    out = [
        f"Alhambra Roll & Write: final scoring (sheet {board.sheet!r}, variant {board.variant})",
        "",
        line(headers),
        line(["-" * w for w in widths]),
        *(line(r) for r in rows),
        "",
        # A scoring so far names none (`score_so_far`): the game is not over.
        standing(board.winners, over=True) or "no winner yet",
        "",
        "Why:",
    ]
    for p in board.players:
        out.append(f"  {p.name}{' (imaginary)' if p.imaginary else ''}")
        for b in p.buildings:
            out.append(f"    {b.building:<9} {b.vp:>3} VP  {b.why}")
        out.append(f"    {'rows/cols':<9} {p.rows_columns:>3} VP  {p.rows_columns_why}")
        out.append(f"    {'coins':<9} {p.coins:>3} VP  {p.coins_why}")
        if p.extra_why:
            out.append(f"    {'extra':<9} {p.extra:>3} VP  {p.extra_why}")
    return "\n".join(out)
