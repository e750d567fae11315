"""The help screen (F1): the keys of the screen on top, read from its own bindings, what to type there, and
what its marks mean. Each screen names its page (`HELP_PAGE`); a screen without one gets the keys alone."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from rich.markup import escape
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Static

from companion.games.alhambra_dice.entry import ENTRY as ALHAMBRA_DICE_ENTRY
from companion.games.carcassonne_dice.entry import ENTRY as CARCASSONNE_DICE_ENTRY

from ..keys import QUIT_OVER_MODAL, key_name
from ..widgets.footer import KeysFooter
from ..widgets.grid_editor import GridEditor
from ..widgets.key_rows import KeyRows

Rows = Sequence[tuple[str, str]]


@dataclass(frozen=True)
class HelpPage:
    """A screen's help: its title, widgets whose keys it answers too, what is typed, and its glossary."""

    title: str
    owners: tuple[type, ...] = ()
    typing: Rows = ()
    terms: Rows = ()


LISTED_ELSEWHERE = {"ctrl+q", "f1"}
"""Keys the page lists once, under Everywhere."""
KEY_NAMES = {
    "question_mark": "?",
    "plus": "+",
    "minus": "-",
    "escape": "esc",
    "pageup": "pgup",
    "pagedown": "pgdn",
}

ROLL_AND_WRITE_TYPING: Rows = (
    ("y3 b5 Enter", "type the dice the game asks for (y yellow, b blue, then the value), then Enter"),
    ("1-4", "choose a crossing to cross, or the pair to keep"),
    ("y3+  y3-", "change pips: turn yellow 3 up or down one pip for a coin (repeat + for more)"),
    ("click", "clicking a die value, a crossing or a choice does the same as its key"),
)

ALHAMBRA_DICE_TYPING: Rows = (
    ("0 3 1 2 1 1", "a roll: how many of the 8 dice show each type, pavilion … tower (set-aside dice too)"),
    ("ssaacggt", "the same roll by the symbols' first letters: p s a c g t"),
    ("place garden", "place the turn's marker (add `displace` to use a displace tile)"),
    ("cancel  black tower", "use a cancel tile; set the black die to a type"),
    ("points  tile 2", "a column's prize: 2 building points, or 1 and its tile (a VP tile's value, or"
     " the next start player's name; add `exchange TYPE` to use an exchange tile)"),
    ("draw", "a round's start: lay the bonus tiles at random (or `tiles vp cancel start …` as laid)"),
    ("h", "advice: what each choice now is worth (as ctrl+a)"),
)  # fmt: skip

CARCASSONNE_DICE_TYPING: Rows = (
    ("5 3 1", "a roll: how many dice show a city, a knight, a catapult"),
    ("keep 2", "set 2 knights of the last roll aside"),
    ("build 4,4:NS", "build city dice, each ROW,COL:AREAS: its black areas by the edges they touch (N E S"
     " W as the die lies), / between two areas of one die (`build 4,4:NS 5,4:N/S`)"),
    ("stop  hold", "end the turn and score it; or hold a knight (3+ kept): no points now, next turn double"),
    ("h", "advice: what each choice now is worth (as ctrl+a)"),
)  # fmt: skip


def _key_text(key: str) -> str:
    return ", ".join(KEY_NAMES.get(k, key_name(k)) for k in key.split(","))


def _bindings(owner: type) -> list[Binding]:
    """A screen's or widget's keys with what they do, its base classes' first (Textual's own, such as tab, are
    under Everywhere); a key's second, nameless binding (its meaning where the first cannot run, such as
    ctrl+r without a camera) is the same key."""
    ours = (cls for cls in reversed(owner.__mro__) if cls.__module__.startswith("companion."))
    found: list[BindingType] = [b for cls in ours for b in cls.__dict__.get("BINDINGS", [])]
    return [b for b in found if isinstance(b, Binding) and b.description]


EVERYWHERE: Rows = (
    ("F1", "this help: the keys of the screen it was opened on (? on the game and end screens)"),
    ("ctrl+q", "quit: the game is saved after every move, continue it from the start screen"),
    ("tab", "next field or button"),
    ("F3", "teach Roll & Write's yellow and blue dice from the camera (`companion --camera SPEC`)"),
    (
        "F6",
        "share the table's view of the game on screen: every phone on this network opens the address or QR"
        " code (if it stopped being served, F6 there serves it anew)",
    ),
)


def keys_table(screen: type, page: HelpPage) -> KeyRows:
    """Everywhere's keys, then the screen's own (and its widgets'), then what is typed on it."""
    rows: list[tuple[str, str]] = [("[u]Everywhere[/u]", ""), *EVERYWHERE]
    rows.append(("[u]This screen[/u]", ""))  # named in the title: a long name would widen the key column
    seen: set[str] = set()
    for owner in (screen, *page.owners):
        for binding in _bindings(owner):
            if (
                binding.key in LISTED_ELSEWHERE
                or binding.key in seen
                or (binding.key.isdigit() and binding.key != "1")
            ):
                continue
            seen.add(binding.key)
            key = "1-6" if binding.key == "1" else _key_text(binding.key)
            # A footer's short label is named in full by its tooltip.
            full = binding.tooltip or binding.description
            description = "after y/b: die value; else choose" if binding.key == "1" else full
            rows.append((escape(key), description))
    rows += [(escape(key), description) for key, description in page.typing]
    return KeyRows(rows)


ROLL_AND_WRITE_TERMS: Rows = (
    ("■ □", "score sheet: a building of that type crossed / still to cross (bold green: the type completed)"),
    (
        "VP 1/2/3",
        "what the most, second and third most buildings of a type are worth; [in brackets],"
        " struck out: places already taken during the game by the first to complete the type",
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
"""What Roll & Write's marks and short terms mean."""


ALCAZABA_TYPING: Rows = (
    ALHAMBRA_DICE_TYPING[0],
    ALHAMBRA_DICE_TYPING[1],
    ("lay p s a c g/N …", "a round's start: the building tiles laid, each TYPE or TYPE/WALLS, then"
     " `start TYPE`"),
    ("take 3 at 0 1", "a column's prize: build tile 3 at row 0, column 1 of your Alhambra (or `take 3"
     " reserve`, `take 3 dirk`, `take start NAME`)"),
    ("place garden", "place the turn's marker"),
    ("rebuild …", "after roll 1 or 2, instead of placing a marker: `rebuild remove ROW COL` (a tile to the"
     " reserve), `rebuild build N at ROW COL` (reserve tile N built there), or `rebuild remove ROW COL build"
     " N` (the two swapped)"),
    ALHAMBRA_DICE_TYPING[-1],
)  # fmt: skip

ALHAMBRA_DICE_TERMS: Rows = (
    ("line 8 … 1", "the board: each building type's column of lines; a marker goes on the line of as many"
     " dice as show the type after the turn's last roll (8 at the top)"),
    ("3 fields", "each line's three fields, left to right: the marker placed after the 1st, 2nd or 3rd roll"),
    ("A B · or 1 2", "a player's marker (their initial, or their seat number where initials clash); · an"
     " empty field"),
    ("bonus", "the bonus tile lying on each column, taken with the column's prize"),
    ("points 1 … 12", "the building-point track: each type's stacks of markers, by building points, each"
     " written bottom first (the first stone is the lowest: better in a tie)"),
    ("out:", "markers displaced off the board"),
    ("Dirk", "the imaginary player in a 2-player game, marked like a player: the app places his markers"),
    ("Scoring A B C", "after rounds 1, 3 and 5: per type, the most building points score the most VP"
     " (a panel shows each scoring as it is held, the end screen all three)"),
)  # fmt: skip

ALCAZABA_TERMS: Rows = (
    *ALHAMBRA_DICE_TERMS[:3],
    ("tiles 3 g/NE", "the building tiles laid under each column, by number: a type's letter and its"
     " walled sides (N E S W)"),
    ("F", "a player's Alhambra: F the fountain at row 0, column 0, then the tiles built around it"),
    ("reserve", "tiles a player took but has not built"),
    ("Scoring 1 2 3", "the original Alhambra's scorings: majorities of each type and the longest outer wall"),
)  # fmt: skip

CARCASSONNE_TERMS: Rows = (
    ("▶ Ann 12/42", "the score pad: whose turn it is and each player's total toward 42 (the bar: 2 points"
     " a block), then the points of their last turns"),
    ("♞", "a knight held for the next turn (its points count double); in the turns, a turn that held one"),
    ("█", "the city drawing: a black (city) edge of a die; black touches black between two dice"),
    ("─ │", "a white (field) edge"),
    ("+ ·", "the corners of a die; · its middle"),
    ("█ 2 in a middle", "the die's black edges are one city area (█), or that many separate areas (2)"),
    ("completed", "a city with no black edge left open: only completed cities score"),
)  # fmt: skip

SHEET_EDITOR = HelpPage(
    "Sheet editor",
    owners=(GridEditor,),
    typing=(("P S A C G T", "set the cell under the cursor and move on"),),
)
ROLL_AND_WRITE = HelpPage(
    "Roll & Write: the game screen", typing=ROLL_AND_WRITE_TYPING, terms=ROLL_AND_WRITE_TERMS
)
ALHAMBRA_DICE = HelpPage(ALHAMBRA_DICE_ENTRY.title, typing=ALHAMBRA_DICE_TYPING, terms=ALHAMBRA_DICE_TERMS)
ALCAZABA = HelpPage(f"{ALHAMBRA_DICE_ENTRY.title}, Alcazaba", typing=ALCAZABA_TYPING, terms=ALCAZABA_TERMS)
CARCASSONNE_DICE = HelpPage(
    CARCASSONNE_DICE_ENTRY.title, typing=CARCASSONNE_DICE_TYPING, terms=CARCASSONNE_TERMS
)


class HelpScreen(ModalScreen[None]):
    """The help page of `screen`, the screen F1 was pressed on."""

    CSS_PATH = "help.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        # F1 first: the footer shows a binding's first key, and F1 keeps its place at the footer's right edge.
        Binding("f1,escape,q,question_mark", "dismiss", "close help"),
        QUIT_OVER_MODAL,
    ]

    def __init__(self, screen: Screen[object]) -> None:
        super().__init__()
        named = re.sub(r"(?<=[a-z])(?=[A-Z])", " ", type(screen).__name__).capitalize()  # "Start screen"
        self.page: HelpPage = getattr(screen, "HELP_PAGE", None) or HelpPage(named)
        self.shown = type(screen)

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help"):
            yield Static(f"Keys: {self.page.title} (esc closes)", id="help-title")
            yield Static(keys_table(self.shown, self.page))
            if self.page.terms:
                yield Static("What the screen shows", id="terms-title")
                yield Static(KeyRows([(escape(term), meaning) for term, meaning in self.page.terms]))
        yield KeysFooter()
