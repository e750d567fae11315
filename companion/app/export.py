"""The final scoring breakdown written out: Markdown for people, JSON (the engine's `to_json`) for tools."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from companion.games import alhambra_rw as rw

TERMS = (
    "VP 1/2/3: what the most, second and third most buildings of a type are worth (struck out: a place"
    " taken during the game) · ◇ imaginary player · rows/cols: a row or column with 4, 5 or 6 crossed cells"
    " gives 2, 5 or 10 VP · coins: 1 VP per 2 coins left · [P] a crossed cell"
)
"""What the final scoring's short terms mean, shown beside it and written into the Markdown."""


def grid_markdown(state: rw.GameState, player: rw.PlayerState) -> list[str]:
    """A player's grid as a fenced block: the building letter of each cell, crossed cells in brackets."""
    crossed = set(player.crossed_cells())
    rows = ["     " + "".join(f" b{b} " for b in range(1, 7))]
    for y in range(1, 7):
        cells = (
            f"[{letter}]" if (y, b) in crossed else f" {letter} "
            for b, letter in enumerate(state.sheet.grid[y - 1], start=1)
        )
        rows.append(f"y{y}   " + " ".join(cells))
    return [f"### {player.name}'s grid", "", "```text", *rows, "```", ""]


def scoreboard_markdown(board: rw.Scoreboard, title: str, state: rw.GameState | None = None) -> str:
    """A table of the numbers, the winners, the reason for every number, and every real player's grid."""
    headers = ["player", *rw.BUILDING_TYPES, "rows/columns", "coins", "extra", "total"]
    lines = [
        f"# {title}",
        "",
        f"Sheet `{board.sheet}`, variant {board.variant}.",
        "",
        "| " + " | ".join(headers) + " |",
        "|" + "|".join(["---"] + ["---:"] * (len(headers) - 1)) + "|",
    ]
    for p in board.players:
        name = f"{p.name} (imaginary)" if p.imaginary else p.name
        numbers = [*(b.vp for b in p.buildings), p.rows_columns, p.coins, p.extra, p.total]
        lines.append("| " + " | ".join([name, *map(str, numbers)]) + " |")
    winners = ", ".join(board.winners)
    lines += [
        "",
        f"**{'Winners' if len(board.winners) > 1 else 'Winner'}: {winners}**",
        "",
        TERMS,
        "",
        "## Why",
    ]
    for p in board.players:
        lines += ["", f"### {p.name}{' (imaginary)' if p.imaginary else ''}: {p.total} VP", ""]
        lines += [f"- {b.building}: {b.vp} VP: {b.why}" for b in p.buildings]
        lines.append(f"- rows and columns: {p.rows_columns} VP: {p.rows_columns_why}")
        lines.append(f"- coins: {p.coins} VP: {p.coins_why}")
        if p.extra_why:
            lines.append(f"- extra: {p.extra} VP: {p.extra_why}")
    if state is not None:
        lines += ["", "## Grids", ""]
        for player in state.players:
            if not player.imaginary:
                lines += grid_markdown(state, player)
    return "\n".join(lines).rstrip() + "\n"


def export_scoreboard(
    board: rw.Scoreboard, log_path: Path, kind: str, state: rw.GameState | None = None
) -> Path:
    """Write `GAME.score.md` or `GAME.score.json` next to the game's log; returns the file written."""
    stem = log_path.name.removesuffix(log_path.suffix)
    if kind == "md":
        path = log_path.with_name(f"{stem}.score.md")
        path.write_text(scoreboard_markdown(board, f"Alhambra Roll & Write: {stem}", state), encoding="utf-8")
    else:
        path = log_path.with_name(f"{stem}.score.json")
        path.write_text(json.dumps(board.to_json(), indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


def export_json(log_path: Path, scored: dict[str, Any]) -> Path:
    """Write a scoring's JSON (`companion score --json`'s) as `GAME.score.json` next to the game's log."""
    path = log_path.with_suffix(".score.json")
    path.write_text(json.dumps(scored, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return path
