"""The sheet editor: live counts, the engine's validation, saved under XDG_CONFIG_HOME, offered next time."""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path

from app_driver import make_app, send_keys
from textual.screen import Screen
from textual.widgets import Button, Input, OptionList, Select, Static

from companion.app.screens.sheet_editor import LeaveUnsavedScreen, SheetEditorScreen
from companion.app.screens.start import StartScreen
from companion.app.widgets.grid_editor import CELL_WIDTH, ROW_LABEL, GridEditor
from companion.games import alhambra_rw as rw
from jsonfile import control_character


def text_of(screen: SheetEditorScreen, selector: str) -> str:
    return str(screen.query_one(selector, Static).content)


def said(screen: Screen[object]) -> str:
    return str(screen.query_one("#message", Static).render())


def test_an_invalid_sheet_cannot_be_saved_and_a_valid_one_is_offered_next_time(xdg: Path) -> None:
    sheets = xdg / "config" / "table-companion" / "sheets"

    async def edit() -> None:
        async with make_app().run_test(size=(100, 32)) as pilot:
            await pilot.press("f2")
            editor = pilot.app.screen
            assert isinstance(editor, SheetEditorScreen)
            # y1 b1 is the example's only pavilion on row 1; clearing it leaves a blank cell.
            await pilot.press("backspace")
            assert "not entered  1" in text_of(editor, "#counts")
            said = text_of(editor, "#validation")
            assert "grid: yellow 1 × blue 1 has no building yet" in said and "sheet." not in said
            assert editor.query_one("#save", Button).disabled
            await pilot.press("ctrl+s")
            assert pilot.app.screen is editor and not list(sheets.glob("*.json"))
            # Every cell a tower: valid letters, but five types missing.
            await send_keys(pilot, ["t"] * 36)
            assert "T tower     36 cells" in text_of(editor, "#counts")
            assert "missing pavilion, seraglio, arcades, chambers, garden" in text_of(editor, "#validation")
            # Back to the first cell (the cursor stays on the last one typed), type a whole sheet row by
            # row, then a coin supply that is too small, then a good one.
            await send_keys(pilot, ["up"] * 5 + ["left"] * 5)
            rows = ["PSACGT", "GTPSAC", "ACGTPT", "STCAGS", "CGTPTA", "TASGCG"]
            await send_keys(pilot, list("".join(rows).lower()))
            await pilot.press("tab", "tab", "backspace", "backspace", "2")
            assert "coin supply: the coin supply must hold at least 3" in text_of(editor, "#validation")
            await pilot.press("backspace", "1", "8")
            assert text_of(editor, "#validation").startswith("valid")
            await pilot.press("ctrl+s")
            await pilot.pause()
            assert isinstance(pilot.app.screen, StartScreen)

    asyncio.run(edit())
    saved = json.loads((sheets / "my-sheet.json").read_text(encoding="utf-8"))
    assert saved["coins"] == 18
    assert rw.sheet_from_json(saved).grid == ("PSACGT", "GTPSAC", "ACGTPT", "STCAGS", "CGTPTA", "TASGCG")

    async def next_time() -> object:
        async with make_app().run_test(size=(100, 32)) as pilot:
            return pilot.app.screen.query_one("#sheet", Select).value

    assert asyncio.run(next_time()) == ("user", str(sheets / "my-sheet.json"))


def test_a_sheet_that_cannot_be_saved_says_so_and_stays_to_save_again(xdg: Path) -> None:
    sheets = xdg / "config" / "table-companion" / "sheets"

    async def edit() -> tuple[object, str, object]:
        async with make_app().run_test(size=(80, 24)) as pilot:
            await pilot.press("f2")
            editor = pilot.app.screen
            assert isinstance(editor, SheetEditorScreen)
            sheets.mkdir(parents=True)
            (sheets / "my-sheet.json.part").mkdir()  # a save fails as on a full disk
            await pilot.press("ctrl+s")
            await pilot.pause()
            failed = pilot.app.screen, text_of(editor, "#validation")
            (sheets / "my-sheet.json.part").rmdir()
            await pilot.press("ctrl+s")
            await pilot.pause()
            return *failed, pilot.app.screen

    screen, said, after = asyncio.run(edit())
    assert isinstance(screen, SheetEditorScreen) and said.startswith("cannot save the sheet: "), said
    assert isinstance(after, StartScreen) and (sheets / "my-sheet.json").is_file()


def test_typing_a_whole_grid_leaves_the_cursor_on_the_last_cell(xdg: Path) -> None:
    async def type_grid() -> tuple[tuple[int, int], tuple[str, ...]]:
        async with make_app().run_test(size=(100, 32)) as pilot:
            await pilot.press("f2")
            await pilot.pause()
            editor = pilot.app.screen
            assert isinstance(editor, SheetEditorScreen)
            grid = editor.query_one(GridEditor)
            await send_keys(pilot, [*"PSACGT" * 6, "G"])
            return grid.cursor, grid.rows

    cursor, rows = asyncio.run(type_grid())
    assert cursor == (6, 6), "not back to the first cell, which the next letter would overwrite"
    assert rows == ("PSACGT",) * 5 + ("PSACGG",) and rows[0][0] == "P"


def test_the_edit_sheet_button_opens_the_sheet_editor(xdg: Path) -> None:
    """The start screen's "Edit sheet (F2)" button does what F2 does (it used to open the Alhambra pad)."""

    async def click() -> object:
        async with make_app().run_test(size=(100, 32)) as pilot:
            await pilot.click("#edit-sheet")
            await pilot.pause()
            return pilot.app.screen

    assert isinstance(asyncio.run(click()), SheetEditorScreen)


def test_a_sheet_of_yours_that_cannot_be_read_is_listed_last_never_chosen_and_says_why(xdg: Path) -> None:
    sheets = xdg / "config" / "table-companion" / "sheets"
    sheets.mkdir(parents=True)
    good = sheets / "ours.json"
    good.write_text(
        json.dumps(rw.load_shipped_sheet("example").to_json() | {"name": "ours"}), encoding="utf-8"
    )
    broken = sheets / "newer.json"
    broken.write_text('{"name": "newer", "grid": [', encoding="utf-8")  # cut short by hand, saved after
    os.utime(good, (1_000_000_000, 1_000_000_000))

    async def start() -> dict[str, object]:
        seen: dict[str, object] = {}
        async with make_app().run_test(size=(100, 32)) as pilot:
            await send_keys(pilot, [*"Ann", "tab", *"Ben"])
            sheet = pilot.app.screen.query_one("#sheet", Select)
            seen["chosen"] = sheet.value
            listed = sheet.query_one("SelectOverlay", OptionList)
            seen["listed"] = [str(listed.get_option_at_index(i).prompt) for i in range(listed.option_count)]
            sheet.value = ("user", str(broken))
            await pilot.pause()
            seen["why"] = said(pilot.app.screen)
            await pilot.press("f5")
            await pilot.pause()
            seen["started"] = type(pilot.app.screen).__name__
            sheet.value = ("user", str(good))
            await pilot.pause()
            seen["after"] = said(pilot.app.screen)
        return seen

    seen = asyncio.run(start())
    assert seen["chosen"] == ("user", str(good))
    listed = seen["listed"]
    assert isinstance(listed, list) and listed[-1] == "newer (yours, cannot be read)"
    assert listed[:2] == ["ours (yours)", "example (not the printed sheet)"]  # no blank line above them
    assert "newer.json" in str(seen["why"]) and seen["started"] == "StartScreen"
    assert "newer.json" not in str(seen["after"])


def test_the_sheet_is_never_blank_and_a_blank_variant_is_said(xdg: Path) -> None:
    """The sheet's list began with a blank line: picked (↑ from the first sheet), F5 and F2 crashed the app.
    A variant left blank did nothing on F5, without a word."""

    async def start() -> dict[str, object]:
        seen: dict[str, object] = {}
        async with make_app().run_test(size=(100, 32)) as pilot:
            await send_keys(pilot, [*"Ann", "tab", *"Ben", "tab", *"Cleo"])
            screen = pilot.app.screen
            screen.query_one("#sheet", Select).focus()
            await pilot.press("enter", "up", "enter")
            await pilot.pause()
            seen["sheet"] = screen.query_one("#sheet", Select).value
            screen.query_one("#variant", Select).clear()
            await pilot.press("f5")
            await pilot.pause()
            seen["variant"] = said(screen)
            await pilot.press("f2")
            await pilot.pause()
            seen["f2"] = type(pilot.app.screen).__name__
        return seen

    seen = asyncio.run(start())
    assert seen["sheet"] == ("shipped", "example")
    assert seen["variant"] == "choose the variant"
    assert seen["f2"] == "SheetEditorScreen"


def test_saving_says_the_file_name_asks_before_replacing_another_sheet_and_keeps_the_shipped_names(
    xdg: Path,
) -> None:
    """Saving under the name of another sheet of theirs (the default `my-sheet`, side A typed before)
    replaced it without a word; a sheet saved as `example` passed for the shipped one; `../Évil sheet/x` was
    saved as `vil-sheet-x` unsaid."""
    sheets = xdg / "config" / "table-companion" / "sheets"
    sheets.mkdir(parents=True)
    side_a = sheets / "my-sheet.json"
    side_a.write_text(
        json.dumps(rw.load_shipped_sheet("example").to_json() | {"name": "my-sheet", "coins": 9})
    )
    before = side_a.read_text()
    seen: dict[str, object] = {}

    async def edit() -> None:
        async with make_app().run_test(size=(100, 32)) as pilot:
            pilot.app.screen.query_one("#sheet", Select).value = ("shipped", "example")
            await pilot.pause()
            await pilot.press("f2")
            editor = pilot.app.screen
            assert isinstance(editor, SheetEditorScreen)
            seen["offered"] = text_of(editor, "#validation")
            await pilot.press("ctrl+s")
            await pilot.pause()
            seen["asked"] = text_of(editor, "#validation"), side_a.read_text() == before
            name = editor.query_one("#sheet-name", Input)
            for typed in ("example", "../Évil sheet/x"):
                name.value = typed
                await pilot.pause()
                seen[typed] = text_of(editor, "#validation"), editor.query_one("#save", Button).disabled
            name.value = "my-sheet"
            await pilot.pause()
            await pilot.press("ctrl+s", "ctrl+s")
            await pilot.pause()
            seen["saved"] = isinstance(pilot.app.screen, StartScreen)

    asyncio.run(edit())
    assert "saves it as 'my-sheet'; it replaces your other sheet 'my-sheet'" in str(seen["offered"])
    assert seen["asked"] == ("a sheet 'my-sheet' of yours is saved already: ctrl+s again replaces it", True)
    assert seen["example"] == ("valid, but 'example' is a shipped sheet's name: give yours another", True)
    said, disabled = seen["../Évil sheet/x"]  # type: ignore[misc]
    assert "saves it as 'vil-sheet-x'" in said and not disabled
    assert seen["saved"] and json.loads(side_a.read_text())["coins"] != 9


def test_a_sheet_files_name_that_would_drive_the_terminal_is_shown_with_its_escapes(xdg: Path) -> None:
    """A sheet file named with ESC showed in reverse video in the sheet list, and one that cannot be read
    cleared the screen when the list opened, when chosen (its reason names the file) and on F2. (A sheet's
    name is its file's, and holds no control character: both files are listed as sheets that cannot be
    read.)"""
    sheets = xdg / "config" / "table-companion" / "sheets"
    sheets.mkdir(parents=True)
    good = sheets / "ok\x1b[7minv.json"
    good.write_text(json.dumps(rw.load_shipped_sheet("example").to_json() | {"name": "ok"}), encoding="utf-8")
    broken = sheets / "bad\x1b[2J.json"
    broken.write_text('{"name": "bad", "grid": [', encoding="utf-8")

    async def start() -> list[str]:
        async with make_app().run_test(size=(100, 32)) as pilot:
            sheet = pilot.app.screen.query_one("#sheet", Select)
            listed = sheet.query_one("SelectOverlay", OptionList)
            shown = [str(listed.get_option_at_index(i).prompt) for i in range(listed.option_count)]
            sheet.value = ("user", str(broken))
            await pilot.pause()
            shown.append(said(pilot.app.screen))
            await pilot.press("f2")
            await pilot.pause()
            await pilot.press("escape")
            await pilot.pause()
            return [*shown, said(pilot.app.screen)]

    shown = asyncio.run(start())
    unreadable = {"ok\\x1b[7minv (yours, cannot be read)", "bad\\x1b[2J (yours, cannot be read)"}
    assert unreadable <= set(shown[:-2]), shown
    assert "bad\\x1b[2J.json" in shown[-2] and shown[-1].endswith("; starting from the example"), shown
    assert not any(control_character(text) for text in shown), shown


def test_everything_in_the_sheet_editor_is_reached_at_60x20(xdg: Path) -> None:
    """At 60×20 the counts' last lines ("G garden", "T tower", "not entered") and the buttons lay below the
    bottom, Back past the right edge as well, and PageDown did nothing. The buttons stand under the grid
    there, and PageDown shows every line of each part, its whole width; PageUp goes back to the grid."""
    parts = ("#grid", "#counts", "#sheet-name", "#coins", "#validation", "#save", "#cancel")

    async def page() -> tuple[dict[str, set[int]], dict[str, int], bool]:
        async with make_app().run_test(size=(60, 20)) as pilot:
            await pilot.press("f2")
            await pilot.pause()
            screen = pilot.app.screen
            assert isinstance(screen, SheetEditorScreen)
            lines: dict[str, set[int]] = {part: set() for part in parts}
            for _ in range(4):
                shown = screen._compositor.visible_widgets
                for part in parts:
                    widget = screen.query_one(part)
                    if widget in shown:
                        region, clip = shown[widget]
                        seen = region.intersection(clip)
                        if seen.width == region.width:
                            lines[part] |= set(range(seen.y - region.y, seen.bottom - region.y))
                await pilot.press("pagedown")
                await pilot.pause()
            heights = {part: screen.query_one(part).outer_size.height for part in parts}
            await pilot.press("pageup", "pageup", "pageup", "pageup")
            await pilot.pause()
            return lines, heights, screen.query_one("#grid") in screen._compositor.visible_widgets

    lines, heights, back = asyncio.run(page())
    assert {part: len(shown) for part, shown in lines.items()} == heights and back, lines


def test_a_click_on_a_cell_puts_the_cursor_on_that_cell(xdg: Path) -> None:
    """The grid has a border: a click on y1 b1 and `s` set y2 b1, every click a row low."""

    async def click_cells() -> list[tuple[int, int]]:
        async with make_app().run_test(size=(100, 32)) as pilot:
            await pilot.press("f2")
            await pilot.pause()
            grid = pilot.app.screen.query_one(GridEditor)
            landed = []
            for y, b in [(1, 1), (3, 4), (6, 6)]:
                # The cell's letter: past the border, the row's label and the cells before it.
                await pilot.click(GridEditor, offset=(1 + ROW_LABEL + (b - 1) * CELL_WIDTH, 1 + y))
                await pilot.pause()
                landed.append(grid.cursor)
            return landed

    assert asyncio.run(click_cells()) == [(1, 1), (3, 4), (6, 6)]


def test_a_sheet_being_typed_when_the_app_ended_unasked_is_found_again(xdg: Path) -> None:
    """A terminal closed (SIGHUP ends the app as `exit` does, asking nothing) or a kill threw the typed cells
    away. The editor keeps a draft at every change; the next editor opens on it and says so; leaving it,
    as the players choose, lets it go."""
    sheets = xdg / "config" / "table-companion" / "sheets"

    async def type_then_end() -> None:
        async with make_app().run_test(size=(100, 32)) as pilot:
            await pilot.press("f2", "t", "t", "t", "tab", "tab", "backspace", "backspace", "9")
            await pilot.pause()
            pilot.app.exit(None, 129)  # as the app's SIGHUP handler does

    async def open_again() -> tuple[tuple[str, ...], str, str, bool, tuple[str, ...]]:
        async with make_app().run_test(size=(100, 32)) as pilot:
            await pilot.press("f2")
            await pilot.pause()
            editor = pilot.app.screen
            assert isinstance(editor, SheetEditorScreen)
            note = editor.query_one("#draft-note", Static)
            shown = str(note.content) if note.display else ""
            rows, coins = editor.query_one(GridEditor).rows, editor.query_one("#coins", Input).value
            await pilot.press("escape")  # the restored sheet is asked about as one typed here
            await pilot.pause()
            asked = isinstance(pilot.app.screen, LeaveUnsavedScreen)
            await pilot.press("y", "f2")
            await pilot.pause()
            return rows, coins, shown, asked, pilot.app.screen.query_one(GridEditor).rows

    asyncio.run(type_then_end())
    assert json.loads((sheets / "being-typed.draft").read_text(encoding="utf-8"))["coins"] == "9"
    rows, coins, note, asked, afresh = asyncio.run(open_again())
    example = rw.load_shipped_sheet("example").grid
    assert rows[0] == "TTT" + example[0][3:] and rows[1:] == example[1:] and coins == "9"
    assert note.startswith("restored: the sheet being typed when the app last ended") and asked
    assert afresh == example and not (sheets / "being-typed.draft").exists()


def test_a_draft_goes_once_its_sheet_is_saved_or_the_app_quit_over_it(xdg: Path) -> None:
    """Saved, the sheet is a sheet of the list and the draft is gone; ctrl+q answered "quit without saving"
    gives it up as Esc's "leave" does. A sheet typed back to what the editor opened on keeps no draft."""
    draft = xdg / "config" / "table-companion" / "sheets" / "being-typed.draft"

    async def edit(ending: tuple[str, ...]) -> bool:
        async with make_app().run_test(size=(100, 32)) as pilot:
            await pilot.press("f2", "right", "g")
            await pilot.pause()
            kept = draft.exists()
            await pilot.press(*ending)
            await pilot.pause()
            return kept

    assert asyncio.run(edit(("ctrl+q", "y"))) and not draft.exists()
    assert asyncio.run(edit(("left", "s"))) and not draft.exists()  # y1 b2 as the example has it
    assert asyncio.run(edit(("ctrl+s",))) and not draft.exists()


def test_a_draft_that_cannot_be_read_back_is_named_and_the_editor_starts_anew(xdg: Path) -> None:
    """A draft the editor never wrote (a cell no building's letter, cut off) is said, not a traceback."""
    sheets = xdg / "config" / "table-companion" / "sheets"
    sheets.mkdir(parents=True)
    draft = sheets / "being-typed.draft"
    example = rw.load_shipped_sheet("example")

    async def open_editor() -> tuple[str, tuple[str, ...]]:
        async with make_app().run_test(size=(100, 32)) as pilot:
            await pilot.press("f2")
            await pilot.pause()
            editor = pilot.app.screen
            return str(editor.query_one("#draft-note", Static).content), editor.query_one(GridEditor).rows

    bad_cell = {"grid": ["X" * 6] * 6, "name": "mine", "coins": "18"}
    for text, why in [
        (json.dumps(bad_cell), "grid: not 6 rows of 6 building letters"),
        ('{"grid": [', "not JSON"),
    ]:
        draft.write_text(text, encoding="utf-8")
        note, rows = asyncio.run(open_editor())
        assert note.startswith("what was being typed before could not be read back") and why in note, note
        assert rows == example.grid and not draft.exists()
