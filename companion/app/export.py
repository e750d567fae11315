"""The final scoring breakdown written out: Markdown for people, JSON (the engine's `to_json`) for tools."""

from __future__ import annotations

import json
from pathlib import Path

from companion.games import alhambra_rw as rw


def scoreboard_markdown(board: rw.Scoreboard, title: str) -> str:
    """A table of the numbers, the winners, then the reason for every number."""
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
    lines += ["", f"**{'Winners' if len(board.winners) > 1 else 'Winner'}: {winners}**", "", "## Why"]
    for p in board.players:
        lines += ["", f"### {p.name}{' (imaginary)' if p.imaginary else ''}: {p.total} VP", ""]
        lines += [f"- {b.building}: {b.vp} VP: {b.why}" for b in p.buildings]
        lines.append(f"- rows and columns: {p.rows_columns} VP: {p.rows_columns_why}")
        lines.append(f"- coins: {p.coins} VP: {p.coins_why}")
        if p.extra_why:
            lines.append(f"- extra: {p.extra} VP: {p.extra_why}")
    return "\n".join(lines) + "\n"


def export_scoreboard(board: rw.Scoreboard, log_path: Path, kind: str) -> Path:
    """Write `GAME.score.md` or `GAME.score.json` next to the game's log; returns the file written."""
    stem = log_path.name.removesuffix(log_path.suffix)
    if kind == "md":
        path = log_path.with_name(f"{stem}.score.md")
        path.write_text(scoreboard_markdown(board, f"Alhambra Roll & Write: {stem}"), encoding="utf-8")
    else:
        path = log_path.with_name(f"{stem}.score.json")
        path.write_text(json.dumps(board.to_json(), indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return path
