"""What every game engine offers around its mutable `Game`: folding an event log into it, and undo.

An engine's log begins with its set-up event; its `Game` is built from that event and applies the others one
by one, raising `IllegalMove` (and changing nothing) for an event the rules do not allow then.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, Generic, Protocol, TypeVar

from jsonfile import control_character, short


class IllegalMove(ValueError):
    """An event the rules do not allow now; the message says why in words a player understands."""


def check_names(names: Sequence[str], max_name: int) -> None:
    """Player names head score columns and every prompt: 1 to `max_name` characters each, all different,
    none a control character (the log would keep what no reader takes back, and a terminal obeys)."""
    for name in names:
        if not name.strip():
            raise IllegalMove(f"a player name cannot be blank, not {short(name)}")
        if len(name) > max_name:
            raise IllegalMove(f"a player name must be 1 to {max_name} characters, not {short(name)}")
        if control := control_character(name):
            raise IllegalMove(f"a player name cannot hold control character {control}: {short(name)}")
    if len(set(names)) != len(names):
        raise IllegalMove("player names must differ")


def turn_refused(names: Sequence[str], active: int, player: str) -> str:
    """Why `player` may not act while it is `names[active]`'s turn: there is no such player, or it is
    another's turn."""
    if player not in names:
        return f"there is no player named {short(player)}"
    return f"it is {names[active]}'s turn, not {player}'s"


def check_turn(names: Sequence[str], active: int, player: str) -> None:
    """Raise `IllegalMove` (`turn_refused`) unless it is `player`'s turn: `names[active]`'s."""
    if player != names[active]:
        raise IllegalMove(turn_refused(names, active, player))


EventT = TypeVar("EventT")
EventT_contra = TypeVar("EventT_contra", contravariant=True)
SetupT = TypeVar("SetupT")
StateT = TypeVar("StateT")


class Applies(Protocol[EventT_contra]):
    def apply(self, event: EventT_contra) -> None: ...


class Ends(Applies[EventT_contra], Protocol[EventT_contra]):
    @property
    def is_over(self) -> bool: ...


def play_out(game: Ends[EventT], next_events: Callable[[], Iterable[EventT]]) -> list[EventT]:
    """Play `game` on to its end, applying the events `next_events` gives for where it is now (one move or a
    whole turn; the rest of a turn left out once the game is over); returns the events played."""
    events: list[EventT] = []
    while not game.is_over:
        for event in next_events():
            game.apply(event)
            events.append(event)
            if game.is_over:
                break
    return events


GameT = TypeVar("GameT", bound=Applies[Any])


def fold(events: Iterable[object], setup: type[SetupT], new_game: Callable[[SetupT], GameT]) -> GameT:
    """Fold events into a new game; an illegal event raises `IllegalMove` naming its position in the log."""
    it = iter(events)
    first = next(it, None)
    if not isinstance(first, setup):
        raise IllegalMove(f"a game must start with a {setup.__name__} event")
    game = new_game(first)
    for n, event in enumerate(it, start=2):
        try:
            game.apply(event)
        except IllegalMove as exc:
            raise IllegalMove(f"event {n}: {exc}") from exc
    return game


ExpectationT = TypeVar("ExpectationT")
StateT_co = TypeVar("StateT_co", covariant=True)
ExpectationT_co = TypeVar("ExpectationT_co", covariant=True)


class Playable(Protocol[EventT, StateT_co, ExpectationT_co]):
    """A mutable game an `Engine` offers immutably: its state, the next event applied, what it waits for."""

    @property
    def state(self) -> StateT_co: ...

    def apply(self, event: EventT) -> None: ...

    def expectation(self) -> ExpectationT_co: ...

    def legal_actions(self) -> tuple[EventT, ...]: ...


PlayableT = TypeVar("PlayableT", bound=Playable[Any, Any, Any])


class Engine(Generic[SetupT, PlayableT, StateT, EventT, ExpectationT]):
    """An engine's public, immutable interface over its mutable game: states in, states out; the state given
    is never changed."""

    def __init__(
        self,
        setup: type[SetupT],
        new_game: Callable[[SetupT], PlayableT],
        game_of: Callable[[StateT], PlayableT],
    ) -> None:
        self.setup, self.new_game, self.game_of = setup, new_game, game_of

    def start(self, setup: SetupT) -> StateT:
        """The state right after the set-up event (raises `IllegalMove` for an impossible set-up)."""
        state: StateT = self.new_game(setup).state
        return state

    def apply(self, state: StateT, event: EventT) -> StateT:
        """The state after `event`, or `IllegalMove` with the reason."""
        game = self.game_of(state)
        game.apply(event)
        after: StateT = game.state
        return after

    def fold(self, events: Iterable[object]) -> PlayableT:
        """Events folded into a mutable game; an illegal event raises `IllegalMove` naming its position."""
        return fold(events, self.setup, self.new_game)

    def replay(self, events: Iterable[object]) -> StateT:
        """A whole event list (starting with the set-up event) folded into a state."""
        state: StateT = self.fold(events).state
        return state

    def expectation(self, state: StateT) -> ExpectationT:
        expected: ExpectationT = self.game_of(state).expectation()
        return expected

    def legal_actions(self, state: StateT) -> tuple[EventT, ...]:
        actions: tuple[EventT, ...] = self.game_of(state).legal_actions()
        return actions

    def undo(self, events: list[EventT]) -> tuple[list[EventT], StateT]:
        """Undo = drop the last event and replay; the set-up event cannot be undone."""
        return undo(events, self.replay)


def undo(events: list[EventT], replay: Callable[[list[EventT]], StateT]) -> tuple[list[EventT], StateT]:
    """Undo = drop the last event and replay; the set-up event cannot be undone."""
    if len(events) <= 1:
        raise IllegalMove("nothing to undo")
    kept = events[:-1]
    return kept, replay(kept)
