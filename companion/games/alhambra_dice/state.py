"""The immutable public state of a game and what the engine answers queries with."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from companion.games.alhambra.scoring import Holding

from .events import STANDARD, BuildingTile, Cell, Event
from .scoring import Standing


class Ask(StrEnum):
    """What the table must do next."""

    PREPARE = "prepare"
    """A round begins: fill the bonus fields (`RoundPrepared`)."""
    ROLL = "roll"
    """The active player rolls all 8 white dice (`Rolled`)."""
    CHOOSE = "choose"
    """After a roll: roll again (up to 3 rolls), cancel the roll or set the black die (with their tiles), or
    place a marker (`MarkerPlaced`)."""
    PRIZE = "prize"
    """All markers are placed: the column's best, then second best marker's owner takes a prize."""
    GAME_OVER = "game_over"
    """Scoring C is held."""


@dataclass(frozen=True, slots=True)
class Expectation:
    """What the table must show next, in words (`prompt`, e.g. "Ann: roll 8 dice, roll 1 of 3") and as
    values: `dice` white dice to read now and `roll` the number of that roll (1–3); in the prize phase
    `building` is the column and `prizes` the prizes the player may take; `auto` an event to apply without
    asking (a prize the rules fix: Dirk's, and a second best's with nothing left to say)."""

    ask: Ask
    player: str | None
    prompt: str
    round: int
    dice: int = 0
    roll: int = 0
    building: str | None = None
    prizes: tuple[str, ...] = ()
    tile: str | None = None
    """The bonus tile that goes with the "tile" prize."""
    auto: Event | None = None


@dataclass(frozen=True, slots=True)
class AlcazabaView:
    """What the Alcazaba variant adds to the table: the tiles laid out, the Alhambras and the scorings."""

    laid: tuple[BuildingTile | None, ...]
    """This round's building tiles in the order laid out (the pile's 6, then the 5 drawn), each on the column
    of its type; None once taken."""
    start_tile: str | None
    """The column whose bonus field the start-player tile lies on, until taken (None: taken, or round 5)."""
    alhambras: tuple[tuple[tuple[Cell, BuildingTile], ...], ...]
    """Per real player the tiles built around the fountain (at (0, 0), not listed)."""
    reserves: tuple[tuple[BuildingTile, ...], ...]
    """Per real player the tiles in the reserve, which do not count at a scoring."""
    dirk: tuple[int, ...]
    """2 players: Dirk's buildings per type (he builds no Alhambra)."""
    reserve_board: tuple[int, ...]
    """Markers each player put on the reserve board this round for a rebuild action."""
    holdings: tuple[tuple[Holding, ...], ...]
    """The scorings held (after rounds 1, 3, 5): every player's buildings and longest outer wall."""


@dataclass(frozen=True, slots=True)
class GameState:
    """A snapshot of the game after `log`. Build it with `start`, `apply` or `replay`."""

    names: tuple[str, ...]
    """The real players clockwise, then Dirk in a 2-player game."""
    dirk: int | None
    round: int
    ask: Ask
    caliph: int
    active: int | None
    rolls: int
    dice: tuple[int, ...] | None
    """The 8 white dice's counts per type after the last roll of this turn (None before the first roll)."""
    black: str | None
    board: tuple[tuple[int | None, ...], ...]
    """Per column (pavilion … tower) the 24 fields best first (line 8 left, middle, right, line 7 …): the
    owner's index or None."""
    out: tuple[tuple[str, str], ...]
    """Markers pushed off this round's board: (building, player)."""
    offer: tuple[str | None, ...]
    """The bonus tile on each column's bonus field (None once taken or between rounds)."""
    points: tuple[tuple[int, ...], ...]
    """Building points per player per type (0–12)."""
    stacks: tuple[tuple[tuple[int, ...], ...], ...]
    """Per type, per field 0–12 the players' stones on it, bottom first."""
    vp_tiles: tuple[tuple[int, ...], ...]
    held: tuple[dict[str, int], ...]
    """Per player the unused exchange, displace, cancel and black-die tiles."""
    markers_left: tuple[int, ...]
    standings: tuple[Standing, ...]
    log: tuple[Event, ...]
    variant: str = STANDARD
    alcazaba: AlcazabaView | None = None
    """The Alcazaba variant's tiles and scorings; None in the standard game."""

    @property
    def is_over(self) -> bool:
        return self.ask is Ask.GAME_OVER

    @property
    def active_player(self) -> str | None:
        return None if self.active is None else self.names[self.active]
