"""The Carcassonne dice game's decisions for advice (`companion.games.advice`): after a roll, how many of its
knights to keep, and then whether to roll the other dice again (their roll is each playout's luck), stop and
score, or hold a knight. City dice count as built so far: build this roll's city dice first, then ask (the
dice's faces, which say where they fit, are on the table, not in the engine). Choices are worded as the game
log words the moves."""

from __future__ import annotations

import random
from collections.abc import Callable

from ..advice import Advising, Choice, Decision, Outcome
from .engine import KNIGHTS_TO_HOLD, MAX_ROLLS, Game
from .events import Kept, TurnEnded
from .scoring import turn_points
from .simulate import build, play_out, roll, turn_events
from .state import Ask, GameState


def decision(state: GameState) -> Decision[Game] | str:
    """The decision in front of the active player, or why there is none to advise."""
    if state.is_over:
        return "the game is over"
    game = Game.from_state(state)
    if state.ask is Ask.ROLL:
        return f"roll first: {game.expectation().prompt}"
    return Decision(
        state.active_player,
        state.active,
        tuple(_choices(game)),
        lambda: Game.from_state(state),
        play_out,
        _outcome,
        by_win=True,
    )


def _counted(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def _choices(game: Game) -> list[Choice[Game]]:
    """For each number of the roll's knights kept (none first): roll the other dice, stop, or hold one."""
    name = game.names[game.active]
    city = game.cities.largest_completed_size()
    points, _ = turn_points(city, game.doubled, bool(game.built))
    stop = f"stop: +{points}" + (f" (a completed city of {city} dice)" if city else "")
    choices = []
    for knights in range(game.roll_knights + 1):
        keep = f"keep {_counted(knights, 'knight', 'knights')}, " if knights else ""
        left = game.free - knights
        if game.rolls < MAX_ROLLS and left:
            choices.append(
                Choice(
                    f"{keep}roll the other {_counted(left, 'die', 'dice')}",
                    _taking(name, knights, None),
                    rolls=True,
                )
            )
        choices.append(Choice(f"{keep}{stop}", _taking(name, knights, False)))
        if game.knights + knights >= KNIGHTS_TO_HOLD:
            words = f"{keep}hold a knight: no points now, the next turn counts double"
            choices.append(Choice(words, _taking(name, knights, True)))
    return choices


def _taking(name: str, knights: int, hold: bool | None) -> Callable[[Game, random.Random], None]:
    """Keep `knights`, then roll the other dice (`hold` None) or end the turn, holding a knight or not."""

    def take(game: Game, rng: random.Random) -> None:
        if knights:
            game.apply(Kept(name, knights))
        if hold is None:
            game.apply(roll(name, game.free, rng))
        else:
            game.apply(TurnEnded(name, hold))

    return take


def _outcome(game: Game) -> Outcome:
    return Outcome(tuple(game.scores), frozenset(() if game.winner is None else (game.winner,)))


def _step(game: Game, rng: random.Random) -> None:
    """The random player's events up to its next roll or the end of its turn."""
    for event in turn_events(game, rng):
        if not game.is_over:
            game.apply(event)


def _build(game: Game, rng: random.Random) -> None:
    """The roll's city dice built where the random player builds them."""
    built = build(game, rng) if game.ask is Ask.CHOOSE else []
    if built:
        game.apply(Kept(game.names[game.active], 0, tuple(built)))


ADVISING: Advising[GameState, Game] = Advising(decision, Game.from_state, _step, _outcome, _build)
