"""Advice: what each choice of the decision in front of a player is worth, from playouts of the game.

A game says what the decision now is (`Decision`: its choices in players' words, a fresh copy of the game to
play on, how its random player plays a game to the end and how a finished game scores); `advise` plays each
choice out many times and estimates the player's expected final score and chance to win, with the standard
error of the score's mean as its spread, best first (on a tie, a choice that rolls no dice first). Every
choice's n-th playout uses the same random numbers (common random numbers: choices are compared on the same
luck), so a given seed and number of playouts gives the same advice. A choice clearly behind the best one (its
score's upper bound below the best's lower bound) gets no more playouts, so the time goes to the choices still
in the race (a race to a goal, ranked by the chance to win, plays every choice out alike). Advice never enters
a move: it plays on copies of the game.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

G = TypeVar("G")
S = TypeVar("S")
E = TypeVar("E")
E_contra = TypeVar("E_contra", contravariant=True)

SECONDS = 1.0
"""An advice's time on one core when nothing else is asked for."""
RACE_AFTER = 16
"""Playouts every choice gets before one clearly behind the best is dropped."""
BOUNDS = 3.0
"""Standard errors either side of a mean that make a choice clearly behind: a race of a few dozen choices
drops a choice that is as good as the best once in many thousands."""


@dataclass(frozen=True)
class Outcome:
    """A finished game: every seat's final score and the seats that won (more than one on a tie)."""

    scores: tuple[int, ...]
    winners: frozenset[int]


@dataclass(frozen=True)
class Choice(Generic[G]):
    """One legal choice: its words, and how it is taken on a copy of the game (dice it rolls come from the
    random numbers given)."""

    words: str
    take: Callable[[G, random.Random], None]
    rolls: bool = False
    """The choice rolls dice and the decision goes on (roll the rest, re-roll): on a tie in both figures, or
    in a race both won in every playout, a choice that ends it at once (stop, place a marker) ranks first,
    the simpler move."""


@dataclass(frozen=True)
class Decision(Generic[G]):
    """The decision in front of the player in `seat`, and what playing it out needs."""

    player: str
    seat: int
    choices: tuple[Choice[G], ...]
    fork: Callable[[], G]
    """A fresh, mutable copy of the game at the decision."""
    play_out: Callable[[G, random.Random], object]
    """Play a game on to its end with the game's own random player."""
    outcome: Callable[[G], Outcome]
    by_win: bool = False
    """A race to a goal (Carcassonne's 42 points): choices rank by the chance to win, then by the score; else
    by the expected score (the chance to win breaking ties)."""
    unadvised: str = ""
    """The legal moves the choices leave out, in words (Alcazaba's rebuild action): said under the advice."""


class Applying(Protocol[E_contra]):
    """A game that takes events (each engine's mutable fold)."""

    def apply(self, event: E_contra) -> None: ...


def applying(*events: E) -> Callable[[Applying[E], random.Random], None]:
    """A choice's `take` that is these events, applied in turn (no dice of its own to roll)."""

    def take(game: Applying[E], rng: random.Random) -> None:
        for event in events:
            game.apply(event)

    return take


class Playing(Protocol):
    """A game being played on: the mutable fold each engine keeps."""

    @property
    def is_over(self) -> bool: ...


P = TypeVar("P", bound=Playing)


@dataclass(frozen=True)
class Advising(Generic[S, P]):
    """What a game gives advice (`GameEntry.advice`): the decision at a state, or in words why there is none
    to advise ("roll first", "the game is over"); and, to measure advice over whole games, the mutable game
    at a state, its random player's next step (a move or a roll) and a finished game's outcome."""

    decision: Callable[[S], Decision[P] | str]
    game: Callable[[S], P]
    step: Callable[[P, random.Random], None]
    outcome: Callable[[P], Outcome]
    prepare: Callable[[P, random.Random], None] | None = None
    """What an advised player does before a decision that advice leaves to the table (Carcassonne: build
    the roll's city dice, whose faces only the table shows), as the random player does it."""


@dataclass(frozen=True)
class Estimate:
    """What one choice is worth to the player, from `playouts` games played out after it."""

    words: str
    playouts: int
    score: float
    """The player's expected final score."""
    spread: float
    """The standard error of `score` (0 with fewer than 2 playouts)."""
    win: float
    """The chance to win (a shared first place counts as a win)."""


@dataclass(frozen=True)
class Advice:
    """Every choice's estimate, best first; `note` says why there is none."""

    player: str
    estimates: tuple[Estimate, ...]
    note: str = ""
    by_win: bool = False
    """Ranked by the chance to win (a race to a score), else by the expected final score."""
    unadvised: str = ""
    """The legal moves left out of the estimates, in words (`Decision.unadvised`)."""

    @property
    def playouts(self) -> int:
        return sum(e.playouts for e in self.estimates)


class _Tally:
    __slots__ = ("n", "squares", "total", "wins")

    def __init__(self) -> None:
        self.n = 0
        self.total = 0.0
        self.squares = 0.0
        self.wins = 0

    def add(self, score: int, won: bool) -> None:
        self.n += 1
        self.total += score
        self.squares += score * score
        self.wins += won

    @property
    def mean(self) -> float:
        return self.total / self.n if self.n else 0.0

    @property
    def spread(self) -> float:
        if self.n < 2:
            return 0.0
        variance = max(0.0, (self.squares - self.total * self.total / self.n) / (self.n - 1))
        return math.sqrt(variance / self.n)


def playout_seed(seed: int, n: int) -> int:
    """The random numbers of every choice's `n`-th playout."""
    return seed * 1_000_003 + n


def play_choice(decision: Decision[G], choice: Choice[G], rng: random.Random) -> Outcome:
    """One game played out after `choice`: taken on a fresh copy, then the random player to the end."""
    game = decision.fork()
    choice.take(game, rng)
    decision.play_out(game, rng)
    return decision.outcome(game)


def advise(
    decision: Decision[G] | str,
    playouts: int = 400,
    seconds: float | None = SECONDS,
    seed: int = 0,
    stop: Callable[[], bool] = lambda: False,
) -> Advice:
    """Estimate every choice of `decision` from up to `playouts` games each, within `seconds` (None: no time
    limit, for advice that depends on the seed alone); `stop` ends it early (the game moved on). A decision
    given as words (no choices to advise) is the advice's note."""
    if isinstance(decision, str):
        return Advice("", (), decision)
    tallies = [_Tally() for _ in decision.choices]
    racing = list(range(len(decision.choices)))
    deadline = None if seconds is None else time.perf_counter() + seconds
    for n in range(playouts):
        if len(racing) == 1 and n >= RACE_AFTER:
            break  # the one choice left needs no finer estimate to be first
        for i in racing:
            outcome = play_choice(decision, decision.choices[i], random.Random(playout_seed(seed, n)))
            tallies[i].add(outcome.scores[decision.seat], decision.seat in outcome.winners)
            if stop() or (deadline is not None and time.perf_counter() > deadline):
                return _advice(decision, tallies)
        if n + 1 >= RACE_AFTER and not decision.by_win:
            racing = _still_racing(tallies, racing)
    return _advice(decision, tallies)


def _still_racing(tallies: list[_Tally], racing: list[int]) -> list[int]:
    best = max(racing, key=lambda i: tallies[i].mean)
    floor = tallies[best].mean - BOUNDS * tallies[best].spread
    return [i for i in racing if tallies[i].mean + BOUNDS * tallies[i].spread >= floor]


def _advice(decision: Decision[G], tallies: list[_Tally]) -> Advice:
    estimates = [
        (Estimate(choice.words, t.n, t.mean, t.spread, t.wins / t.n if t.n else 0.0), choice.rolls)
        for choice, t in zip(decision.choices, tallies, strict=True)
    ]

    def rank(estimate: tuple[Estimate, bool]) -> tuple[float | bool, ...]:
        e, rolls = estimate
        if not decision.by_win:
            return (-e.score, -e.win, rolls)
        # A race won in every playout is won whatever the score: the simpler move first.
        return (-e.win, e.win == 1 and rolls, -e.score, rolls)

    played = sorted((e for e in estimates if e[0].playouts), key=rank)
    unplayed = (e for e, _ in estimates if not e.playouts)
    return Advice(
        decision.player,
        (*(e for e, _ in played), *unplayed),
        by_win=decision.by_win,
        unadvised=decision.unadvised,
    )
