"""The shared score sheet: a row per player with a box per building of each type, and the VP table."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from companion.games import alhambra_rw as rw

NAME_WIDTH = 11
MIN_COLUMN = 8
IMAGINARY_MARK = "◇"


def score_sheet_text(state: rw.GameState) -> Text:
    """Boxes filled ■ / empty □ per type; VP of places already awarded during the game struck through."""
    sheet = state.sheet
    widths = [max(boxes, MIN_COLUMN) + 1 for boxes in sheet.boxes]
    text = Text(no_wrap=True)
    text.append(f"{'player':<{NAME_WIDTH}}", style="bold")
    for building, width in zip(rw.BUILDING_TYPES, widths, strict=True):
        text.append(f"{building:<{width}}", style="bold")
    text.append("coins\n", style="bold")
    text.append(f"{'VP 1/2/3':<{NAME_WIDTH}}", style="dim")
    for t, width in enumerate(widths):
        used = 0
        for place, vp in enumerate(sheet.vp[t]):
            if place:
                text.append(" ")
                used += 1
            struck = place < state.places_taken[t]
            text.append(str(vp), style="dim strike" if struck else "")
            used += len(str(vp))
        text.append(" " * max(1, width - used))
    active = state.active_player.name if not state.is_over else None
    for player in state.players:
        text.append("\n")
        marker = "▶" if player.name == active else " "
        name = f"{player.name} {IMAGINARY_MARK}" if player.imaginary else player.name
        text.append(
            f"{marker}{name[: NAME_WIDTH - 2]:<{NAME_WIDTH - 1}}", style="bold" if marker != " " else ""
        )
        for t, width in enumerate(widths):
            filled, boxes = player.counts[t], sheet.boxes[t]
            style = "bold green" if player.has_completed(rw.BUILDING_TYPES[t]) else ""
            text.append("■" * filled, style=style)
            text.append("□" * (boxes - filled), style="dim")
            text.append(" " * (width - boxes))
        text.append("-" if player.imaginary else str(player.coins))
    return text


class ScoreSheet(Static):
    """Shows `score_sheet_text` of the game now."""

    def show(self, state: rw.GameState) -> None:
        self.update(score_sheet_text(state))
