"""The sheet editor: enter or check the building in every cell of your printed sheet and its coin supply.

The engine's sheet validation decides whether the sheet can be used; its message is shown as you type.
A valid sheet is saved as JSON in the user's config directory and offered on the start screen from then on.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.events import Resize
from textual.widgets import Button, Input, Label, Static

from companion.games import alhambra_rw as rw
from jsonfile.whole import write_whole

from ..sheet_draft import DraftError, Typed, drop_draft, keep_draft, read_draft
from ..widgets.fitted import FittedScreen
from ..widgets.footer import KeysFooter
from ..widgets.grid_editor import EMPTY, GridEditor
from .help import SHEET_EDITOR, HelpPage
from .question import QuestionScreen, answers

EDITED = "sheet"
"""What the checks call the sheet being edited; `in_players_words` turns their field names into words."""
FIELD_WORDS = (
    (f"{EDITED}.grid: ", "grid: "),
    (f"{EDITED}.coins: ", "coin supply: "),
    (f"{EDITED}.name: ", "name: "),
)


def in_players_words(message: str) -> str:
    """A sheet check's message as the player filling in the editor reads it: no field paths."""
    for field, words in FIELD_WORDS:
        if message.startswith(field):
            return words + message.removeprefix(field)
    return message


def file_stem(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_-]+", "-", name.strip()).strip("-") or "sheet"


DRAFT_RESTORED = "restored: the sheet being typed when the app last ended (ctrl+s saves it, Esc gives it up)"
ONE_COLUMN = 78
"""Below this many columns the grid and its counts stand above the name, the coin supply and the buttons:
beside the grid's 36 columns the two buttons need 40 more (at 60, "Back" was off the screen)."""


class SheetEditorScreen(FittedScreen[Path | None]):
    """Dismisses with the saved file's path, or None when left without saving."""

    CSS_PATH = "sheet_editor.tcss"
    HELP_PAGE = SHEET_EDITOR
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "save", "save and use"),
        Binding(
            "escape",
            "cancel",
            "back without saving",
            tooltip="back without saving; once something is typed it asks first (keep editing, or leave)",
        ),
        # A short terminal (60×20) scrolls the page: moving the focus never shows the counts under the grid.
        Binding("pagedown", "page(1)", "page down", show=False),
        Binding("pageup", "page(-1)", "page up", show=False),
    ]

    def __init__(self, sheet: rw.Sheet, sheets_dir: Path) -> None:
        super().__init__()
        self.base = sheet
        self.sheets_dir = sheets_dir
        self.sheet: rw.Sheet | None = sheet
        self.replacing: Path | None = None
        """Another sheet of this name, whose replacing was asked about (ctrl+s again replaces it)."""
        self.opened: Typed | None = None
        """The sheet the editor opened on (set once mounted): Esc leaves at once while nothing differs from
        it, and a draft is kept on disk while something does."""
        self.draft: Typed | None = None
        """What an editor that did not end by saving or leaving had typed: the editor opens on it."""
        try:
            self.draft = read_draft(sheets_dir, EMPTY)
            note = "" if self.draft is None else DRAFT_RESTORED
        except DraftError as exc:
            note = f"what was being typed before could not be read back, so this starts anew: {exc}"
        self.draft_note = note

    def compose(self) -> ComposeResult:
        yield Static(
            "Sheet editor: type each cell's letter as printed on your sheet "
            "(P pavilion, S seraglio, A arcades, C chambers, G garden, T tower)",
            id="intro",
        )
        note = Static(self.draft_note, id="draft-note")
        note.display = bool(self.draft_note)
        yield note
        rows, name, coins = self.draft or self.base_typed()
        with Horizontal(id="body"):
            with Vertical(id="left"):
                yield GridEditor(rows, id="grid")
                yield Static(id="counts")
            with Vertical(id="right"):
                with Horizontal(classes="row"):
                    yield Label("name", classes="field")
                    yield Input(name, id="sheet-name")
                with Horizontal(classes="row"):
                    yield Label("coin supply", classes="field")
                    yield Input(coins, id="coins")
                yield Static(id="validation")
                with Horizontal(classes="row"):
                    yield Button("Save and use (ctrl+s)", id="save", variant="primary")
                    yield Button("Back (esc)", id="cancel")
        yield KeysFooter()

    def on_mount(self) -> None:
        self.query_one("#grid", GridEditor).focus()
        self.opened = self.base_typed()
        self.validate()

    def base_typed(self) -> Typed:
        """The sheet the editor was opened on, as its fields show it (the example under a name of yours)."""
        name = "my-sheet" if self.base.name == "example" else self.base.name
        return self.base.grid, name, str(self.base.coins)

    def typed(self) -> Typed:
        """The cells, the name and the coin supply as they stand: what leaving without saving loses."""
        return (
            self.query_one("#grid", GridEditor).rows,
            self.query_one("#sheet-name", Input).value,
            self.query_one("#coins", Input).value,
        )

    def unsaved(self) -> bool:
        """Whether something was typed since the editor opened (or last saved)."""
        return self.typed() != self.opened

    def on_resize(self, event: Resize) -> None:
        self.set_class(event.size.width < ONE_COLUMN, "-one-column")

    def action_page(self, pages: int) -> None:
        body = self.query_one("#body", Horizontal)
        body.scroll_to(y=body.scroll_y + pages * body.scrollable_content_region.height, animate=False)

    @on(GridEditor.Changed)
    @on(Input.Changed)
    def validate(self) -> None:
        rows = self.query_one("#grid", GridEditor).rows
        coins_text = self.query_one("#coins", Input).value.strip()
        coins: object = int(coins_text) if coins_text.isdecimal() else coins_text
        data = {
            "name": file_stem(self.query_one("#sheet-name", Input).value),
            "grid": list(rows),
            "coins": coins,
            "vp": {
                building: list(row) for building, row in zip(rw.BUILDING_TYPES, self.base.vp, strict=True)
            },
        }
        empty = next(
            ((y, b) for y, row in enumerate(rows, 1) for b, c in enumerate(row, 1) if c == EMPTY), None
        )
        try:
            if empty is not None:
                raise rw.SheetError(f"{EDITED}.grid: yellow {empty[0]} × blue {empty[1]} has no building yet")
            self.sheet = rw.sheet_from_json(data, where=EDITED)
        except rw.SheetError as exc:
            self.sheet = None
            message, ok = f"cannot be used yet: {in_players_words(str(exc))}", False
        else:
            message, ok = self.saving_said()
        validation = self.query_one("#validation", Static)
        validation.update(message)
        validation.set_class(not ok, "error")
        self.query_one("#save", Button).disabled = not ok
        self.query_one("#counts", Static).update(self.counts_text(rows))
        if self.opened is not None:
            if self.unsaved():
                keep_draft(self.sheets_dir, self.typed())
            else:
                drop_draft(self.sheets_dir)

    @staticmethod
    def counts_text(rows: tuple[str, ...]) -> str:
        letters = "".join(rows)
        lines = [
            f"{letter} {name:<9} {letters.count(letter):>2} cells" for letter, name in rw.LETTERS.items()
        ]
        blank = sum(1 for ch in letters if ch not in rw.LETTERS)
        lines.append(f"  not entered {blank:>2}")
        return "\n".join(lines)

    def saving_said(self) -> tuple[str, bool]:
        """Where ctrl+s saves a valid sheet, and whether it may: a name is made a file's (`../Évil x` is
        `vil-x`), said so; a shipped sheet's name is kept for it."""
        assert self.sheet is not None
        name = self.sheet.name
        if name in rw.shipped_sheets():
            return f"valid, but {name!r} is a shipped sheet's name: give yours another", False
        replaced = f"; it replaces your other sheet {name!r}" if self.other_sheet() else ""
        return f"valid: ctrl+s saves it as {name!r}{replaced} and uses it for the new game", True

    def other_sheet(self) -> Path | None:
        """The players' other sheet that saving under this name replaces (not the one being edited)."""
        assert self.sheet is not None
        path = self.sheets_dir / f"{self.sheet.name}.json"
        return path if path.exists() and self.sheet.name != self.base.name else None

    @on(Button.Pressed, "#save")
    def action_save(self) -> None:
        if self.sheet is None:
            self.app.bell()
            return
        said = self.query_one("#validation", Static)
        message, may = self.saving_said()
        if not may:
            said.update(message)
            return
        other = self.other_sheet()
        if other is not None and self.replacing != other:
            # Another sheet of this name (side A of the printed pad, typed before) is replaced when asked.
            self.replacing = other
            said.update(f"a sheet {self.sheet.name!r} of yours is saved already: ctrl+s again replaces it")
            return
        path = self.sheets_dir / f"{self.sheet.name}.json"
        try:
            write_whole(path, json.dumps(self.sheet.to_json(), indent=2) + "\n")
        except OSError as exc:  # a full disk, a folder not writable: the sheet stays here to save again
            said.update(f"cannot save the sheet: {exc}")
            return
        drop_draft(self.sheets_dir)
        self.dismiss(path)

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        """Back to the start screen; once something is typed, only when the players say so: Esc, pressed to
        clear a field as it does in the games' entry lines, threw a whole sheet typed away."""
        if not self.unsaved():
            self.dismiss(None)
            return

        def answered(leave: bool | None) -> None:
            if leave:
                self.give_up()
                self.dismiss(None)

        self.app.push_screen(LeaveUnsavedScreen(), answered)

    def give_up(self) -> None:
        """What was typed is let go, as the players chose: the next editor opens on a saved sheet."""
        drop_draft(self.sheets_dir)


class LeaveUnsavedScreen(QuestionScreen):
    """Asks before the sheet editor is left with what was typed unsaved: True leaves, False keeps editing."""

    HELP_PAGE = HelpPage("Sheet editor: leave without saving?")
    BINDINGS: ClassVar[list[BindingType]] = answers("leave without saving", "keep editing")

    def __init__(self) -> None:
        what = "What was typed is lost: keep editing, then ctrl+s, to save it."
        super().__init__("Leave the sheet editor without saving?", what, "Leave", "Keep editing")


class QuitUnsavedScreen(QuestionScreen):
    """Asks before ctrl+q quits the app over a sheet editor holding what was typed: True quits."""

    HELP_PAGE = HelpPage("Quit without saving the sheet?")
    BINDINGS: ClassVar[list[BindingType]] = answers("quit without saving", "keep editing")

    def __init__(self) -> None:
        what = "The sheet typed in the editor is lost: keep editing, then ctrl+s, to save it."
        super().__init__("Quit without saving the sheet?", what, "Quit", "Keep editing")
