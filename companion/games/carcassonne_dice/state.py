"""The immutable public state of a game and the values the engine answers queries with."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from .events import Built


class Ask(StrEnum):
    """What kind of input the game expects next."""

    ROLL = "roll"
    """A turn begins: the active player rolls every die they have (`Expectation.dice`)."""
    CHOOSE = "choose"
    """After a roll: keep knights and build city dice (`Kept`), roll the other dice again (`Rolled`, while
    fewer than 3 rolls are made and dice are left), or stop (`TurnEnded`)."""
    GAME_OVER = "game_over"
    """A player reached 42 points or rolled 9 catapults in a turn."""


@dataclass(frozen=True, slots=True)
class Expectation:
    """What the game expects next. `dice` is how many dice a `Rolled` must count now (the dice not kept and
    not passed on as catapults); `roll` is the number of that roll in the turn (1–3)."""

    ask: Ask
    player: str | None
    dice: int
    roll: int
    prompt: str
    can_roll: bool = False
    keep_city: int = 0
    """City dice of the last roll that may still be built."""
    keep_knights: int = 0
    """Knights of the last roll that may still be kept."""
    can_hold_knight: bool = False
    doubled: bool = False
    """The player began this turn holding a knight: this turn's points count double."""


@dataclass(frozen=True, slots=True)
class TurnRecord:
    """A scored turn on the score pad: the largest completed city (dice), the points and why."""

    player: str
    turn: int
    rolls: int
    city: int
    doubled: bool
    held_knight: bool
    points: int
    why: str
    built: tuple[Built, ...] = ()
    """The city dice the turn ended with, as they lay: the turn's end clears the table's city, and a dispute
    over what it scored looks at it (the table's view, a replay)."""


@dataclass(frozen=True, slots=True)
class GameState:
    """A snapshot of the game after `events` events. Build it with `start`, `apply` or `replay`."""

    names: tuple[str, ...]
    scores: tuple[int, ...]
    held: tuple[bool, ...]
    """Who holds a knight die from their last turn (one each at most)."""
    active: int
    turn: int
    """Turns begun so far, this one included."""
    ask: Ask
    rolls: int
    free: int
    roll_city: int
    roll_knights: int
    knights: int
    catapults: int
    doubled: bool
    built: tuple[Built, ...]
    """This turn's city dice in the order they were built."""
    turns: tuple[TurnRecord, ...]
    winner: int | None
    why_over: str
    events: int

    @property
    def is_over(self) -> bool:
        return self.ask is Ask.GAME_OVER

    @property
    def active_player(self) -> str:
        return self.names[self.active]
