"""A random player: plays legal games through the real fold (for tests, the benchmark and example logs).

Dice are rolled here with a seeded `random.Random`, never inside the engine: every roll becomes a `Rolled`
event, exactly like a camera reading. The player builds each city die where it closes the most black edges,
so that games end in a realistic number of turns.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from .. import folding
from .city import EDGES, OPPOSITE, STEP, Areas, N, Pos, S, W, black_of, fit_problem
from .engine import Game
from .events import Built, Event, GameStarted, Kept, Rolled, TurnEnded
from .state import Ask

STAND_IN_FACES: tuple[Areas, ...] = ((N,), (N | W,), (N | S,), (N, S))
"""Stand-ins for the 4 city faces, whose real patterns are taught from the dice: a cap, a corner, a band
across the die and two separate caps. Good enough to exercise every rule; not the printed dice."""
START: Pos = (8, 8)
"""Where the first city die goes: 9 dice then stay within the cells 0–16 that files allow."""


def _turned(areas: Areas) -> Areas:
    """The areas a quarter turn clockwise: north becomes east, and so on."""
    return tuple(((m << 1) | (m >> 3)) & 15 for m in areas)


def _rotations(areas: Areas) -> tuple[Areas, ...]:
    out = [areas]
    for _ in range(3):
        out.append(_turned(out[-1]))
    return tuple(dict.fromkeys(out))


FACE_ROTATIONS = tuple(_rotations(face) for face in STAND_IN_FACES)


def roll(player: str, dice: int, rng: random.Random) -> Rolled:
    """Roll `dice` dice: each shows a city face 4 times in 6, a knight or a catapult once."""
    city = knights = 0
    rand = rng.random
    for _ in range(dice):
        r = rand()
        if r < 4 / 6:
            city += 1
        elif r < 5 / 6:
            knights += 1
    return Rolled(player, city, knights, dice - city - knights)


def _best_spot(black: dict[Pos, int], faces: tuple[Areas, ...]) -> Built | None:
    """Where a die (any turn of it) closes most and opens fewest black edges beside the city, if anywhere."""
    if not black:
        return Built(START, faces[0])
    best: tuple[int, Built] | None = None
    for (r, c), edges in black.items():
        for edge in EDGES:
            if not edges & edge:
                continue
            dr, dc = STEP[edge]
            at = (r + dr, c + dc)
            if at in black:
                continue
            for areas in faces:
                mine = black_of(areas)
                if not mine & OPPOSITE[edge] or fit_problem(black, at, mine):
                    continue
                opened = sum(
                    1 for e in EDGES if mine & e and (at[0] + STEP[e][0], at[1] + STEP[e][1]) not in black
                )
                if best is None or opened < best[0]:
                    best = (opened, Built(at, areas))
    return best[1] if best else None


def build(game: Game, rng: random.Random, faces: Sequence[tuple[Areas, ...]] | None = None) -> list[Built]:
    """The last roll's city dice, each built where it closes the most black edges (see `turn_events`)."""
    black = dict(game.black)
    built = []
    for n in range(game.roll_city):
        spot = _best_spot(black, faces[n] if faces is not None else rng.choice(FACE_ROTATIONS))
        if spot is not None:
            built.append(spot)
            black[spot.at] = black_of(spot.areas)
    return built


def turn_events(
    game: Game, rng: random.Random, faces: Sequence[tuple[Areas, ...]] | None = None
) -> list[Event]:
    """The active player's next events: the first roll of a turn, or after a roll what they keep and build,
    then the next roll or the end of the turn. `faces`: the turns of each city face the last roll showed
    (dice whose faces are known, as the demo's rendered ones); by default stand-in faces at random."""
    name = game.names[game.active]
    if game.ask is Ask.ROLL:
        return [roll(name, game.free, rng)]
    events: list[Event] = []
    built = build(game, rng, faces)
    knights = game.roll_knights if rng.random() < 0.6 else 0
    if knights or built:
        events.append(Kept(name, knights, tuple(built)))
    left = game.free - knights - len(built)
    if game.rolls < 3 and left and (built or rng.random() < 0.5):
        events.append(roll(name, left, rng))
    else:
        events.append(TurnEnded(name, game.knights + knights >= 3 and rng.random() < 0.5))
    return events


def play_random_game(setup: GameStarted, rng: random.Random) -> tuple[Game, list[Event]]:
    """A whole random game through the fold: the finished game and its events (`GameStarted` first)."""
    game = Game(setup)
    return game, [setup, *play_out(game, rng)]


def play_out(game: Game, rng: random.Random) -> list[Event]:
    """Play `game` on to its end with the random player's choices; returns the events played."""
    return folding.play_out(game, lambda: turn_events(game, rng))
