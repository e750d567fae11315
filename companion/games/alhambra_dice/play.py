"""The Alhambra dice game's public, immutable interface: a game's state as a fold over its events.

The standard game's `engine.Game` and the Alcazaba variant's `alcazaba.AlcazabaGame` (which builds on it) are
the fold's accumulators; this module stands above both and picks the one a set-up asks for.
"""

from __future__ import annotations

import threading
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


class _LastFold:
    """The mutable game behind the last state handed out: a game goes on from the state it was last given, so
    the next `apply` or `expectation` continues that fold instead of replaying the whole log again. Any
    other state (an older one, another game's) is folded from its log as before."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._state: GameState | None = None
        self._game: Game | None = None

    def take(self, state: GameState) -> Game:
        """The game at `state`, now the caller's to change (the fold is forgotten until `keep`)."""
        with self._lock:
            game = self._game if self._state is state else None
            self._state = self._game = None
        return game if game is not None else fold(state.log)

    def keep(self, state: GameState, game: Game) -> None:
        with self._lock:
            self._state, self._game = state, game


_LAST = _LastFold()


def apply(state: GameState, event: Event) -> GameState:
    """The state after `event`, or `IllegalMove` with the reason (the given state is immutable)."""
    game = _LAST.take(state)
    game.apply(event)  # an illegal event leaves the fold forgotten: the next call replays the log
    after = game.state
    _LAST.keep(after, game)
    return after


def replay(events: Iterable[Event]) -> GameState:
    """Fold a whole event list (starting with `GameStarted`) into a state."""
    return fold(events).state


def fold(events: Iterable[Event]) -> Game:
    """Fold events into a mutable `Game`; an illegal event raises `IllegalMove` naming its position."""
    return folding.fold(events, GameStarted, new_game)


def game_at(state: GameState) -> Game:
    """The fold at `state`, to read: the one the next `apply` goes on from (never change it)."""
    game = _LAST.take(state)
    _LAST.keep(state, game)
    return game


def expectation(state: GameState) -> Expectation:
    return game_at(state).expectation()


def undo(events: list[Event]) -> tuple[list[Event], GameState]:
    """Undo = drop the last event and replay; the `GameStarted` event cannot be undone."""
    return folding.undo(events, replay)
