"""Carcassonne – the dice game's row in the table of games."""

from __future__ import annotations

from collections.abc import Sequence
from operator import attrgetter
from pathlib import Path
from typing import TypeAlias

from ..entry import Form, GameEntry, NewGame, Progress, Records, Result, Scored, Summary, random_game_of
from ..session import Rules, Session
from . import advice
from .engine import PLAYERS, apply, expectation, replay, undo
from .events import GAME_ID, LOG_FORMAT, Event, GameStarted
from .report import city_text, game_text
from .scorefile import score_finished, score_turn
from .scoring import score_game
from .simulate import play_random_game
from .state import Expectation, GameState, TurnRecord

RULES: Rules[Event, GameState, Expectation] = Rules(
    LOG_FORMAT, replay, apply, undo, expectation, attrgetter("players")
)
TITLE = "Carcassonne – the dice game"
CarcassonneDiceSession: TypeAlias = Session[Event, GameState, Expectation]
"""A game of it being played (`Session.create(RULES, ...)`, `Session.resume(RULES, path)`)."""


def score(data: object, _sheets_dir: Path | None = None) -> Scored:
    city = score_turn(data)
    return Scored(city.to_json(), city_text(city))


def score_events(events: list[Event]) -> Scored:
    game = score_finished(events)
    return Scored(game.to_json(), game_text(game))


def summary(state: GameState) -> Summary:
    """A Carcassonne dice game has no rounds: it is as far as the turn being played."""
    return Summary(state.names, (), "finished" if state.is_over else f"turn {state.turn}", state.is_over)


def _vp(turns: Sequence[TurnRecord]) -> tuple[int, int]:
    """Points from cities, and the half of a doubled turn's points that the held knight gave."""
    knight = sum(t.points // 2 for t in turns if t.doubled)
    return sum(t.points for t in turns) - knight, knight


def finished(events: list[Event]) -> tuple[tuple[Result, ...], tuple[str, ...]] | None:
    state = replay(events)
    if not state.is_over:
        return None
    board = score_game(state)
    results = tuple(Result(p.name, False, p.total, _vp(p.turns)) for p in board.players)
    return results, () if board.winner is None else (board.winner,)


def progress(events: list[Event]) -> Progress:
    """Each player's total after every round of turns (and at the end, when a win cut a round short)."""
    state = replay(events)
    running = dict.fromkeys(state.names, 0)
    totals = [tuple(running.values())]
    for n, turn in enumerate(state.turns, start=1):
        running[turn.player] += turn.points
        if n % len(state.names) == 0 or n == len(state.turns):
            totals.append(tuple(running.values()))
    return Progress(state.names, totals, step="round of turns")


def setup(form: Form) -> GameStarted:
    """The names typed, the start player first."""
    return GameStarted(form.players)


def form(setup: GameStarted) -> Form:
    return Form(setup.players)


ENTRY = GameEntry(
    id=GAME_ID,
    title=TITLE,
    list_name="Carcassonne dice",
    score=score,
    score_events=score_events,
    rules=RULES,
    players=PLAYERS,
    random_game=random_game_of(play_random_game, GameStarted),
    summary=summary,
    records=Records(("cities", "knight_doubling"), finished, progress, counted="points"),
    screen="companion.app.game_screens:carcassonne_dice",
    view="companion.app.widgets.carcassonne_pad:CarcassonneTable",
    words="companion.app.carcassonne_dice_words:describe",
    advice=advice.ADVISING,
    demo="companion.demos:carcassonne_dice",
    new_games=(NewGame("carcassonne_dice", TITLE, "f9", "Carcassonne"),),
    setup=setup,
    form=form,
    refused="Carcassonne dice game: ",
)
