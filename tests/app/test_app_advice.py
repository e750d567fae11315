"""Advice through the real app: ctrl+a on every game's screen (`h` on Roll & Write's, the line
`h` on the dice games') opens the panel with each choice best first, computed on a worker thread; it never
makes a move (the game and its log stay as they were) and esc goes back to the game."""

from __future__ import annotations

import asyncio
import io
import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from app_driver import FIXED_NOW, camera_app, make_app
from rich.console import Console
from test_app_alhambra_pad import new_pad_for_ann_and_ben
from test_app_frames import new_game, pips, settle
from textual.pilot import Pilot
from textual.widgets import Input, Static

from companion.app.app import CompanionApp
from companion.app.screens.advice import NONE_TO_ADVISE, AdviceScreen, AdviceTable
from companion.app.screens.alhambra_dice import AlhambraDiceScreen
from companion.app.screens.play import PlayScreen
from companion.games import alhambra_dice as ad
from companion.games import carcassonne_dice as cd
from companion.games.advice import Advice, Estimate
from companion.games.alhambra_dice.alcazaba import AlcazabaGame
from companion.games.alhambra_dice.entry import RULES as ALHAMBRA_DICE
from companion.games.alhambra_dice.simulate import play_random_game, prepare
from companion.games.alhambra_rw.endstate import GAME_ID as RW
from companion.games.alhambra_rw.entry import RULES as ROLL_AND_WRITE
from companion.games.session import Session
from companion.games.table import GAMES
from vision.reading import Box, DiceReading, Die


def session_at_decision(folder: Path, game_id: str) -> Session[Any, Any, Any]:
    """A game of `game_id` played by the random player until a player has a decision to be advised on."""
    entry = GAMES[game_id]
    assert entry.rules is not None and entry.random_game is not None and entry.advice is not None
    events = entry.random_game(2, random.Random(2))
    session = Session.create(entry.rules, folder, events[0], FIXED_NOW)
    for event in events[1:]:
        if not isinstance(entry.advice.decision(session.state), str) and len(session.events) > 12:
            break
        session.submit(event)
    return session


async def opened(pilot: Pilot[None], keys: list[str]) -> AdviceScreen:
    await pilot.press(*keys)
    await pilot.pause()
    screen = pilot.app.screen
    assert isinstance(screen, AdviceScreen)
    await screen.workers.wait_for_complete()
    await pilot.pause()
    return screen


def shown(screen: AdviceScreen) -> str:
    """The panel's text as drawn (its table too)."""
    console = Console(width=200, record=True, file=io.StringIO())
    for static in screen.query(Static):
        console.print(static.content)
    return console.export_text()


@pytest.mark.parametrize(
    ("game_id", "keys"),
    [
        (RW, ["ctrl+a"]),
        (RW, ["h"]),
        (ad.GAME_ID, ["ctrl+a"]),
        (ad.GAME_ID, ["h", "enter"]),
        (cd.GAME_ID, ["ctrl+a"]),
        (cd.GAME_ID, ["h", "enter"]),
    ],
)
def test_advice_lists_the_choices_and_makes_no_move(xdg: Path, game_id: str, keys: list[str]) -> None:
    session = session_at_decision(xdg / "games", game_id)
    log_before = session.path.read_bytes()
    state_before = session.state

    async def ask() -> tuple[AdviceScreen, str, bool]:
        app = CompanionApp(rng=random.Random(1), now=lambda: FIXED_NOW, game=session)
        async with app.run_test(size=(110, 36)) as pilot:
            game = pilot.app.screen
            assert isinstance(game, PlayScreen)
            advice = await opened(pilot, keys)
            text = shown(advice)
            await pilot.press("escape")
            await pilot.pause()
            return advice, text, pilot.app.screen is game

    screen, text, back = asyncio.run(ask())
    assert back
    assert screen.advice is not None and screen.advice.estimates, text
    best = screen.advice.estimates[0]
    # What "best" is, said: Carcassonne, a race to 42, ranks by the chance to win (unsaid, its second
    # choice's higher score read as a misranking).
    best_first = "the likeliest win first" if game_id == cd.GAME_ID else "the best expected score first"
    assert best.playouts > 0 and best.words in text and best_first in text, text
    assert session.path.read_bytes() == log_before and session.state is state_before


def test_advice_while_the_game_waits_for_dice_says_roll_first(xdg: Path) -> None:
    entry = GAMES[cd.GAME_ID]
    assert entry.rules is not None
    session = Session.create(entry.rules, xdg / "games", cd.GameStarted(("Ann", "Ben")), FIXED_NOW)

    async def ask() -> tuple[str, str]:
        app = CompanionApp(rng=random.Random(1), now=lambda: FIXED_NOW, game=session)
        async with app.run_test(size=(110, 36)) as pilot:
            screen = await opened(pilot, ["ctrl+a"])
            text = shown(screen)
            await pilot.press("escape")
            await pilot.pause()
            return text, pilot.app.screen.query_one("#entry", Input).value

    text, line = asyncio.run(ask())
    assert "nothing to advise now: roll first: Ann: roll 9 dice" in text
    assert line == ""


def test_the_original_alhambras_pad_has_no_decisions_to_advise(xdg: Path) -> None:
    async def ask() -> str:
        async with make_app().run_test(size=(110, 36)) as pilot:
            await new_pad_for_ann_and_ben(pilot)
            screen = await opened(pilot, ["ctrl+a"])
            return shown(screen)

    assert NONE_TO_ADVISE in asyncio.run(ask())


def test_on_a_phone_each_choice_is_its_words_then_its_figures() -> None:
    """A table's five columns at 40 would cut a choice's words to a few letters."""
    words = "set aside the 1 arcades, roll the other 7"
    advice = Advice("Ann", (Estimate(words, 52, 97.6, 2.6, 0.49),))

    def drawn(width: int) -> str:
        console = Console(width=width, record=True, file=io.StringIO())
        console.print(AdviceTable().draw(advice, width))
        return console.export_text()

    phone = " ".join(drawn(36).split())  # wrapped at the panel's width, every word whole
    assert words in phone and "score 97.6 ±2.6 · win 49% · 52 playouts" in phone
    assert words in drawn(80) and "97.6" in drawn(80)


def test_on_a_phone_a_choices_wrapped_rows_go_on_under_its_words() -> None:
    """At 40 columns a choice's words and figures wrapped back to the first column ("57 playouts" under the
    choice's number): each row goes on under its own column."""
    words = "pass y3 b5 to 李小龍 and keep the pavilion for Zoë🎲"
    advice = Advice("Jürgen", tuple(Estimate(f"{words} {n}", 57, 97.6, 2.6, 0.49) for n in range(10)))
    console = Console(width=28, record=True, file=io.StringIO())
    console.print(AdviceTable().draw(advice, 28))
    rows = console.export_text().splitlines()
    numbered = [row for row in rows if re.match(r" *\d+  \S", row)]
    assert len(numbered) == 10, rows
    assert all(row[:4].strip().isdigit() and row[4] != " " for row in numbered), rows
    assert all(row.startswith(" " * 4) and row[4] != " " for row in rows if row not in numbered), rows
    assert " ".join(" ".join(rows).split()).count("· 57 playouts") == 10, rows


def test_a_chance_to_win_short_of_sure_or_of_none_is_not_rounded_to_it() -> None:
    """399 wins of 400 showed 100% beside a choice that won every game; 1 of 400 showed 0%."""
    wins = (1.0, 399 / 400, 0.5, 1 / 400, 0.0)
    advice = Advice("Ann", tuple(Estimate(f"choice {n}", 400, 42.0, 0.1, win) for n, win in enumerate(wins)))
    for width in (36, 80):
        console = Console(width=width, record=True, file=io.StringIO())
        console.print(AdviceTable().draw(advice, width))
        assert re.findall(r"[<>]?\d+%", console.export_text()) == ["100%", ">99%", "50%", "<1%", "0%"]


def unsure_roll_and_write(folder: Path) -> tuple[CompanionApp, Callable[[CompanionApp], None], str]:
    """A Roll & Write game read by the camera, which is unsure of the first set-up roll's yellow die."""
    session = Session.create(ROLL_AND_WRITE, folder, new_game(folder), FIXED_NOW)
    unsure = pips(("yellow", 3, 0.55), ("blue", 5, 0.97))

    def read(app: CompanionApp) -> None:
        settle(app, unsure)
        app.roll_and_write_screen().put_to_game(unsure)

    return camera_app(session), read, "h"


def unsure_alhambra_dice(folder: Path) -> tuple[CompanionApp, Callable[[CompanionApp], None], str]:
    """An Alhambra dice game whose first roll the camera reads, unsure of every die."""
    setup = ad.GameStarted(("Ann", "Ben", "Cleo"))
    session = Session.create(ALHAMBRA_DICE, folder, setup, FIXED_NOW)
    session.submit(prepare(ad.fold(session.events), random.Random(1)))
    faces = ["tower"] * 6 + ["pavilion"] * 2
    unsure = DiceReading(
        tuple(
            Die(Box(40 * n, 0, 40 * n + 30, 30), "symbol", "white", 0.6, face=face, rotation=0)
            for n, face in enumerate(faces)
        ),
        0.0,
    )

    def read(app: CompanionApp) -> None:
        screen = app.screen
        assert isinstance(screen, AlhambraDiceScreen)
        screen.camera = True  # the screen of an app with a camera, whose ctrl+k takes the camera's dice
        screen.table_settled(unsure)

    return CompanionApp(rng=random.Random(1), now=lambda: FIXED_NOW, game=session), read, "ctrl+a"


@pytest.mark.parametrize(("game", "accept"), [(unsure_roll_and_write, "k"), (unsure_alhambra_dice, "ctrl+k")])
def test_advice_while_a_camera_reading_waits_says_to_confirm_it(
    xdg: Path, game: Callable[[Path], tuple[CompanionApp, Callable[[CompanionApp], None], str]], accept: str
) -> None:
    """The dice lie on the table, read but unsure: the advice said "roll first"."""
    app, read, key = game(xdg / "games")

    async def ask() -> tuple[str, str]:
        async with app.run_test(size=(110, 36)) as pilot:
            game = app.screen
            assert isinstance(game, PlayScreen)
            session = game.session
            read(app)
            await pilot.pause()
            text = shown(await opened(pilot, [key]))
            await pilot.press("escape", accept)
            await pilot.pause()
            return text, session.events[-1].source

    text, source = asyncio.run(ask())
    assert f"nothing to advise now: confirm the camera's dice ({accept}) or type them first" in text, text
    assert source == "camera"


def test_alcazabas_advice_says_the_rebuild_action_is_left_out(xdg: Path) -> None:
    """After roll 1 or 2 a rebuild action may replace the marker: the advice listed the other choices as if
    they were all there were."""
    events = play_random_game(ad.GameStarted(("Ann", "Ben"), "alcazaba"), random.Random(3))[1]
    session = Session.create(ALHAMBRA_DICE, xdg / "games", events[0], FIXED_NOW)
    for event in events[1:]:
        game = ad.fold(session.events)
        assert isinstance(game, AlcazabaGame)
        who = game.active
        if game.ask is ad.Ask.CHOOSE and game.rolls in (1, 2) and game.alhambras[who] and game.reserves[who]:
            break
        session.submit(event)

    async def ask() -> str:
        app = CompanionApp(rng=random.Random(1), now=lambda: FIXED_NOW, game=session)
        async with app.run_test(size=(110, 36)) as pilot:
            return shown(await opened(pilot, ["ctrl+a"]))

    text = asyncio.run(ask())
    assert "the best expected score first" in text
    under_the_table = text.rstrip().splitlines()[-1]
    assert under_the_table == "not advised: a rebuild action instead of the marker (`rebuild …`)", text
