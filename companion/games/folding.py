"""What every game engine offers around its mutable `Game`: folding an event log into it, and undo.

An engine's log begins with its set-up event; its `Game` is built from that event and applies the others one
by one, raising `IllegalMove` (and changing nothing) for an event the rules do not allow then.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, Protocol, TypeVar

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


EventT = TypeVar("EventT")
EventT_contra = TypeVar("EventT_contra", contravariant=True)
SetupT = TypeVar("SetupT")
StateT = TypeVar("StateT")


class Applies(Protocol[EventT_contra]):
    def apply(self, event: EventT_contra) -> None: ...


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


def undo(events: list[EventT], replay: Callable[[list[EventT]], StateT]) -> tuple[list[EventT], StateT]:
    """Undo = drop the last event and replay; the set-up event cannot be undone."""
    if len(events) <= 1:
        raise IllegalMove("nothing to undo")
    kept = events[:-1]
    return kept, replay(kept)
