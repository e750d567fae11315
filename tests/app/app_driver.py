"""Drives the companion app through keys, as a player at the table would press them.

The test plays the part of the players: it looks at what the app shows (the session's state, as drawn on
screen) and presses keys; it decides nothing about the rules (illegal keys would show the engine's reason).
"""

from __future__ import annotations

import random
from datetime import datetime

from textual import events
from textual.pilot import Pilot

from companion.app.app import CompanionApp
from companion.app.screens.end import EndScreen
from companion.app.screens.game import GameScreen
from companion.games import alhambra_rw as rw

FIXED_NOW = datetime(2026, 11, 23, 20, 15, 0)


def make_app(seed: int = 7) -> CompanionApp:
    return CompanionApp(rng=random.Random(seed), now=lambda: FIXED_NOW)


CHARACTERS = {"enter": "\r", "plus": "+", "minus": "-", "tab": "\t", "backspace": "\x7f", "escape": "\x1b"}


async def send_keys(pilot: Pilot[None], keys: list[str]) -> None:
    """Press `keys` as one burst (a fast typist), then wait until the app has handled them all.

    `Pilot.press` waits for the app to go idle after every single key (40 ms or more each); a whole game
    is hundreds of presses, so one decision's keys go in together. The game screen handles each key
    completely before the next one, so the result is the same.
    """
    for key in keys:
        pilot.app.post_message(events.Key(key, CHARACTERS.get(key, key if len(key) == 1 else None)))
    await pilot.pause()


def game_screen(app: CompanionApp) -> GameScreen:
    screen = app.game_screen()
    assert screen is not None, f"no game screen; the screen is {app.screen!r}"
    return screen


async def new_game(pilot: Pilot[None], names: list[str], variant_downs: int = 0) -> GameScreen:
    """On the start screen: type the names (tab between them), tab to the variant and pick it, F5 starts."""
    keys: list[str] = []
    for n, name in enumerate(names):
        if n:
            keys.append("tab")
        keys.extend(name)
    if variant_downs:
        # From the last name: the remaining name fields, the start player, then the variant.
        keys += ["tab"] * (5 - len(names) + 2) + ["enter", *["down"] * variant_downs, "enter"]
    await pilot.press(*keys, "f5")
    await pilot.pause()
    return game_screen(pilot.app)  # type: ignore[arg-type]


def dice_keys(exp: rw.Expectation, rng: random.Random) -> list[str]:
    """Keys that type the dice the game asks for, e.g. `y 3 b 5 enter`."""
    keys: list[str] = []
    for colour, count in (("y", exp.yellow), ("b", exp.blue)):
        for _ in range(count):
            keys += [colour, str(rng.randint(1, 6))]
    return [*keys, "enter"]


def next_keys(screen: GameScreen, rng: random.Random) -> list[str]:
    """What a player presses next: typed dice, a crossing's number, c, t, y3+, 1 for a pair to keep..."""
    state = screen.session.state
    exp = screen.session.expectation()
    if exp.ask is rw.Ask.ACTION:
        player = state.active_player
        if exp.can_change_pips and rng.random() < 0.15:
            die = player.yellow[0]
            return ["y", str(die), "plus" if die < 6 else "minus"]
        crossings = rw.crossings(state)
        free = [n for n, c in enumerate(crossings, start=1) if not c.crossed]
        if free and rng.random() < 0.9:
            return [str(rng.choice(free))]
        return ["c"]
    if exp.ask is rw.Ask.KEEP_PAIR:
        return [str(rng.randint(1, len(rw.legal_actions(state))))]
    if exp.ask is rw.Ask.REROLL_USED_PAIR and exp.can_cross_second and rng.random() < 0.5:
        return ["t"]
    if exp.yellow + exp.blue:
        # Imaginary players' rolls are made by the app (auto-roll); a real player's are typed.
        return dice_keys(exp, rng)
    raise AssertionError(f"nothing to press for {exp}")


async def play_to_end(pilot: Pilot[None], rng: random.Random, max_steps: int = 2000) -> EndScreen:
    app = pilot.app
    for _ in range(max_steps):
        if isinstance(app.screen, EndScreen):
            return app.screen
        screen = game_screen(app)  # type: ignore[arg-type]
        await send_keys(pilot, next_keys(screen, rng))
    raise AssertionError("the game did not end")
