"""The players' own Roll & Write sheets: one that cannot be read is said as the form opens, never passed over
for the example unsaid; a sheet's name is its file's, so F2 never saves one sheet over another unasked."""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path

from app_driver import make_app, send_keys
from textual.screen import Screen
from textual.widgets import Input, Select, Static

from companion.app.screens.sheet_editor import SheetEditorScreen
from companion.games import alhambra_rw as rw

SIDE_A = ("PSACGT", "GTPSAC", "ACGTPT", "STCAGS", "CGTPTA", "TASGCG")


def said(screen: Screen[object]) -> str:
    return str(screen.query_one("#message", Static).render())


def own_sheets(xdg: Path) -> Path:
    folder = xdg / "config" / "table-companion" / "sheets"
    folder.mkdir(parents=True)
    return folder


def write_sheet(folder: Path, stem: str, name: str, grid: tuple[str, ...] = SIDE_A) -> Path:
    path = folder / f"{stem}.json"
    data = rw.load_shipped_sheet("example").to_json() | {"name": name, "grid": list(grid)}
    path.write_text(json.dumps(data, indent=2), encoding="utf-8")
    return path


def test_a_sheet_of_yours_that_cannot_be_read_is_said_as_the_form_opens_till_one_is_picked(xdg: Path) -> None:
    """Side A made unreadable by hand (a letter X): the form took the example, which is not the printed
    sheet, without a word, and F5 started the game on it."""
    folder = own_sheets(xdg)
    side_a = write_sheet(folder, "side-a", "side-a", ("XSACGT", *SIDE_A[1:]))

    async def start() -> dict[str, str]:
        seen: dict[str, str] = {}
        async with make_app().run_test(size=(100, 32)) as pilot:
            seen["opened"] = said(pilot.app.screen)
            await send_keys(pilot, [*"Ann", "tab", *"Ben", "tab", *"Cleo"])
            seen["typed"] = said(pilot.app.screen)
            sheet = pilot.app.screen.query_one("#sheet", Select)
            sheet.value = ("user", str(side_a))
            await pilot.pause()
            sheet.value = ("shipped", "example")
            await pilot.pause()
            seen["chosen"] = said(pilot.app.screen)
        return seen

    seen = asyncio.run(start())
    for when in ("opened", "typed"):
        assert "your sheet 'side-a' cannot be read (side-a.json.grid[0][0]: unknown letter 'X'" in seen[when]
        assert "the form took example (not the printed sheet)" in seen[when] and "F2" in seen[when], seen
    assert "imaginary players" not in seen["opened"] and "side-a" not in seen["chosen"], seen


def test_a_readable_sheet_newer_than_a_broken_one_is_taken_unsaid(xdg: Path) -> None:
    folder = own_sheets(xdg)
    broken = write_sheet(folder, "old", "old", ("XSACGT", *SIDE_A[1:]))
    side_a = write_sheet(folder, "side-a", "side-a")
    stamp = side_a.stat().st_mtime
    os.utime(broken, (stamp - 60, stamp - 60))

    async def start() -> tuple[object, str]:
        async with make_app().run_test(size=(100, 32)) as pilot:
            return pilot.app.screen.query_one("#sheet", Select).value, said(pilot.app.screen)

    chosen, message = asyncio.run(start())
    assert chosen == ("user", str(side_a)) and "cannot be read" not in message


def test_a_copy_that_kept_its_originals_name_is_not_read_and_f2_never_saves_over_it(xdg: Path) -> None:
    """side-b.json, copied from side-a.json by hand with a new grid and `"name": "side-a"` inside, was listed
    as side-b, opened in F2 as side-a, and ctrl+s saved it over side-a.json unasked."""
    folder = own_sheets(xdg)
    side_a = write_sheet(folder, "side-a", "side-a")
    side_b = write_sheet(folder, "side-b", "side-a", tuple(reversed(SIDE_A)))
    before = side_a.read_text(encoding="utf-8")

    async def start() -> dict[str, object]:
        seen: dict[str, object] = {}
        async with make_app().run_test(size=(100, 32)) as pilot:
            seen["opened"] = said(pilot.app.screen)
            sheet = pilot.app.screen.query_one("#sheet", Select)
            seen["chosen"] = sheet.value
            sheet.value = ("user", str(side_b))
            await pilot.pause()
            seen["why"] = said(pilot.app.screen)
            await pilot.press("f2")
            await pilot.pause()
            editor = pilot.app.screen
            assert isinstance(editor, SheetEditorScreen)
            editor.query_one("#sheet-name", Input).value = "side-a"
            await pilot.pause()
            await pilot.press("ctrl+s")
            await pilot.pause()
            seen["saved"] = side_a.read_text(encoding="utf-8") == before
        return seen

    seen = asyncio.run(start())
    assert seen["chosen"] == ("user", str(side_a)) and "the form took side-a (yours)" in str(seen["opened"])
    assert "side-b.json.name: 'side-a' is not the file's name 'side-b'" in str(seen["why"]), seen
    assert seen["saved"], "side-a.json was saved over unasked"
