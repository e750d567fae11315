"""The Alhambra dice game's public, immutable interface: a game's state as a fold over its events.

The standard game's `engine.Game` and the Alcazaba variant's `alcazaba.AlcazabaGame` (which builds on it) are
the fold's accumulators; this module stands above both and picks the one a set-up asks for.
"""

from __future__ import annotations

from collections.abc import Iterable

from companion.games import folding

from .alcazaba import AlcazabaGame
from .engine import Game
from .events import STANDARD, Event, GameStarted
from .state import Expectation, GameState


def new_game(setup: GameStarted) -> Game:
    """The game `setup` starts: the standard game, or the Alcazaba variant (`alcazaba.AlcazabaGame`)."""
    if setup.variant == STANDARD:
        return Game(setup)
    return AlcazabaGame(setup)


def start(setup: GameStarted) -> GameState:
    """The state right after `GameStarted` (raises `IllegalMove` for an impossible set-up)."""
    return new_game(setup).state


def apply(state: GameState, event: Event) -> GameState:
    """The state after `event`, or `IllegalMove` with the reason (the given state is immutable)."""
    game = fold(state.log)
    game.apply(event)
    return game.state


def replay(events: Iterable[Event]) -> GameState:
    """Fold a whole event list (starting with `GameStarted`) into a state."""
    return fold(events).state


def fold(events: Iterable[Event]) -> Game:
    """Fold events into a mutable `Game`; an illegal event raises `IllegalMove` naming its position."""
    return folding.fold(events, GameStarted, new_game)


def expectation(state: GameState) -> Expectation:
    return fold(state.log).expectation()


def undo(events: list[Event]) -> tuple[list[Event], GameState]:
    """Undo = drop the last event and replay; the `GameStarted` event cannot be undone."""
    return folding.undo(events, replay)
