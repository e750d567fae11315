"""The start screen after `n` on a finished game's end screen: the same table's next game, ready to start."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from app_driver import make_app, random_game, saved_game, saved_log
from textual.widgets import Input, Select

from companion.app.screens.alcazaba import AlcazabaScreen
from companion.app.screens.alhambra_dice import AlhambraDiceScreen
from companion.app.screens.carcassonne_dice import CarcassonneDiceScreen
from companion.app.screens.end import EndScreen
from companion.app.screens.new_game_form import MAX_PLAYERS
from companion.app.screens.play import PlayScreen
from companion.app.screens.roll_and_write import RollAndWriteScreen
from companion.app.screens.start import StartScreen
from companion.games import alhambra_dice as ad
from companion.games import alhambra_rw as rw
from companion.games import carcassonne_dice as cd
from companion.games.alhambra_dice.scorefile import log_text as ad_log_text
from companion.games.alhambra_dice.simulate import play_random_game as ad_play
from companion.games.alhambra_rw.simulate import play_random_game as rw_play
from companion.games.carcassonne_dice.scorefile import log_text as cd_log_text
from companion.games.carcassonne_dice.simulate import play_random_game as cd_play


def form(screen: object) -> dict[str, object]:
    """What the start screen's form holds, and whether a name of it has the focus."""
    assert isinstance(screen, StartScreen)
    focused = screen.focused
    return {
        "game": screen.query_one("#game", Select).value,
        "names": [screen.query_one(f"#name{n}", Input).value for n in range(1, MAX_PLAYERS + 1)],
        "variant": screen.query_one("#variant", Select).value,
        "focus in a name": isinstance(focused, Input) and focused.has_class("name"),
    }


async def next_game_after(finished: Path, kind: type[PlayScreen]) -> tuple[dict[str, object], Any]:
    """Open the finished game's scoring from the saved games (past the game still played, listed first),
    press `n`, and Enter on the start screen that comes back: the form as `n` left it, and the session of
    the screen Enter opened (of `kind`)."""
    async with make_app().run_test(size=(110, 34)) as pilot:
        await pilot.press("down", "enter")
        await pilot.pause()
        end = pilot.app.screen
        assert isinstance(end, EndScreen) and end.log_path == finished, end
        await pilot.press("n")
        await pilot.pause()
        seen = form(pilot.app.screen)
        await pilot.press("enter")
        await pilot.pause()
        opened = pilot.app.screen
        assert isinstance(opened, kind), opened
        return seen, opened.session


def waiting_game() -> Path:
    """A Roll & Write game of the evening still being played: Enter in the saved games continues it."""
    return saved_game(random_game(1, ("Anna", "Ben", "Clara"))[:30], "waiting.jsonl")


def test_n_after_roll_and_write_fills_its_real_players_and_variant_and_enter_starts_a_new_game(
    xdg: Path,
) -> None:
    """`n` gave an empty form with the saved games focused ("Enter continues … Anna, Ben, Clara"): the
    group that pressed Enter landed in an old game. The form now holds the game just finished: its real
    player (not its three imaginary ones) and its variant, a name focused, and Enter starts a new game."""
    setup = rw.GameStarted(
        rw.load_shipped_sheet("example"), ("Dora",), ("Ani", "Dirk", "Marc"), "versus-imaginary"
    )
    events = rw_play(setup, random.Random(4))[1]
    waiting, finished = waiting_game(), saved_game(events, "finished.jsonl")
    seen, session = asyncio.run(next_game_after(finished, RollAndWriteScreen))
    assert seen == {
        "game": "roll_and_write",
        "names": ["Dora", "", "", "", "", ""],
        "variant": (3, "versus-imaginary"),
        "focus in a name": True,
    }
    assert session.path not in (finished, waiting) and session.state.round == 0
    assert session.setup == setup, "the same sheet, players, imaginary players and variant"


@dataclass(frozen=True)
class DiceGame:
    """A dice game to play to its end at random, its log's text, and what the form's next game is."""

    setup: ad.GameStarted | cd.GameStarted
    play: Callable[[Any, random.Random], tuple[object, list[Any]]]
    log_text: Callable[[list[Any]], str]
    action: str
    """The game choice's value for it."""
    screen: type[PlayScreen]


DICE_GAMES = {
    # Two players: Dirk joins them, and is no player to type in again.
    "alhambra-dice": DiceGame(
        ad.GameStarted(("Ann", "Ben")), ad_play, ad_log_text, "alhambra_dice", AlhambraDiceScreen
    ),
    "alcazaba": DiceGame(
        ad.GameStarted(("Cleo", "Ann", "Ben"), "alcazaba"),
        ad_play,
        ad_log_text,
        "alcazaba",
        AlcazabaScreen,
    ),
    "carcassonne-dice": DiceGame(
        cd.GameStarted(("Ben", "Cleo", "Ann")),
        cd_play,
        cd_log_text,
        "carcassonne_dice",
        CarcassonneDiceScreen,
    ),
}


@pytest.mark.parametrize("game", DICE_GAMES)
def test_n_after_a_dice_game_chooses_it_again_for_its_players_in_seat_order(xdg: Path, game: str) -> None:
    """The game chosen and the names typed are the game just finished's, its start player first (the
    seating clockwise from there, as the form starts it), without the imaginary Dirk."""
    dice = DICE_GAMES[game]
    events = dice.play(dice.setup, random.Random(3))[1]
    waiting, finished = waiting_game(), saved_log(dice.log_text(events), "finished.jsonl")
    seen, session = asyncio.run(next_game_after(finished, dice.screen))
    players = list(dice.setup.players)
    assert seen["game"] == dice.action, seen
    assert seen["names"] == players + [""] * (MAX_PLAYERS - len(players)), seen
    assert seen["focus in a name"], "Enter starts the next game, not the one the saved games highlight"
    assert session.path not in (finished, waiting) and session.setup == dice.setup
