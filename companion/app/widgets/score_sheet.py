"""The shared score sheet: a row per player with a box per building of each type, and the VP table; on the
game's screen each player's total so far too (the table's view shows it in a panel of its own)."""

from __future__ import annotations

from rich.cells import cell_len
from rich.text import Text

from companion.games import alhambra_rw as rw

from .fitted import UNBOUNDED, Fitted, fitted_name

NAME_WIDTH = 11
"""The name column at the least; it takes the longest name, up to a quarter of the width."""
MIN_COLUMN = 8
IMAGINARY_MARK = "◇"
COINS = 5
"""Characters of the coins column."""
TOTAL = 7
"""Characters of the total column, the space before it included."""


def score_sheet_text(state: rw.GameState, width: int = UNBOUNDED, totals: bool = False) -> Text:
    """Boxes filled ■ / empty □ per type; VP of places already awarded during the game in brackets and
    struck through; with `totals`, each player's VP as if the game ended now (the final ones once it has).
    As many types side by side as `width` holds, the others (and the coins and totals) in a block below."""
    sheet = state.sheet
    places = [_places(vp, taken) for vp, taken in zip(sheet.vp, state.places_taken, strict=True)]
    widths = [max(boxes, MIN_COLUMN, vp.cell_len) + 1 for boxes, vp in zip(sheet.boxes, places, strict=True)]
    longest = max(cell_len(_name(player)) for player in state.players) + 2  # the turn's ▶ and a space
    name_width = max(NAME_WIDTH, min(longest, width // 4))
    text = Text(no_wrap=True)
    tail = COINS + (TOTAL if totals else 0)
    blocks: list[list[int]] = [[]]
    for t, column in enumerate(widths):
        used = name_width + sum(widths[k] for k in blocks[-1]) + column
        if blocks[-1] and used + (tail if t == len(widths) - 1 else 0) > width:
            blocks.append([])
        blocks[-1].append(t)
    board = rw.score_so_far(state) if totals else None
    for b, block in enumerate(blocks):
        last = b == len(blocks) - 1
        if b:
            text.append("\n\n")
        _block(text, state, block, widths, places, name_width, coins=last, board=board if last else None)
    return text


def _places(vp: tuple[int, ...], taken: int) -> Text:
    """A type's VP of places 1, 2 and 3, the first `taken` of them in brackets, as a crossed cell of the grid:
    a terminal without strikethrough, or a plain-text capture, showed them open. One pair for them all: a
    pair each widened the sheet past 80 columns."""
    still_open = Text(" ".join(str(points) for points in vp[taken:]))
    if not taken:
        return still_open
    shut = Text(f"[{' '.join(str(points) for points in vp[:taken])}]", style="dim strike")
    return Text(" ").join([shut, still_open]) if still_open else shut


def _name(player: rw.PlayerState) -> str:
    return f"{player.name} {IMAGINARY_MARK}" if player.imaginary else player.name


def _block(
    text: Text,
    state: rw.GameState,
    types: list[int],
    widths: list[int],
    places: list[Text],
    name_width: int,
    coins: bool,
    board: rw.Scoreboard | None,
) -> None:
    """The sheet's columns of `types`, each `widths` wide after the names' `name_width` and headed by its
    `places`, the coins column if `coins`, and each player's total on `board` if given."""
    sheet = state.sheet
    text.append(f"{'player':<{name_width}}", style="bold")
    for t in types:
        text.append(f"{rw.BUILDING_TYPES[t]:<{widths[t]}}", style="bold")
    text.append("coins" if coins else "", style="bold")
    if board is not None:
        text.append(f"{'total':>{TOTAL}}", style="bold")
    text.append(f"\n{'VP 1/2/3':<{name_width}}", style="dim")
    for t in types:
        text.append_text(places[t])
        text.append(" " * (widths[t] - places[t].cell_len))
    if board is not None:  # the total of a game not over is what it would be worth ended now
        text.append(f"{'':<{COINS}}{'final' if state.is_over else 'so far':>{TOTAL}}", style="dim")
    active = state.active_player.name if not state.is_over else None
    totals = {} if board is None else {score.name: score.total for score in board.players}
    for player in state.players:
        text.append("\n")
        marker = "▶" if player.name == active else " "
        shown = f"{fitted_name(_name(player), name_width - 2)} "
        text.append(f"{marker}{shown}", style="bold" if marker != " " else "")
        for t in types:
            filled, boxes = player.counts[t], sheet.boxes[t]
            style = "bold green" if player.has_completed(rw.BUILDING_TYPES[t]) else ""
            text.append("■" * filled, style=style)
            text.append("□" * (boxes - filled), style="dim")
            text.append(" " * (widths[t] - boxes))
        coined = "-" if player.imaginary else str(player.coins)
        if coins:
            text.append(coined)
        if board is not None:
            text.append(
                f"{' ' * (COINS - len(coined)) if coins else ''}{totals[player.name]:>{TOTAL}}", style="bold"
            )


class ScoreSheet(Fitted[rw.GameState]):
    """Shows `score_sheet_text` of the game now, drawn for the width it has (with the players' totals: the
    game's screen, where the players look for who is ahead)."""

    def __init__(self, totals: bool = False, id: str | None = None) -> None:
        super().__init__(id=id)
        self.totals = totals

    def draw(self, state: rw.GameState, width: int) -> Text:
        return score_sheet_text(state, width, self.totals)
