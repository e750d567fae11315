"""A random player: plays legal games through the real fold (for tests, the benchmark and example logs).

Dice are rolled here with a seeded `random.Random`, never inside the engine: every roll becomes a `Roll`
event with its values, exactly like a camera reading or a virtual roll for an imaginary player.
"""

from __future__ import annotations

import random

from .. import folding
from .engine import Game
from .events import ChangePips, CrossBuilding, Event, GameStarted, KeepPair, Roll, TakeCoins
from .state import Ask

_ROLL_SIZES = {
    Ask.SETUP_CROSS: 1,
    Ask.SETUP_IMAGINARY: 1,
    Ask.SETUP_DICE: 1,
    Ask.SETUP_EXTRA_PAIR: 1,
    Ask.REROLL_USED_PAIR: 1,
    Ask.IMAGINARY_TURN: 1,
    Ask.ROLL_ALL: 2,
}


def random_decision(game: Game, rng: random.Random) -> Event:
    """A legal event for the game now, chosen at random (rolls get random dice values)."""
    ask, who = game.ask, game.active
    name = game.names[who]
    if ask is Ask.ACTION:
        coins = game.circled[who] - game.spent[who]
        if coins and rng.random() < 0.25:
            return _random_pip_change(game, rng, coins)
        free = _free_cells(game, who)
        if free and rng.random() < 0.85:
            yellow, blue = rng.choice(free)
            return CrossBuilding(name, yellow, blue)
        return TakeCoins(name)
    if ask is Ask.KEEP_PAIR:
        return KeepPair(name, rng.choice(game.yellow[who]), rng.choice(game.blue[who]))
    if ask is Ask.REROLL_USED_PAIR and rng.random() < 0.5 and game.expectation().can_cross_second:
        return CrossBuilding(name, game.yellow[who][0], game.blue[who][0])
    return random_roll(game, rng)


def random_roll(game: Game, rng: random.Random) -> Roll:
    """The roll the game asks for now, with random dice values."""
    name = game.names[game.active]
    rand = rng.random
    if _ROLL_SIZES[game.ask] == 1:
        return Roll(name, (int(rand() * 6) + 1,), (int(rand() * 6) + 1,))
    return Roll(name, (int(rand() * 6) + 1, int(rand() * 6) + 1), (int(rand() * 6) + 1, int(rand() * 6) + 1))


def _free_cells(game: Game, who: int) -> list[tuple[int, int]]:
    # Straight from the bitboard: `Game.crossings()` builds display records the random player never needs.
    crossed = game.crossed[who]
    return [
        (y, b)
        for y in set(game.yellow[who])
        for b in set(game.blue[who])
        if not crossed >> ((y - 1) * 6 + b - 1) & 1
    ]


def _random_pip_change(game: Game, rng: random.Random, coins: int) -> ChangePips:
    who = game.active
    if rng.random() < 0.5:
        old = rng.choice(game.yellow[who])
        colour: str = "yellow"
    else:
        old = rng.choice(game.blue[who])
        colour = "blue"
    steps = rng.randint(1, min(coins, 2))
    new = old + steps if old + steps <= 6 and (old - steps < 1 or rng.random() < 0.5) else old - steps
    name = game.names[who]
    return ChangePips(name, "yellow", old, new) if colour == "yellow" else ChangePips(name, "blue", old, new)


def play_random_game(setup: GameStarted, rng: random.Random) -> tuple[Game, list[Event]]:
    """Play a whole game with random legal decisions; returns the finished game and its events."""
    game = Game(setup)
    return game, [setup, *play_out(game, rng)]


def play_out(game: Game, rng: random.Random) -> list[Event]:
    """Play `game` on to its end with random legal decisions; returns the events played."""
    return folding.play_out(game, lambda: (random_decision(game, rng),))
