"""The start form, F2's sheet editor, F7's pad and the screens laid over others, with the keyboard alone.

Esc in the sheet editor threw a typed sheet away without a word; Tab through the form's choice boxes could not
be followed (a 5% tint marked the one focused); Esc from the pad left the names typed, so F7 opened a new
blank pad where the README promises the last one; the screens laid over another (F3's calibration, F6's
share screen, the questions, the help) lost F1 and quit from their footers, or had no footer at all.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest
from app_driver import NoReader, make_app, random_game, saved_game, send_keys, start_named
from rich.color import Color as RichColor
from rich.color import ColorSystem
from rich.segment import Segment
from rich.terminal_theme import DEFAULT_TERMINAL_THEME
from textual.app import App
from textual.color import Color
from textual.geometry import Region
from textual.pilot import Pilot
from textual.widgets import Input, Select
from textual.widgets._footer import FooterKey

from companion.app.app import CameraSetup, CompanionApp
from companion.app.keys import ADVICE
from companion.app.screens.alhambra_pad import AlhambraPadScreen
from companion.app.screens.carcassonne_dice import CarcassonneDiceScreen
from companion.app.screens.delete_game import DeleteGameScreen
from companion.app.screens.end import ScoringPanel
from companion.app.screens.help import HelpPage, keys_table
from companion.app.screens.sheet_editor import LeaveUnsavedScreen, QuitUnsavedScreen, SheetEditorScreen
from companion.app.screens.start import StartScreen
from companion.app.widgets.footer import KeysFooter
from companion.app.widgets.grid_editor import GridEditor
from companion.games import alhambra_rw as rw
from companion.games.alhambra.pad import PAD_SUFFIX
from vision.sources import FrameSource, SourceError

SIZE = (100, 32)


def test_esc_in_the_sheet_editor_asks_before_a_typed_sheet_is_lost(xdg: Path) -> None:
    """Cells typed, Tab to the name and Esc (to clear it, as in the games' entry lines): the editor asks, and
    Esc again keeps editing with every cell; only `y` leaves. Nothing typed: Esc leaves at once."""
    seen: dict[str, object] = {}

    async def edit() -> None:
        async with make_app().run_test(size=SIZE) as pilot:
            app = pilot.app
            await pilot.press("f2")
            editor = app.screen
            assert isinstance(editor, SheetEditorScreen)
            await send_keys(pilot, ["t"] * 6)
            typed = editor.query_one("#grid", GridEditor).rows
            await pilot.press("tab", "escape")
            seen["asked"] = app.screen is not editor and editor in app.screen_stack
            await pilot.press("escape")
            kept = app.screen is editor
            seen["kept"] = kept and editor.query_one("#grid", GridEditor).rows == typed
            await pilot.press("escape", "y")
            await pilot.pause()
            seen["left"] = isinstance(app.screen, StartScreen)
            await pilot.press("f2")
            untouched = app.screen
            await pilot.press("escape")
            await pilot.pause()
            seen["untouched"] = untouched is not app.screen and isinstance(app.screen, StartScreen)

    asyncio.run(edit())
    assert seen == {"asked": True, "kept": True, "left": True, "untouched": True}, seen


def luminance(colour: Color) -> float:
    """WCAG's relative luminance."""

    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    return 0.2126 * channel(colour.r) + 0.7152 * channel(colour.g) + 0.0722 * channel(colour.b)


def contrast(a: Color, b: Color) -> float:
    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def drawn_backgrounds(app: App[None], region: Region, colours: str) -> list[Color]:
    """The background of each cell of `region`'s first line as the terminal gets it: through the app's
    filters (NO_COLOR's greys), and with 16 colours each colour as the terminal's nearest of them."""
    line = list(app.screen._compositor.render_strips()[region.y])
    for colour_filter in app._filters:
        line = colour_filter.apply(line, app.screen.styles.background)
    backgrounds: list[Color] = []
    for segment in list(Segment.divide(line, [region.x, region.right]))[1]:
        bgcolor = segment.style.bgcolor if segment.style and segment.style.bgcolor else RichColor.default()
        if colours == "16 colours":
            bgcolor = bgcolor.downgrade(ColorSystem.STANDARD)
        colour = Color(*bgcolor.get_truecolor(DEFAULT_TERMINAL_THEME, foreground=False))
        backgrounds += [colour] * segment.cell_length
    return backgrounds[: region.width]


@pytest.fixture(params=["true colour", "NO_COLOR", "16 colours"])
def colours(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """NO_COLOR is read once, as the app starts."""
    if request.param == "NO_COLOR":
        monkeypatch.setenv("NO_COLOR", "1")
    else:
        monkeypatch.delenv("NO_COLOR", raising=False)
    return str(request.param)


def test_tab_shows_which_choice_box_has_the_focus(xdg: Path, colours: str) -> None:
    """Each choice box Tab reaches stands out from the form around it (3:1, what a control's focus needs to
    be seen); Textual's tint was 1.2:1 (grey 234 to 235), and nothing under NO_COLOR or in 16 colours."""
    seen: dict[str, float] = {}

    async def tab() -> None:
        async with make_app().run_test(size=SIZE) as pilot:
            app = pilot.app
            await pilot.press(*"Anna", "tab", *"Ben")
            for _ in range(20):
                await pilot.press("tab")
                focused = app.focused
                if isinstance(focused, Select) and focused.id not in seen:
                    box = drawn_backgrounds(app, focused.region, colours)
                    # The form around it: the cell left of the box, under its label.
                    beside = Region(focused.region.x - 1, focused.region.y, 1, 1)
                    form = drawn_backgrounds(app, beside, colours)[0]
                    seen[str(focused.id)] = min(contrast(cell, form) for cell in box)

    asyncio.run(tab())
    assert set(seen) == {"game", "start-player", "variant", "sheet"}, seen
    assert all(ratio >= 3 for ratio in seen.values()), seen


def test_ctrl_q_in_the_sheet_editor_asks_before_a_typed_sheet_is_lost(xdg: Path) -> None:
    """Esc asked, but ctrl+q quit at once and threw the typed cells away. Asked now: `n` keeps editing,
    ctrl+q over the question quits; with nothing typed ctrl+q quits at once."""
    seen: dict[str, object] = {}

    async def edit() -> None:
        async with make_app().run_test(size=SIZE) as pilot:
            app = pilot.app
            await pilot.press("f2")
            editor = app.screen
            await send_keys(pilot, ["s", "p"])
            await pilot.press("ctrl+q")
            await pilot.pause()
            seen["asked"] = isinstance(app.screen, QuitUnsavedScreen) and app.is_running
            await pilot.press("n")
            await pilot.pause()
            seen["kept"] = app.screen is editor
            await pilot.press("ctrl+q", "ctrl+q")
            await pilot.pause()
            seen["quit"] = not app.is_running

    async def untouched() -> None:
        async with make_app().run_test(size=SIZE) as pilot:
            await pilot.press("f2", "ctrl+q")
            await pilot.pause()
            seen["quit at once"] = not pilot.app.is_running

    asyncio.run(edit())
    asyncio.run(untouched())
    assert seen == {"asked": True, "kept": True, "quit": True, "quit at once": True}, seen


def test_esc_from_the_pad_clears_the_form_and_f7_continues_that_pad(xdg: Path) -> None:
    """F5, F8, F9 and F10 leave a form cleared behind their games; the pad left its names, and F7 again made a
    second blank pad ("scoring 1 of 1") instead of continuing the one just left."""
    seen: dict[str, object] = {}

    async def play() -> None:
        async with make_app().run_test(size=SIZE) as pilot:
            app = pilot.app
            pad = await start_named(pilot, ["Ann", "Ben", "Cleo"], "f7", AlhambraPadScreen)
            pad.query_one("#p0-pavilion", Input).value = "2"  # a pad left blank is not kept
            await pilot.pause()
            await pilot.press("escape")
            await pilot.pause()
            assert isinstance(app.screen, StartScreen)
            seen["names"] = [field.value for field in app.screen.query(".name").results(Input)]
            again = await start_named(pilot, [], "f7", AlhambraPadScreen)
            seen["same pad"] = again.path == pad.path
            seen["pads"] = len(list(pad.path.parent.glob(f"*{PAD_SUFFIX}")))

    asyncio.run(play())
    assert seen == {"names": [""] * 6, "same pad": True, "pads": 1}, seen


def calibrating_app() -> CompanionApp:
    """The app with a camera that never opens and a reader that takes a colour profile: F3 calibrates."""

    def never_opens() -> FrameSource:
        raise SourceError("no camera here")

    camera = CameraSetup(never_opens, NoReader(), use_profile=lambda profile: None)
    return CompanionApp(rng=random.Random(0), camera=camera)


async def footer_keys(pilot: Pilot[None]) -> tuple[list[str], str, bool]:
    """The footer's keys of the screen on top, its right-edge key, and whether that key is at the edge."""
    await pilot.pause()
    footers = pilot.app.screen.query(KeysFooter)
    if not footers:
        return [], "", False
    footer = footers.first()
    keys = [str(key.key_display) for key in footer.query(FooterKey) if key.display]
    docked = [key for key in footer.query(FooterKey) if key.has_class("-help")]
    at_edge = bool(docked) and docked[0].region.right == footer.region.right
    return keys, str(docked[0].key_display) if docked else "", at_edge


def test_every_screen_laid_over_another_keeps_f1_and_quit_in_its_footer(xdg: Path) -> None:
    """F3's footer was `y … b … s save esc back`, without F1 and quit; the share screen, the questions, the
    advice, a held scoring and the help had no footer at all (docs/screens.md: every footer keeps F1 help
    at its right edge)."""
    saved_game(random_game(2, ("Anna", "Ben", "Cleo")), "20261122-203000-anna-ben-cleo.jsonl")
    seen: dict[str, tuple[list[str], str, bool]] = {}

    async def open_each() -> None:
        async with calibrating_app().run_test(size=SIZE) as pilot:
            for name, keys in (("calibrate", "f3"), ("share", "f6"), ("help", "f1")):
                await pilot.press(keys)
                seen[name] = await footer_keys(pilot)
                await pilot.press("escape")
            await pilot.press("down", "delete")
            seen["delete"] = await footer_keys(pilot)
            await pilot.press("n", "f2", "t", "escape")
            seen["leave the sheet editor"] = await footer_keys(pilot)
            await pilot.press("y")
            await pilot.pause()
            await start_named(pilot, ["Ann", "Ben"], "f9", CarcassonneDiceScreen)
            await pilot.press(ADVICE)
            seen["advice"] = await footer_keys(pilot)
            await pilot.press("escape")
            await pilot.app.push_screen(ScoringPanel("Scoring 1", "Ann 3"))
            seen["scoring"] = await footer_keys(pilot)

    asyncio.run(open_each())
    opened = {"calibrate", "share", "help", "delete", "leave the sheet editor", "advice", "scoring"}
    assert set(seen) == opened, seen
    for name, (keys, docked, at_edge) in seen.items():
        assert "^q" in keys and docked == "F1" and at_edge, (name, keys, docked)
    assert seen["calibrate"][0][:4] == ["y", "b", "s", "esc"], seen["calibrate"]


def test_keep_editing_keeps_what_was_typed_for_ctrl_s(xdg: Path) -> None:
    """Esc once the sheet's name is retyped, Esc again (keep editing), ctrl+s: the sheet is saved as typed."""
    sheets = xdg / "config" / "table-companion" / "sheets"

    async def edit() -> None:
        async with make_app().run_test(size=SIZE) as pilot:
            await pilot.press("f2", "tab", "end", *["backspace"] * len("my-sheet"), *"side-a")
            await pilot.press("escape", "escape", "ctrl+s")
            await pilot.pause()
            assert isinstance(pilot.app.screen, StartScreen)

    asyncio.run(edit())
    assert rw.load_sheet(sheets / "side-a.json").name == "side-a"


@pytest.mark.parametrize(
    ("question", "answers"),
    [
        (DeleteGameScreen, ("delete", "keep")),
        (LeaveUnsavedScreen, ("leave without saving", "keep editing")),
        (QuitUnsavedScreen, ("quit without saving", "keep editing")),
    ],
)
def test_f1_on_a_question_names_its_answers_as_its_footer(question: type, answers: tuple[str, str]) -> None:
    """One dialog serves every question: F1 listed its own generic keys first ("y yes", "n, esc no")."""
    rows = [(key.plain, words) for key, words in keys_table(question, HelpPage("a question")).rows]
    assert ("y", answers[0]) in rows and ("n, esc", answers[1]) in rows, rows
    assert ("y", "yes") not in rows
