"""What one game gives the table of games (`companion.games.table`): one `GameEntry` in its own folder.

A game names its scorer, how its logs are played and read back, and the parts the layers above it build: the
screen that plays it, its table view, its demo. The engines stand below the camera and the app, so those parts
are named as `"module:name"` references, loaded when used (`load`), never imported here.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from .advice import Advising
from .session import Rules

SetupT = TypeVar("SetupT")

RANDOM_NAMES = ("Ann", "Ben", "Cleo", "Dan", "Eva", "Finn")
"""The players of a random game (`random_game_of`), as many as it has."""


def random_game_of(
    play: Callable[[SetupT, random.Random], tuple[object, list[Any]]],
    setup_of: Callable[[tuple[str, ...]], SetupT],
) -> Callable[[int, random.Random], list[Any]]:
    """A `GameEntry.random_game` for a game set up by its players' names alone: `play` (an engine's
    `play_random_game`) from the set-up `setup_of` makes of the first names of `RANDOM_NAMES`."""

    def random_game(players: int, rng: random.Random) -> list[Any]:
        return play(setup_of(RANDOM_NAMES[:players]), rng)[1]

    return random_game


class ScoreFileError(ValueError):
    """A file cannot be scored; the message is one line naming the file and the problem."""


@dataclass(frozen=True, slots=True)
class Scored:
    """A scored file: the breakdown as JSON and as text, and a warning for the user (or '')."""

    json: dict[str, Any]
    text: str
    warning: str = ""


@dataclass(frozen=True)
class Result:
    """One player's final total in a finished game, and where its points came from."""

    name: str
    imaginary: bool
    total: int
    vp: tuple[int, ...]
    """VP by source, in the order of the game's `Records.sources` (or its variant's: `variant_sources`)."""


@dataclass(frozen=True)
class Progress:
    """The real players and what each one's score was at each step of a game (its first step: the start)."""

    names: tuple[str, ...]
    totals: list[tuple[int, ...]]
    step: str
    """What one step is, for the plot's axis: "round", "round of turns"."""


@dataclass(frozen=True)
class Records:
    """How a game's saved games are read back for history and statistics (from a log's events, the set-up
    first, or from what a file of its own holds)."""

    sources: tuple[str, ...]
    """Where a total's points come from, as the game's final scoring breaks it down."""
    finished: Callable[[Any], tuple[tuple[Result, ...], tuple[str, ...]] | None]
    """The results and winners of a finished game (None while it is played), from its log's events (or what
    its file holds: `read`)."""
    progress: Callable[[Any], Progress]
    read: Callable[[Path], Any] | None = None
    """What one of its saved files holds, for a game kept without a log (None: the log's events); raises
    `ScoreFileError` naming the file."""
    variant_sources: Callable[[Any], tuple[str, ...]] | None = None
    """Where one game's points come from when a variant's differ from `sources` (Alhambra dice's Alcazaba:
    the tile game's buildings and walls), from what `finished` reads; None: every game's are `sources`."""
    counted: str = "VP"
    """What its score counts, as `stats` heads the sources' columns: the Alhambra games' victory points, or
    Carcassonne's "points" (its columns read "VP cities")."""

    def sources_of(self, content: Any) -> tuple[str, ...]:
        """Where the points of the game `content` holds (what `finished` reads) come from."""
        return self.sources if self.variant_sources is None else self.variant_sources(content)


@dataclass(frozen=True)
class Summary:
    """A saved game as the start screen lists it."""

    players: tuple[str, ...]
    imaginary: tuple[str, ...]
    where: str
    """How far it has come, in players' words: "set-up", "round 3/8", "turn 12", "finished"."""
    over: bool
    variant: str = ""
    """The variant in players' words where it is not the game's standard one ("Alcazaba"): two saved games of
    one game and the same players were listed alike, one of each variant."""


@dataclass(frozen=True)
class NewGame:
    """A game the start screen's form starts (one game may give two: the Alhambra dice game's Alcazaba
    variant): how the game choice names it, its own key (none: F5 alone) and the footer's word for it."""

    choice: str
    """The form's value for it, as a game left gives it back to the form."""
    name: str
    key: str = ""
    short: str = ""
    variant: str = ""
    """The variant it sets up, as the engine names it ("alcazaba"; "": the game has none, or the form chooses
    it: Roll & Write's)."""
    sheet: bool = False
    """Played on a sheet: the form offers the sheets, their editor, and the variants with the imaginary
    players each takes (Roll & Write's)."""


@dataclass(frozen=True)
class Form:
    """A new game as the start screen's form sets it up, or as a game's set-up gives the form back to the same
    table's next game."""

    players: tuple[str, ...]
    """The real players, in turn order from the start player."""
    variant: str = ""
    """As the engine names it (`NewGame.variant`, or the form's choice of Roll & Write's)."""
    imaginary: tuple[str, ...] = ()
    sheet: Callable[[], Any] | None = None
    """The sheet chosen, read only by a game played on one (reading it may raise that game's error)."""


@dataclass(frozen=True)
class GameEntry:
    """One game of the table: everything that differs from game to game."""

    id: str
    """The `"game"` its files name."""
    title: str
    list_name: str
    """How lists of games name it, short: "Roll & Write", "Alhambra dice"."""
    score: Callable[[object, Path | None], Scored]
    """Score one of its files that holds one JSON value (an end state, a turn, a pad), which may name one
    of the players' own Roll & Write sheets, kept in the folder given (None: none); raises
    `ScoreFileError` naming the field (`companion score` names the file)."""
    rules: Rules[Any, Any, Any] | None = None
    """How a game is played move by move and logged (None: a game the companion only scores)."""
    score_events: Callable[[list[Any]], Scored] | None = None
    """Score a finished game from its log's events (read with `rules`); raises `ScoreFileError` for a game
    not over or a move the rules refuse."""
    players: tuple[int, int] = (2, 2)
    """The fewest and the most real players at the table."""
    random_game: Callable[[int, random.Random], list[Any]] | None = None
    """A whole game of that many real players, every choice the engine's random player's (its events, the
    set-up first): for the benchmark and the tests every game passes."""
    files: str = "*.jsonl"
    """How its saved games are named in the games folder (a game log, the first line naming its game)."""
    summary: Callable[[Any], Summary] | None = None
    """How far a saved game has come, from its state (or from what its file holds, for a game kept without
    a log)."""
    records: Records | None = None
    screen: str = ""
    """`"module:name"` of a function (app, session) -> the screen that plays a session of this game."""
    view: str = ""
    """`"module:name"` of a function (state) -> the table view's text of a game in progress."""
    words: str = ""
    """`"module:name"` of a function (before, event, after) -> the game log's lines of an event, in the
    players' words: its screen's log, and a finished game replayed move by move (none: no replay)."""
    demo: str = ""
    """`"module:name"` of a function (args) -> exit code that plays a demo game on the rendered table."""
    opens: str = ""
    """`"module:name"` of a function (path) -> the screen that continues one of its saved files, for a game
    kept without a log (a game with one is continued through its session and `screen`)."""
    advice: Advising[Any, Any] | None = None
    """The decision in front of the player to move at a state, for `advice.advise` (or in words why there is
    none: "roll first"); None: a game without decisions to advise (a score pad)."""
    new_games: tuple[NewGame, ...] = ()
    """How the start screen's form starts it, in the game choice's order."""
    setup: Callable[[Form], Any] | None = None
    """The set-up event of a new game of it from the form (the engine refuses an impossible one with
    `IllegalMove` as the session starts); None: a game kept without a log, which makes a file of its own."""
    form: Callable[[Any], Form] | None = None
    """The form a set-up gives back to the table's next game of it (the sheet not read back)."""
    refused: str = ""
    """What the start screen says first when a new game of it is refused ("Alhambra dice game: "; "": the
    reason alone)."""


def load(reference: str) -> Any:
    """The object a `"module:name"` reference names (a layer above the games: imported only when used)."""
    module, _, name = reference.partition(":")
    return getattr(importlib.import_module(module), name)
