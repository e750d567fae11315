"""The immutable public state of a game and the values the engine answers queries with."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from .events import VERSUS_IMAGINARY, GameStarted
from .sheet import BUILDING_TYPES, Sheet


class Ask(StrEnum):
    """What kind of input the game expects next."""

    SETUP_CROSS = "setup_cross"
    """Set-up step 3: a real player rolls 1 yellow + 1 blue and crosses that building."""
    SETUP_IMAGINARY = "setup_imaginary"
    """Imaginary players' set-up: the start player rolls 1 yellow + 1 blue for an imaginary player."""
    SETUP_DICE = "setup_dice"
    """Set-up step 4: a real player rolls 1 yellow + 1 blue onto their dice fields."""
    SETUP_EXTRA_PAIR = "setup_extra_pair"
    """Set-up step 5: the start player rolls the extra yellow + blue pair onto their fields."""
    ACTION = "action"
    """The active player changes pips (optional), then crosses a building or takes coins."""
    REROLL_USED_PAIR = "reroll_used_pair"
    """After crossing: re-roll the used pair (1 yellow + 1 blue), or cross a second building (3 coins)."""
    ROLL_ALL = "roll_all"
    """After taking coins or two buildings: roll all 4 dice (2 yellow + 2 blue)."""
    KEEP_PAIR = "keep_pair"
    """After rolling all 4: choose the yellow+blue pair to keep; the other pair is passed."""
    IMAGINARY_TURN = "imaginary_turn"
    """An imaginary player's turn: the start player rolls its pair (1 yellow + 1 blue)."""
    GAME_OVER = "game_over"
    """The last round is played: score the game."""


@dataclass(frozen=True, slots=True)
class Expectation:
    """What the game expects next: who, what kind of input, and how many dice of which colour to roll.

    `player` is whose turn it is (an imaginary player's name for its rolls); `roller` is the person who
    physically rolls (the start player rolls for imaginary players). `yellow`/`blue` are the dice a `Roll`
    must carry now (0 and 0 when a decision is expected). `roll_again` says the previous roll hit an already
    crossed cell (set-up) or a type the imaginary player has filled, so the same roll is asked again.
    """

    ask: Ask
    player: str | None
    roller: str | None
    yellow: int
    blue: int
    round: int
    rounds: int
    prompt: str
    roll_again: bool = False
    can_change_pips: bool = False
    can_cross_second: bool = False
    coins_to_take: int = 0


@dataclass(frozen=True, slots=True)
class Crossing:
    """One crossing of the active player's dice: the cell, its building, whether it is already crossed,
    and how many yellow×blue combinations hit it (duplicates count when taking coins)."""

    yellow: int
    blue: int
    building: str
    crossed: bool
    times: int


@dataclass(frozen=True, slots=True)
class Award:
    """In-game completion award: who completed `building` in `round` together, the places they took
    (1-based; empty when none was left) and the VP each received (rounded down)."""

    building: str
    round: int
    players: tuple[str, ...]
    places: tuple[int, ...]
    vp_each: int


@dataclass(frozen=True, slots=True)
class PlayerState:
    """One player's row: grid crosses (bit `(yellow-1)*6 + blue-1`), score-sheet marks per type (in
    `BUILDING_TYPES` order), coins, the dice on their fields, and the types they completed (bit per type)."""

    name: str
    imaginary: bool
    crossed: int
    counts: tuple[int, ...]
    circled: int
    spent: int
    yellow: tuple[int, ...]
    blue: tuple[int, ...]
    completed: int

    @property
    def coins(self) -> int:
        """Coins available: circled and not yet spent."""
        return self.circled - self.spent

    def is_crossed(self, yellow: int, blue: int) -> bool:
        return bool(self.crossed >> ((yellow - 1) * 6 + blue - 1) & 1)

    def crossed_cells(self) -> tuple[tuple[int, int], ...]:
        """(yellow, blue) of every crossed cell."""
        return tuple((c // 6 + 1, c % 6 + 1) for c in range(36) if self.crossed >> c & 1)

    def count_of(self, building: str) -> int:
        return self.counts[BUILDING_TYPES.index(building)]

    def has_completed(self, building: str) -> bool:
        return bool(self.completed >> BUILDING_TYPES.index(building) & 1)


@dataclass(frozen=True, slots=True)
class GameState:
    """A snapshot of the game after `events` events. Build it with `start`, `apply` or `replay`."""

    start: GameStarted
    players: tuple[PlayerState, ...]
    ask: Ask
    active: int
    round: int
    step: int
    pending: tuple[tuple[int, int], ...]
    places_taken: tuple[int, ...]
    awards: tuple[Award, ...]
    notice: str
    events: int

    @property
    def sheet(self) -> Sheet:
        return self.start.sheet

    @property
    def rounds(self) -> int:
        return rounds_for(len(self.players))

    @property
    def is_over(self) -> bool:
        return self.ask is Ask.GAME_OVER

    @property
    def versus_imaginary(self) -> bool:
        return self.start.variant == VERSUS_IMAGINARY

    @property
    def active_player(self) -> PlayerState:
        return self.players[self.active]

    def player(self, name: str) -> PlayerState:
        for p in self.players:
            if p.name == name:
                return p
        raise KeyError(name)


ROUNDS_BY_PLAYERS = {5: 12, 4: 15, 3: 18}
"""Rounds: 5 players 12, 4 players 15, 3, 2 or 1 player 18 — counted with imaginary players, which is what
the solo variants with 3 or 4 imaginary players need."""


def rounds_for(total_players: int) -> int:
    return ROUNDS_BY_PLAYERS[total_players]
