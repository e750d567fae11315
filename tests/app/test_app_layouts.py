"""Every game's screen and the table's view at the smallest terminal (80×24), a roomy one (110×34) and a
phone's browser (40 columns, `companion serve`): SVG snapshots in `__snapshots__` (updated with
--snapshot-update), looked at when made: nothing cut, no panel squeezed to nothing, the entry line shown."""

from __future__ import annotations

import asyncio
import itertools
import random
import re
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from app_driver import (
    camera_app,
    make_app,
    random_game,
    saved_game,
    saved_log,
    start_named,
    text_of,
    wrapped_under,
)
from textual.app import App
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer, Input, Label, Static

from companion.app import paths
from companion.app.alcazaba_input import HELP as ALCAZABA_HELP
from companion.app.alhambra_dice_input import entry_help as alhambra_dice_help
from companion.app.carcassonne_dice_input import entry_help as carcassonne_help
from companion.app.screens.end import EndScreen
from companion.app.screens.event_game import EventGameScreen
from companion.app.screens.roll_and_write import RollAndWriteScreen
from companion.app.screens.roll_and_write_end import RollAndWriteEndScreen
from companion.app.table_view import TableView
from companion.app.widgets.wrapped_log import WrappedLog
from companion.games import alhambra_dice as ad
from companion.games import alhambra_rw as rw
from companion.games import carcassonne_dice as cd
from companion.games.alhambra.buildings import TYPES
from companion.games.alhambra_dice.entry import RULES as ALHAMBRA_DICE
from companion.games.alhambra_dice.events import ALCAZABA, STANDARD
from companion.games.alhambra_dice.scorefile import log_text as dice_log
from companion.games.alhambra_dice.simulate import play_random_game as dice_game
from companion.games.carcassonne_dice.scorefile import log_text as carcassonne_log
from companion.games.carcassonne_dice.simulate import play_random_game as carcassonne_game
from companion.games.session import Session
from companion.live.frames import Sighting, frames_dir, write_frame
from vision.reading import DiceReading, Die
from vision.simulated_table.rolling import RollingTable

SIZES = {"80x24": (80, 24), "110x34": (110, 34), "phone": (40, 80)}
NAME = "20261123-201500-ann-ben-cleo.jsonl"


def roll_and_write() -> None:
    saved_game(random_game(1, ("Anna", "Ben", "Cleo"))[:60], NAME)


def alhambra_dice(variant: str = STANDARD, moves: int | None = 80) -> None:
    events = dice_game(ad.GameStarted(("Ann", "Ben", "Cleo"), variant), random.Random(3))[1][:moves]
    saved_log(dice_log(events), NAME)


def carcassonne_dice() -> None:
    events = carcassonne_game(cd.GameStarted(("Ann", "Ben", "Cleo")), random.Random(3))[1][:40]
    saved_log(carcassonne_log(events), NAME)


async def typed_pad(pilot: Pilot[None]) -> None:
    """F7 for Ann and Ben (Dirk joins), the first scoring's counts and Ann's wall typed, and Dirk's 6
    buildings the rule deals him at the start."""
    await pilot.press(*"Ann", "tab", *"Ben", "f7")
    await pilot.pause()
    dirk = [(f"p2-{kind}", "1") for kind in TYPES]
    for field, value in (("p0-tower", "2"), ("p0-wall", "4"), ("p1-garden", "3"), *dirk):
        pilot.app.screen.query_one(f"#{field}", Input).value = value
        await pilot.pause()


async def laid_out(pilot: Pilot[None]) -> None:
    """Until a game's screen is laid out: the game log's lines are fitted after the board is drawn for its
    width, and the log then scrolled to its end."""
    for _ in range(3):
        await pilot.pause()


async def continued(pilot: Pilot[None]) -> None:
    """The saved game continued from the start screen, its screen laid out."""
    await pilot.press("enter")
    await laid_out(pilot)


SCREENS: dict[str, tuple[Callable[[], None], Callable[[Pilot[None]], object]]] = {
    "roll_and_write": (roll_and_write, continued),
    "alhambra_dice": (alhambra_dice, continued),
    "alcazaba": (lambda: alhambra_dice(ALCAZABA), continued),
    "carcassonne_dice": (carcassonne_dice, continued),
    "alhambra_pad": (lambda: None, typed_pad),
    "end": (lambda: alhambra_dice(moves=None), continued),
}
"""How each screen is reached: the saved game it needs, then the keys."""


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("screen", SCREENS)
def test_game_screen(xdg: Path, snap_compare, screen: str, size: str) -> None:  # type: ignore[no-untyped-def]
    save, reach = SCREENS[screen]
    save()
    assert snap_compare(make_app(), run_before=reach, terminal_size=SIZES[size])


def with_frames() -> None:
    """A Roll & Write game whose first three rolls the camera read: their frames, a rendered table with the
    dice thrown and the reader's dice, kept beside the log."""
    events = random_game(1, ("Anna", "Ben", "Cleo"))[:60]
    log = paths.games_dir() / NAME
    log.parent.mkdir(parents=True)
    table = RollingTable(seed=3, roll_frames=4, rest_frames=0, idle_frames=None)
    frames = iter(table)
    for move in [n for n, e in enumerate(events) if isinstance(e, rw.Roll)][:3]:
        roll = events[move]
        assert isinstance(roll, rw.Roll)
        table.throw([*(("yellow", v) for v in roll.yellow), *(("blue", v) for v in roll.blue)])
        frame = next(f for f in frames if table.settled is not None)
        dice = tuple(Die(d.box, "pip", d.color, 0.9, d.value) for d in table.truth)
        name = write_frame(frames_dir(log), Sighting(frame.image, DiceReading(dice, 0.0)))
        events[move] = replace(roll, source="camera", frame=name)
    table.close()
    saved_game(events, NAME)


@pytest.mark.parametrize("size", ["80x24", "phone"])
def test_evidence_screen(xdg: Path, snap_compare, size: str) -> None:  # type: ignore[no-untyped-def]
    """The camera's evidence (ctrl+o on the game's screen): the picture scaled to the space, above the moves
    at a phone's width."""
    with_frames()

    async def opened(pilot: Pilot[None]) -> None:
        await continued(pilot)
        await pilot.press("ctrl+o")
        await pilot.pause()

    assert snap_compare(make_app(), run_before=opened, terminal_size=SIZES[size])


def alhambra_pad() -> None:
    """A pad as the app saves it: typed in the app, then closed (the view follows the games folder)."""

    async def type_it() -> None:
        async with make_app().run_test(size=(110, 34)) as pilot:
            await typed_pad(pilot)

    asyncio.run(type_it())


VIEWS: dict[str, Callable[[], None]] = {
    "roll_and_write": roll_and_write,
    "alhambra_dice": alhambra_dice,
    "carcassonne_dice": carcassonne_dice,
    "alhambra_pad": alhambra_pad,
}
"""The saved game each view follows."""


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("game", VIEWS)
def test_table_view(xdg: Path, snap_compare, game: str, size: str) -> None:  # type: ignore[no-untyped-def]
    VIEWS[game]()
    view: App[None] = TableView(paths.games_dir())

    async def followed(pilot: Pilot[None]) -> None:
        await pilot.pause(0.2)

    assert snap_compare(view, run_before=followed, terminal_size=SIZES[size])


REFUSED = {"f9": "9 9 9", "f8": "9 pavilions", "f10": "9 pavilions"}
"""A move each dice game refuses at its start (Carcassonne rolls 9 dice, Alhambra's 8)."""


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("key", REFUSED)
def test_a_refused_move_says_why_in_view_above_the_entry(xdg: Path, key: str, size: str) -> None:
    """At 80×24 the reason once sat under the Now panel, below the fold of the scrolling middle: typed, a
    move seemed to do nothing."""

    async def refused() -> None:
        async with make_app().run_test(size=SIZES[size]) as pilot:
            screen = await start_named(pilot, ["Ann", "Ben"], key, EventGameScreen)
            await pilot.press(*REFUSED[key], "enter")
            await pilot.pause()
            message, entry = screen.query_one("#message", Static), screen.query_one("#entry", Input)
            assert message.has_class("error") and str(message.render()).strip()
            assert message in screen._compositor.visible_widgets
            assert message.region.bottom == entry.region.y and entry.value == REFUSED[key]

    asyncio.run(refused())


TAKEN = {"f9": "5 3 1", "f8": "draw", "f10": "lay p s a c g/N t g/NE t p a c start g"}
"""A move each dice game takes at its start."""


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("key", TAKEN)
def test_a_move_taken_is_said_in_view(xdg: Path, key: str, size: str) -> None:
    """At 80×24 the game log gives its lines to the board, whose lowest lines (a round's first markers) are
    below the fold: a move taken once changed nothing in view but the Now panel."""

    async def taken() -> None:
        async with make_app().run_test(size=SIZES[size]) as pilot:
            screen = await start_named(pilot, ["Ann", "Ben"], key, EventGameScreen)
            await pilot.press(*TAKEN[key], "enter")
            await pilot.pause()
            lines = screen.worded[-1]
            message, log = screen.query_one("#message", Static), screen.query_one("#log", WrappedLog)
            visible = screen._compositor.visible_widgets
            if log in visible:
                assert log.lines[-len(lines) :] == lines
            else:
                assert str(message.render()).strip() == "; ".join(lines)
                assert message in visible and not message.has_class("error")

    asyncio.run(taken())


LOGGED = ("roll_and_write", "alhambra_dice", "carcassonne_dice")


@pytest.mark.parametrize("screen", LOGGED)
def test_the_game_log_shows_its_lines_whole_at_any_width(xdg: Path, screen: str) -> None:
    """At a phone's width the game log cut its lines ("Ben crossed tower at yellow 1 × blu"): who got what
    was off the screen, and the log could not be scrolled sideways. Each line wraps, its rest indented, and
    wraps again when the terminal is resized; the log shows its newest lines."""
    SCREENS[screen][0]()

    async def shown() -> list[tuple[list[str], list[str], int]]:
        seen = []
        async with make_app().run_test(size=SIZES["110x34"]) as pilot:
            await continued(pilot)
            for size in ((40, 80), (110, 34)):
                await pilot.resize_terminal(*size)
                await laid_out(pilot)
                log = pilot.app.screen.query_one("#log", WrappedLog)
                width = log.scrollable_content_region.width
                rows = [
                    log.render_line(y).text[:width].rstrip()
                    for y in range(log.scrollable_content_region.height)
                ]
                seen.append((rows, list(log.lines), width))
        return seen

    phone, roomy = asyncio.run(shown())
    assert any(row.startswith("  ") and not row.startswith("   ") for row in phone[0]), "some line wraps"
    for rows, lines, width in (phone, roomy):
        assert all(len(row) <= width for row in rows) and rows[-1], rows
        words = " ".join(" ".join(rows).split())
        assert " ".join(" ".join(lines).split()).endswith(words), f"cut, or not the newest: {rows}"


TALL = ((40, 80), (90, 60), (40, 40), (80, 30), (110, 50), (110, 34), (40, 80))
"""A tall phone, half a laptop's screen, a phone held sideways, the smallest non-short sizes, a roomy one."""


@pytest.mark.parametrize("screen", ["alhambra_dice", "alcazaba", "carcassonne_dice"])
def test_the_game_log_takes_the_lines_the_middle_does_not_need(xdg: Path, screen: str) -> None:
    """On a tall terminal the Alhambra dice screen kept a dozen empty lines between the board and the Now
    panel while the game log showed its least (8 lines), and on a phone held sideways (40×40) Carcassonne's
    screen ran a line past the terminal's end, its title scrolled away. The middle shows the board or pad
    and the Now panel whole where they fit and the log has the rest; where they do not fit, the log keeps its
    least and the middle scrolls; nothing runs past the screen, a refused move's reason said or not."""
    SCREENS[screen][0]()

    async def fitted() -> None:
        async with make_app().run_test(size=TALL[0]) as pilot:
            await continued(pilot)
            game = pilot.app.screen
            for n, size in enumerate(TALL):
                await pilot.resize_terminal(*size)
                if n % 2:
                    await pilot.press(*"no such move", "enter")
                await laid_out(pilot)
                middle, bottom = game.query_one("#middle"), game.query_one("#bottom")
                needed = middle.get_content_height(game.size, game.size, middle.size.width)
                room = middle.outer_size.height + bottom.outer_size.height
                least = int(bottom.styles.min_height.value)  # type: ignore[union-attr]
                expected = (needed, room - needed) if room - needed >= least else (room - least, least)
                assert (middle.outer_size.height, bottom.outer_size.height) == expected, (size, needed)
                footer = game.query_one(Footer).region
                assert game.query_one("#status").region.y == 0 and footer.bottom == size[1], size
                assert bottom.region.bottom == footer.y, f"{size}: the log runs under the footer"
                await pilot.press(*["backspace"] * 12)

    asyncio.run(fitted())


def test_at_80x24_the_game_log_shows_in_the_lines_left_and_beside_the_camera(xdg: Path) -> None:
    """At 80×24 the game log was always hidden: a Carcassonne turn's start left ten empty lines under the
    Now panel, and the Alhambra dice screen's camera panel half its row empty. The log takes the lines the
    pad leaves (none once a tall city is built: each move is then said on the message line, as it is at
    that size) and the row beside the camera's panel, which takes no line from the board."""

    async def shown() -> list[tuple[bool, int, str]]:
        seen = []
        async with make_app().run_test(size=SIZES["80x24"]) as pilot:
            screen = await start_named(pilot, ["Ann", "Ben"], "f9", EventGameScreen)
            for line in ("5 3 1", "build 4,4:S 5,4:NS 6,4:NS 7,4:NS 8,4:N"):
                await pilot.press(*line, "enter")
                await laid_out(pilot)
                log = screen.query_one("#log", WrappedLog)
                said = str(screen.query_one("#message", Static).render())
                seen.append((log in screen._compositor.visible_widgets, log.outer_size.height, said))
        session = Session.create(
            ALHAMBRA_DICE, paths.games_dir(), ad.GameStarted(("Ann", "Ben")), datetime(2026, 11, 28)
        )
        camera = camera_app(session)
        async with camera.run_test(size=SIZES["80x24"]) as pilot:
            await laid_out(pilot)
            log = camera.screen.query_one("#log", WrappedLog)
            beside = log.region.y == camera.screen.query_one("#camera").region.y
            seen.append(
                (log in camera.screen._compositor.visible_widgets and beside, log.outer_size.height, "")
            )
        return seen

    (rolled, logged, rolled_said), (built, _, built_said), (by_camera, camera_lines, _) = asyncio.run(shown())
    assert rolled and logged >= 4 and rolled_said.startswith("Ann rolled 5 city"), "the log in the lines left"
    assert not built and built_said.startswith("Ann built 5 city dice"), "no line left: the move said"
    assert by_camera and camera_lines == 8, "beside the camera"


@pytest.mark.parametrize("names", [["Ann", "Ben"], ["Ann", "Ben", "Cleo", "Dan", "Eve"]])
def test_carcassonnes_now_panel_is_whole_in_view_at_80x24(xdg: Path, names: list[str]) -> None:
    """What to type, at the start of a turn and after a roll: the Now panel once shared the width with the
    city, and at 80×24 its last lines (where to type) lay below the fold."""

    async def shown() -> list[bool]:
        async with make_app().run_test(size=SIZES["80x24"]) as pilot:
            screen = await start_named(pilot, names, "f9", EventGameScreen)
            middle, now = screen.query_one("#middle"), screen.query_one("#now")
            whole = [middle.region.contains_region(now.region)]
            await pilot.press(*"5 3 1", "enter")
            await pilot.pause()
            return [*whole, middle.region.contains_region(now.region)]

    assert asyncio.run(shown()) == [True, True]


FIVE = ["Ann", "Ben", "Cleo", "Dan", "Eve"]
TYPED_AT_80X24: dict[str, tuple[list[str], tuple[str, ...]]] = {
    "f8": (["Ann", "Ben", "Cleo"], ("draw", "ssaacggt")),
    "f10": (["Ann", "Ben", "Cleo"], ()),
    "f9": (FIVE, ("9 0 0", "build 4,4:S 5,4:NS 6,4:NS 7,4:NS 8,4:N")),
}
"""Each dice game where what to type once lay below the fold at 80×24: the names, then what is typed."""

HOW: dict[str, Callable[[Any], str]] = {
    "f8": alhambra_dice_help,
    "f10": lambda exp: ALCAZABA_HELP[exp.ask],
    "f9": carcassonne_help,
}
"""What each game says may be typed now, and how (the line under its Now panel)."""

DRAWN = re.compile("[│╭╮╰╯─▁▂▃▄▅▆▇█▔]")
"""Borders and scrollbars: no words."""


def words_shown(screen: Screen[object]) -> str:
    """The words on the screen as it is drawn, row after row, borders and scrollbars left out."""
    rows = [DRAWN.sub(" ", strip.text) for strip in screen._compositor.render_strips()]
    return " ".join(" ".join(rows).split())


async def played_at_80x24(pilot: Pilot[object], key: str) -> EventGameScreen[Any, Any]:
    """The game of `key` started for its names, its moves of `TYPED_AT_80X24` typed."""
    names, typed = TYPED_AT_80X24[key]
    screen = await start_named(pilot, names, key, EventGameScreen)
    for line in typed:
        await pilot.press(*line, "enter")
        await laid_out(pilot)
    return screen


@pytest.mark.parametrize("key", TYPED_AT_80X24)
def test_what_to_type_stays_in_view_at_80x24(xdg: Path, key: str) -> None:
    """At 80×24 the line saying what to type (with its example) lay below the fold of the Now panel: after the
    Alhambra dice game's first roll the player read "set dice aside … or place a marker" and no syntax,
    Alcazaba's round start stopped mid-example (`e.g. lay p s a c g/N t`), Carcassonne's under a tall city
    with five players. It stays in view, whole, under the game's prompt, and there too once PageDown has
    paged the board (or pad and city) and the Now panel to their ends."""

    async def shown() -> list[tuple[str, str, str]]:
        async with make_app().run_test(size=SIZES["80x24"]) as pilot:
            screen = await played_at_80x24(pilot, key)
            seen = []
            for _ in range(2):
                exp = screen.session.expectation()
                seen.append((words_shown(screen), exp.prompt, HOW[key](exp)))
                for _ in range(12):
                    await pilot.press("pagedown")
                await laid_out(pilot)
        return seen

    (first, prompt, how), (paged, _, how_paged) = asyncio.run(shown())
    assert " ".join(prompt.split()) in first, first
    assert " ".join(how.split()) in first, first
    assert " ".join(how_paged.split()) in paged, paged


@pytest.mark.parametrize("key", ["f8", "f10"])
def test_alhambra_dice_panels_are_whole_their_scrollbars_inside_at_80x24(xdg: Path, key: str) -> None:
    """At 80×24 the board ran on under the docked Now panel (no bottom border: `╭─ Now` right under its line
    4), and the scrollbars of the board and of the Now panel were drawn outside their right border, in column
    80. Each panel of the middle (borderless at 80×24, as Carcassonne's: the Now panel whole) is whole in it,
    and what scrolls scrolls inside its panel."""

    async def shown() -> None:
        async with make_app().run_test(size=SIZES["80x24"]) as pilot:
            screen = await played_at_80x24(pilot, key)
            middle = screen.query_one("#middle")
            panels = [middle.query_one("#board-box"), middle.query_one("#side")]
            assert all(middle.region.contains_region(panel.region) for panel in panels)
            assert not any(a.region.overlaps(b.region) for a, b in itertools.combinations(panels, 2))
            for panel in scrolling(screen):
                inside = panel.region.shrink(panel.styles.border.spacing)
                assert panel in panels, f"{panel} scrolls outside the board and the Now panel"
                assert inside.contains_region(panel.vertical_scrollbar.region), f"{panel}'s scrollbar"

    asyncio.run(shown())


def test_a_panels_scrollbar_shows_where_it_is_after_a_wider_terminal(xdg: Path) -> None:
    """Paged down at 80×24, the board and the Now panel went back to their tops at 120×40 (whole in view, no
    scrollbar); at 80×24 again their thumbs were drawn half way down over their first lines."""

    async def shown() -> list[tuple[float, float]]:
        async with make_app().run_test(size=SIZES["80x24"]) as pilot:
            screen = await start_named(pilot, ["Ann", "Ben", "Cleo"], "f10", EventGameScreen)
            for _ in range(4):
                await pilot.press("pagedown")
            for size in ((120, 40), SIZES["80x24"]):
                await pilot.resize_terminal(*size)
                await laid_out(pilot)
            return [(panel.scroll_y, panel.vertical_scrollbar.position) for panel in scrolling(screen)]

    scrolled = asyncio.run(shown())
    assert scrolled and all(where == (0, 0) for where in scrolled), scrolled


def test_roll_and_write_top_line_is_whole_with_long_names_at_80x24(xdg: Path) -> None:
    """The top line was one line high: at 80 columns, long names cut "start player: Maximiliane-Josephine"
    to "start"."""
    names = ["Maximiliane-Josephine", "Bartholomew-Augustin", "Christopherus"]

    async def shown() -> tuple[str, int]:
        async with make_app().run_test(size=SIZES["80x24"]) as pilot:
            screen = await start_named(pilot, names, "f5", RollAndWriteScreen)
            status = screen.query_one("#status", Static)
            return str(status.render()), status.size.height

    text, height = asyncio.run(shown())
    assert text.endswith("start player: Maximiliane-Josephine") and height == 2, (text, height)


PAGED = {"f8": (), "f9": ("9 0 0", "build 4,4:S 5,4:NS 6,4:NS 7,4:NS 8,4:N")}
"""Each game where a panel of its middle overflows at 80×24 (Carcassonne's city once a tall one is built),
with what is typed."""


def scrolling(screen: Screen[object]) -> list[Widget]:
    """The middle and its panels, those of them that scroll, in the order they show."""
    middle = screen.query_one("#middle")
    return [panel for panel in (middle, *middle.query(Widget)) if panel.allow_vertical_scroll]


@pytest.mark.parametrize("key", PAGED)
def test_page_keys_bring_every_line_of_the_middle_into_view(xdg: Path, key: str) -> None:
    """At 80×24 the board's lowest lines (a round's first markers), the points track, and Carcassonne's tall
    city lie below the fold, and the entry line keeps the focus: PageDown walks down to them, a view at a time
    (no line skipped), then the Now panel where it overflows too; PageUp back."""

    async def paged() -> None:
        async with make_app().run_test(size=SIZES["80x24"]) as pilot:
            screen = await start_named(pilot, ["Ann", "Ben"], key, EventGameScreen)
            for line in PAGED[key]:
                await pilot.press(*line, "enter")
                await pilot.pause()
            panels = scrolling(screen)
            assert panels and all(panel.max_scroll_y > 0 for panel in panels)
            # A view is what shows of a panel: a part docked in it (the Now panel's what to type) hides some.
            views = [
                panel.scrollable_content_region.height
                - sum(child.outer_size.height for child in panel.children if child.styles.is_docked)
                for panel in panels
            ]
            for _ in range(20):
                before = [panel.scroll_y for panel in panels]
                await pilot.press("pagedown")
                await pilot.pause()
                moved = [panel.scroll_y - y for panel, y in zip(panels, before, strict=True)]
                assert all(0 <= lines <= view for lines, view in zip(moved, views, strict=True)), moved
            assert all(panel.scroll_y == panel.max_scroll_y for panel in panels)
            for _ in range(20):
                await pilot.press("pageup")
                await pilot.pause()
            assert all(panel.scroll_y == 0 for panel in panels)

    asyncio.run(paged())


DOORS: dict[str, tuple[str, ...]] = {
    "start": ("#saved", "#name1", "#start-player", "#variant", "#sheet", "#start-game", "#edit-sheet"),
    "f2": ("#grid", "#sheet-name", "#coins", "#save"),
    "f4": ("#games", "#plot"),
}
"""The screens that lead to the games, and what on each must have room: by the key that opens it."""


@pytest.mark.parametrize("door", DOORS)
def test_the_doors_to_the_games_fit_a_phones_width(xdg: Path, door: str) -> None:
    """The game screens lay themselves out at 40 columns; the screens before them squeezed two columns into
    it, a choice box a letter wide (one letter a line). Each field has room and scrolls into view."""
    saved_game(random_game(2, ("Anna", "Ben", "Cleo")), NAME)

    async def opened() -> None:
        async with make_app().run_test(size=(40, 30)) as pilot:
            if door != "start":
                await pilot.press(door)
                await pilot.pause()
            screen = pilot.app.screen
            for selector in DOORS[door]:
                widget = screen.query_one(selector)
                widget.scroll_visible(animate=False, immediate=True)
                await pilot.pause()
                assert widget.region.width >= 15, f"{selector}: {widget.region.width} columns"
                assert widget in screen._compositor.visible_widgets, f"{selector} cannot be seen"

    asyncio.run(opened())


@pytest.mark.parametrize("size", [(80, 24), (40, 30)])
def test_the_start_screens_headings_are_whole(xdg: Path, size: tuple[int, int]) -> None:
    """At 80×24 "Continue a saved game (del deletes one)" was cut to "(del deletes one", on one line."""

    async def shown() -> list[tuple[str, str, bool]]:
        async with make_app().run_test(size=size) as pilot:
            labels = pilot.app.screen.query(".heading").results(Label)
            return [
                (
                    str(label.content),
                    " ".join(s.text for s in label.render_lines(label.region.reset_offset)),
                    label.parent is not None and label.region in label.parent.content_region,
                )
                for label in labels
            ]

    for whole, drawn, inside in asyncio.run(shown()):
        assert " ".join(drawn.split()) == whole, f"{whole!r} drawn as {drawn!r}"
        assert inside, f"{whole!r} runs past its column"


def test_the_final_scoring_is_whole_at_a_phones_width(xdg: Path) -> None:
    """Roll & Write's totals are eleven columns: at 40 columns each was cut to "…", names and sums too. They
    turn to a column a player there."""
    saved_game(random_game(2, ("Anna", "Ben", "Cleo")), NAME)

    async def ended() -> tuple[str, dict[str, int]]:
        async with make_app().run_test(size=(40, 30)) as pilot:
            await pilot.press("enter")  # the finished game opens its scoring
            await pilot.pause()
            screen = pilot.app.screen
            assert isinstance(screen, RollAndWriteEndScreen)
            totals = screen.query_one("#totals", Static)
            return text_of(totals, totals.content_size.width), {p.name: p.total for p in screen.board.players}

    text, sums = asyncio.run(ended())
    assert "…" not in text, text
    names, *_, total = text.strip().splitlines()
    assert names.split() == list(sums) and total.split() == ["total", *map(str, sums.values())], text


@pytest.mark.parametrize("where", ["replay", "view"])
def test_the_worth_so_far_is_a_line_a_player_at_a_phones_width(xdg: Path, where: str) -> None:
    """In the replay (F4, r) and the table's view at 40 columns each player's line was 38 characters in 36:
    its total wrapped onto a line of its own, under the name."""
    saved_game(random_game(2, ("Anna", "Ben", "Cleo")), NAME)

    async def shown() -> int:
        app: App[None] = make_app() if where == "replay" else TableView(paths.games_dir())
        async with app.run_test(size=(40, 40)) as pilot:
            if where == "replay":
                await pilot.press("f4", "r")
            await pilot.pause(0.2)
            return pilot.app.screen.query_one("#scores", Static).content_size.height

    lines = 4 if where == "replay" else 5  # the replay's first move has no leader, the view's game a winner
    assert asyncio.run(shown()) == lines, "a heading, a line for each of the three players, who leads or won"


def test_a_wrapped_reason_goes_on_under_the_reasons_and_never_under_a_label(xdg: Path) -> None:
    """The dice games' breakdown is indented by what each line is of (the scoring, the player, the building,
    its number, the number's reason). Wrapped as one text, a long reason's rest ran back to the first column;
    wrapped under its own line's start, it read as a building of its own ("points: no place" under
    "pavilion"). A reason goes on under the reasons where they have room, two past its row's start on a
    phone (under no label); any other line under its own start."""
    alhambra_dice(moves=None)

    async def ended() -> tuple[str, Static, int]:
        async with make_app().run_test(size=(40, 30)) as pilot:
            await continued(pilot)
            screen = pilot.app.screen
            assert isinstance(screen, EndScreen)
            panel = screen.query_one("#reasons", Static)
            return screen.scored.why(), panel, panel.content_size.width

    text, panel, phone = asyncio.run(ended())
    rows = 0
    for width in (phone, 100):
        for line, rest in wrapped_under(text, text_of(panel, width).splitlines()):
            start = len(line) - len(line.lstrip())
            reason = re.match(r"\s*\S.*?\d  (?=\S)", line)
            if reason is None:
                assert set(rest) <= {start}, f"{line!r} went on at {rest}"
                continue
            rows += bool(rest)
            under = reason.end() if width == 100 else start + 2
            assert set(rest) <= {under}, f"{line!r} went on at {rest} at {width} columns, not at {under}"
    assert rows, "a reason wrapped"
