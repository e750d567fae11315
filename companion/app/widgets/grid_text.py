"""The 6×6 building grid as text: rows are the yellow die, columns the blue die (as on the player sheet)."""

from __future__ import annotations

from collections.abc import Collection

from rich.text import Text

from .dice_colours import BLUE, YELLOW

Cell = tuple[int, int]
"""(yellow, blue), both 1–6."""

STYLE_CROSSED = "bold reverse"
STYLE_HIT = f"bold black on {YELLOW}"
STYLE_CURSOR = "bold black on cyan"


def grid_text(
    letters: tuple[str, ...],
    crossed: Collection[Cell] = (),
    hits: Collection[Cell] = (),
    cursor: Cell | None = None,
) -> Text:
    """`letters[y-1][b-1]` is the building letter of a cell ('·' for not entered yet).

    Crossed cells read `[P]` and the dice's crossings `(P)` (so a plain-text capture shows them too);
    colours add to that on screen.
    """
    text = Text(no_wrap=True)
    text.append("   " + "".join(f" b{b} " for b in range(1, 7)).rstrip() + "\n", style=f"bold {BLUE}")
    for y in range(1, 7):
        text.append(f"y{y} ", style=f"bold {YELLOW}")
        for b in range(1, 7):
            letter = letters[y - 1][b - 1] if b - 1 < len(letters[y - 1]) else "·"
            cell = (y, b)
            is_crossed, is_hit = cell in crossed, cell in hits
            left, right = ("[", "]") if is_crossed else ("(", ")") if is_hit else (" ", " ")
            style = (
                STYLE_CURSOR
                if cell == cursor
                else STYLE_HIT
                if is_hit
                else STYLE_CROSSED
                if is_crossed
                else ""
            )
            text.append(" ")
            text.append(f"{left}{letter}{right}", style=style)
        if y < 6:
            text.append("\n")
    return text


def grid_title(name: str) -> Text:
    """A player's grid's border title, as text: a title string is read as markup, and a player named `[b]Ann`
    had a bold grid, one named `Ann[/]` crashed the app."""
    return Text(f"{name}'s grid")
