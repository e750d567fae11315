"""What the screen says must read without colour, and the dice in the colours of the real ones.

Under NO_COLOR Textual turns each colour into a grey as bright as it is: a refusal in red became a dark grey
(1.65:1 on the background) told apart from ordinary text by nothing; in 16 colours it was as bright a red as
the headings. The dice were drawn in the named colours "yellow" and "blue", which Textual takes from its ANSI
theme: orange and purple, and with 16 colours the yellow die turned bright red, the footer keys' red.
"""

from __future__ import annotations

import asyncio
import colorsys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from app_driver import (
    FIXED_NOW,
    camera_app,
    make_app,
    new_game,
    random_game,
    saved_game,
    send_keys,
    start_named,
    type_entry,
)
from rich.color import Color, ColorSystem
from rich.console import Console, Group
from rich.style import Style
from rich.text import Text
from textual.app import App
from textual.widget import Widget
from textual.widgets import Static

from companion.app.screens.carcassonne_dice import CarcassonneDiceScreen
from companion.app.screens.evidence import EvidenceScreen
from companion.app.widgets.camera_panel import CameraPanel
from companion.app.widgets.frame_view import FrameView
from companion.games import alhambra_rw as rw
from companion.games.alhambra_rw.entry import RULES
from companion.games.session import Session

SIZE = (100, 32)


def style_of(text: Text, part: str) -> Style:
    """The style `part` of `text` is drawn in (where it starts)."""
    return text.get_style_at_offset(Console(), text.plain.index(part))


def drawn_style(widget: Widget, part: str) -> Style:
    """The style of the first segment starting with the word `part` among the lines `widget` draws."""
    for y in range(widget.size.height):
        for segment in widget.render_line(y):
            if segment.text.split()[:1] == [part]:
                return segment.style or Style()
    raise AssertionError(f"{part!r} is not drawn")


def looks_like_an_error(style: Style, app: App[Any]) -> None:
    """Bold reverse video at every colour depth: under NO_COLOR at the full brightness of ordinary text, in
    colour in red."""
    css = app.get_css_variables()
    assert style.bold and style.reverse, style
    assert style.color == Color.parse(css["foreground" if app.no_color else "error"]), style


@pytest.fixture(params=[True, False], ids=["NO_COLOR", "colour"])
def no_color(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> bool:
    """NO_COLOR set (or not) before the app is made: Textual reads it once, as the app starts."""
    if request.param:
        monkeypatch.setenv("NO_COLOR", "1")
    else:
        monkeypatch.delenv("NO_COLOR", raising=False)
    return bool(request.param)


def test_a_roll_and_write_refusal_stands_out(xdg: Path, no_color: bool) -> None:
    async def play() -> None:
        app = make_app()
        async with app.run_test(size=SIZE) as pilot:
            assert app.no_color is no_color
            screen = await new_game(pilot, ["Anna", "Ben", "Cleo"])
            await send_keys(pilot, ["c"])  # no coins to take before the set-up's dice
            assert screen.error and screen.message.endswith("not taking coins")
            shown = screen.query_one("#turn", Static).content
            assert isinstance(shown, Text)
            looks_like_an_error(style_of(shown, screen.message), app)

    asyncio.run(play())


def test_a_dice_games_refusal_on_its_message_line_stands_out(xdg: Path, no_color: bool) -> None:
    async def play() -> None:
        app = make_app()
        async with app.run_test(size=SIZE) as pilot:
            screen = await start_named(pilot, ["Ann", "Ben"], "f9", CarcassonneDiceScreen)
            said = await type_entry(pilot, CarcassonneDiceScreen, "stop")
            assert said == "Ann must roll first"
            looks_like_an_error(drawn_style(screen.query_one("#message", Static), "Ann"), app)

    asyncio.run(play())


def test_a_refusal_on_the_start_form_is_no_heading_in_16_colours(xdg: Path) -> None:
    """In 16 colours (TERM=xterm, screen, linux) red and the accent are both bright red: a name refused was
    drawn bold bright red, as the form's headings and the footer keys are."""

    async def refuse() -> None:
        app = make_app()
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press(*"3 4 5", "f5")
            await pilot.pause()
            message = drawn_style(app.screen.query_one("#message", Static), "'3")
            heading = drawn_style(app.screen.query_one("#players", Static), "players,")
            looks_like_an_error(message, app)
            in_16 = [
                (style.color and style.color.downgrade(ColorSystem.STANDARD), style.bold, style.reverse)
                for style in (message, heading)
            ]
            assert in_16[0] != in_16[1], in_16

    asyncio.run(refuse())


def test_a_missing_frame_stands_out(xdg: Path, no_color: bool) -> None:
    events = random_game(2, ("Anna", "Ben", "Cleo"))
    move, roll = next((n, e) for n, e in enumerate(events) if isinstance(e, rw.Roll) and n > 5)
    events[move] = replace(roll, source="camera", frame="0001.jpg")  # a frame never written
    saved_game(events, "done.jsonl")

    async def look() -> None:
        app = make_app()
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("f4", "o")
            await pilot.pause()
            assert isinstance(app.screen, EvidenceScreen)
            shown = app.screen.query_one(FrameView).content
            assert isinstance(shown, Group)
            under = shown.renderables[-1]
            assert isinstance(under, Text) and "frame missing" in under.plain, under
            looks_like_an_error(style_of(under, "frame missing"), app)

    asyncio.run(look())


def test_a_lost_camera_stands_out(tmp_path: Path, no_color: bool) -> None:
    setup = rw.GameStarted(rw.load_shipped_sheet("example"), ("Barbara", "Dirk", "Patricia"))
    session = Session.create(RULES, tmp_path / "games", setup, FIXED_NOW)

    async def look() -> None:
        app = camera_app(session)  # its camera never opens: the feed says the camera is lost
        async with app.run_test(size=SIZE) as pilot:
            panel = app.screen.query_one(CameraPanel)
            for _ in range(100):
                if panel.status.state == "camera lost":
                    break
                await pilot.pause(0.05)
            shown = panel.content
            assert isinstance(shown, Group)
            status = shown.renderables[0]
            assert isinstance(status, Text) and status.plain.startswith("camera lost: no camera here"), status
            # The first retries come within a second: they read "retry in 0 s". A retry being made says so.
            said = status.plain
            assert "(retry in " in said or "(trying again now)" in said, said
            assert "(retry in 0 s)" not in said and "(retry in 0.0 s)" not in said, said
            for part in ("camera lost", "no camera here"):
                looks_like_an_error(style_of(status, part), app)

    asyncio.run(look())


def hue(color: Color) -> float:
    """The colour's hue in degrees (0 red, 60 yellow, 240 blue)."""
    red, green, blue = color.get_truecolor()
    return colorsys.rgb_to_hsv(red / 255, green / 255, blue / 255)[0] * 360


# The 16 colours' numbers of yellow and blue (and their bright forms): what a 16-colour terminal shows.
STANDARD = {"yellow": (3, 11), "blue": (4, 12)}
HUES = {"yellow": (45, 65), "blue": (210, 245)}


def reads_as(color: Color | None, name: str) -> None:
    """`color` is `name` in truecolor, brought down to 256 colours and to 16: no colour of a theme's."""
    assert color is not None and not color.is_system_defined, f"{name} drawn in the theme's {color}"
    low, high = HUES[name]
    for shown in (color, color.downgrade(ColorSystem.EIGHT_BIT)):
        assert low <= hue(shown) <= high, (name, shown, hue(shown))
    assert color.downgrade(ColorSystem.STANDARD).number in STANDARD[name], (name, color)


def test_the_dice_are_drawn_yellow_and_blue_at_every_colour_depth(xdg: Path) -> None:
    # The set-up by typed dice (everyone y1 b1, y2 b2, y3 b3; the fields' dice; Anna's pair): her dice show.
    setup = [f"y{v} b{v}" for v in (1, 1, 1, 2, 2, 2, 3, 3, 3)] + ["y1 b1", "y4 b4", "y5 b5", "y2 b3"]

    async def play() -> None:
        async with make_app().run_test(size=SIZE) as pilot:
            screen = await new_game(pilot, ["Anna", "Ben", "Cleo"])
            await send_keys(pilot, [key for dice in setup for key in [*dice.replace(" ", ""), "enter"]])
            turn, grid = screen.query_one("#turn", Static), screen.query_one("#grid", Static)
            assert "dice: y1 y2 b1 b3" in str(turn.content)
            drawn = {
                "yellow": [drawn_style(turn, "y1").color, drawn_style(grid, "y1").color],
                "blue": [drawn_style(turn, "b1").color, drawn_style(grid, "b1").color],
            }
            for name, colours in drawn.items():
                reads_as(colours[0], name)
                assert len(set(colours)) == 1, f"{name} dice drawn in {colours}: one colour everywhere"

    asyncio.run(play())
