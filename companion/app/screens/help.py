"""The help screen: every key of every screen, read from the screens' own bindings."""

from __future__ import annotations

from typing import ClassVar

from rich.table import Table
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from ..widgets.grid_editor import GridEditor
from .alhambra_dice import AlhambraDiceScreen
from .carcassonne_dice import CarcassonneDiceScreen
from .roll_and_write import RollAndWriteScreen
from .roll_and_write_end import RollAndWriteEndScreen
from .sheet_editor import SheetEditorScreen
from .start import StartScreen

LISTED_ELSEWHERE = {"up", "down", "left", "right", "ctrl+q"}
"""Keys the table lists once in their own words (arrows, quit) rather than per binding."""
KEY_NAMES = {"question_mark": "?", "plus": "+", "minus": "-", "escape": "esc"}

TYPING = (
    ("y3 b5 Enter", "game: type the dice the game asks for (y yellow, b blue, then the value), then Enter"),
    ("1-4", "game: choose a crossing to cross, or the pair to keep"),
    ("y3+  y3-", "game: change pips: turn yellow 3 up or down one pip for a coin (repeat + for more)"),
    ("click", "game: clicking a die value, a crossing or a choice does the same as its key"),
)

ALHAMBRA_DICE_TYPING = (
    ("0 3 1 2 1 1", "a roll: how many of the 8 dice show each type, pavilion … tower (set-aside dice too)"),
    ("ssaacggt", "the same roll by the symbols' first letters: p s a c g t"),
    ("place garden", "place the turn's marker (add `displace` to use a displace tile)"),
    ("cancel  black tower", "use a cancel tile; set the black die to a type"),
    ("points  tile 2", "a column's prize: 2 building points, or 1 and its tile (a VP tile's value, or"
     " the next start player's name; add `exchange TYPE` to use an exchange tile)"),
    ("draw", "a round's start: lay the bonus tiles at random (or `tiles vp cancel start …` as laid)"),
)  # fmt: skip

CARCASSONNE_DICE_TYPING = (
    ("5 3 1", "a roll: how many dice show a city, a knight, a catapult"),
    ("keep 2", "set 2 knights of the last roll aside"),
    ("build 4,4:NS", "build city dice, each ROW,COL:AREAS: its black areas by the edges they touch (N E S"
     " W as the die lies), / between two areas of one die (`build 4,4:NS 5,4:N/S`)"),
    ("stop  hold", "end the turn and score it; or hold a knight (3+ kept): no points now, next turn double"),
)  # fmt: skip


def _key_text(key: str) -> str:
    return ", ".join(KEY_NAMES.get(k, k) for k in key.split(","))


def _bindings(owner: type) -> list[Binding]:
    """A screen's keys with what they do; a key's second, nameless binding (its meaning where the first
    cannot run, such as ctrl+r without a camera) is the same key."""
    found: list[BindingType] = getattr(owner, "BINDINGS", [])
    return [b for b in found if isinstance(b, Binding) and b.description]


def keys_table() -> Table:
    table = Table(box=None, padding=(0, 2), show_header=False)
    table.add_column(style="bold cyan", no_wrap=True)
    table.add_column()
    sections: tuple[tuple[str, list[type]], ...] = (
        ("Everywhere", []),
        ("Start screen", [StartScreen]),
        ("Sheet editor", [SheetEditorScreen, GridEditor]),
        ("Game screen", [RollAndWriteScreen]),
        ("End screen", [RollAndWriteEndScreen]),
        ("Alhambra dice game", [AlhambraDiceScreen]),
        ("Carcassonne dice", [CarcassonneDiceScreen]),
    )
    for title, owners in sections:
        table.add_row(f"[u]{title}[/u]", "")
        if not owners:
            table.add_row("F1", "this help (? on the game and end screens)")
            table.add_row(
                "ctrl+q", "quit: the game is saved after every move, continue it from the start screen"
            )
            table.add_row("tab", "next field or button")
            table.add_row(
                "F6", "share the table's view: every phone on this network opens the address or QR code"
            )
        for owner in owners:
            for binding in _bindings(owner):
                if binding.key in LISTED_ELSEWHERE or (binding.key.isdigit() and binding.key != "1"):
                    continue
                key = "1-6" if binding.key == "1" else _key_text(binding.key)
                description = (
                    "after y/b: die value; else choose" if binding.key == "1" else binding.description
                )
                table.add_row(key, description)
        if title == "Sheet editor":
            table.add_row("P S A C G T", "set the cell under the cursor and move on")
            table.add_row("arrows", "move the cursor")
        if title == "Game screen":
            for key, description in TYPING:
                table.add_row(key, description)
        if title == "Alhambra dice game":
            for key, description in ALHAMBRA_DICE_TYPING:
                table.add_row(key, description)
        if title == "Carcassonne dice":
            for key, description in CARCASSONNE_DICE_TYPING:
                table.add_row(key, description)
    return table


TERMS = (
    ("■ □", "score sheet: a building of that type crossed / still to cross (bold green: the type completed)"),
    (
        "VP 1/2/3",
        "what the most, second and third most buildings of a type are worth; struck out: a place"
        " already taken during the game by the first to complete the type",
    ),
    (
        "◇",
        "an imaginary player (solo and 2-player games): the app rolls for it; it has no grid, takes places"
        " in the rankings, and its VP are not written down unless you play against it",
    ),
    ("[P]  (P)", "grid: a crossed cell / a cell the dice on the fields cross now"),
    ("free ×2", "a crossing hit by two pairs of the dice: crossing it still crosses one cell"),
    (
        "take coins (+N)",
        "one coin per crossing whose cell is already crossed (a crossed cell hit), up to the coin supply",
    ),
    (
        "standard / against",
        "solo variants: standard (the imaginary players only take places) or against"
        " them (they score building VP and an extra at the end, and you try to beat them)",
    ),
    ("rows/cols", "final scoring: a row or column with 4, 5 or 6 crossed cells gives 2, 5 or 10 VP"),
    ("coins", "final scoring: 1 VP per 2 coins left"),
    (
        "extra",
        "playing against imaginary players: their extra VP at the end, as they score no rows, columns"
        " or coins (+21 each with 2 of them, +18 with 3, +15 with 4)",
    ),
)
"""What the screens' short terms mean, listed under the keys."""


def terms_table() -> Table:
    table = Table(box=None, padding=(0, 2), show_header=False)
    table.add_column(style="bold cyan", no_wrap=True)
    table.add_column()
    for term, meaning in TERMS:
        table.add_row(term, meaning)
    return table


class HelpScreen(ModalScreen[None]):
    CSS_PATH = "help.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,question_mark,f1", "dismiss", "close help"),
    ]

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help"):
            yield Static("Keys (esc closes)", id="help-title")
            yield Static(keys_table())
            yield Static("What the screens show", id="terms-title")
            yield Static(terms_table())
