"""Alhambra Roll & Write's row in the table of games."""

from __future__ import annotations

import random
from collections.abc import Sequence
from operator import attrgetter
from pathlib import Path
from typing import TypeAlias

from ..entry import Form, GameEntry, NewGame, Progress, Records, Result, Scored, Summary
from ..session import Rules, Session
from . import advice
from .engine import IMAGINARY_PLAYERS, Game, apply, expectation, replay, undo
from .events import GAME_ID, LOG_FORMAT, Event, GameStarted
from .report import scoreboard_text
from .scorefile import score_end_state, score_finished
from .scoring import score_game, score_so_far
from .sheet import load_shipped_sheet
from .simulate import play_random_game
from .state import Expectation, GameState

RULES: Rules[Event, GameState, Expectation] = Rules(
    LOG_FORMAT, replay, apply, undo, expectation, attrgetter("players")
)
TITLE = "Alhambra Roll & Write"
RollAndWriteSession: TypeAlias = Session[Event, GameState, Expectation]
"""A game of it being played (`Session.create(RULES, ...)`, `Session.resume(RULES, path)`)."""


def score(data: object, sheets_dir: Path | None = None) -> Scored:
    board = score_end_state(data, sheets_dir)
    return Scored(board.to_json(), scoreboard_text(board))


def score_events(events: list[Event]) -> Scored:
    board = score_finished(events)
    return Scored(board.to_json(), scoreboard_text(board))


def summary(state: GameState) -> Summary:
    setup = state.start
    where = (
        "finished"
        if state.is_over
        else "set-up"
        if state.round == 0
        else f"round {state.round}/{state.rounds}"
    )
    return Summary(setup.players, setup.imaginary, "finished" if state.is_over else where, state.is_over)


def finished(events: list[Event]) -> tuple[tuple[Result, ...], tuple[str, ...]] | None:
    state = replay(events)
    if not state.is_over:
        return None
    board = score_game(state)
    results = tuple(
        Result(p.name, p.imaginary, p.total, (p.buildings_vp, p.rows_columns, p.coins, p.extra))
        for p in board.players
    )
    return results, board.winners


def progress(events: list[Event]) -> Progress:
    return Progress(*totals_by_round(events), step="round")


def totals_by_round(events: Sequence[Event]) -> tuple[tuple[str, ...], list[tuple[int, ...]]]:
    """The players who can win a game, and what each one's sheet was worth when each round began and when
    the game ended (as if it ended then): the real players, and playing against them the imaginary ones
    (marked ◇), whom the player must beat."""
    first = events[0]
    assert isinstance(first, GameStarted)
    game = Game(first)
    versus = game.state.versus_imaginary
    totals = []
    for event in events[1:]:
        before = game.state.round
        game.apply(event)
        if game.state.round != before or game.state.is_over:
            board = score_so_far(game.state)
            totals.append(tuple(p.total for p in board.players if versus or not p.imaginary))
    return (*first.players, *(f"{n} ◇" for n in first.imaginary if versus)), totals


NAMES = ("Barbara", "Dirk", "Patricia", "Frank", "Ani")
IMAGINARY_NAMES = ("Marc", "Nora", "Otto", "Pia")


def random_game(players: int, rng: random.Random) -> list[Event]:
    """A standard game on the example sheet, with the fewest imaginary players the rules allow."""
    imaginary = IMAGINARY_NAMES[: IMAGINARY_PLAYERS[players][0]]
    return play_random_game(GameStarted(load_shipped_sheet("example"), NAMES[:players], imaginary), rng)[1]


def setup(form: Form) -> GameStarted:
    """The sheet chosen is read first: a sheet that cannot be read refuses the game (`SheetError`)."""
    assert form.sheet is not None  # the form offers its sheets for the games played on one
    return GameStarted(form.sheet(), form.players, form.imaginary, form.variant)


def form(setup: GameStarted) -> Form:
    return Form(setup.players, setup.variant, setup.imaginary)


ENTRY = GameEntry(
    id=GAME_ID,
    title=TITLE,
    list_name="Roll & Write",
    score=score,
    score_events=score_events,
    rules=RULES,
    players=(min(IMAGINARY_PLAYERS), max(IMAGINARY_PLAYERS)),
    random_game=random_game,
    summary=summary,
    records=Records(("buildings", "rows_columns", "coins", "extra"), finished, progress),
    screen="companion.app.game_screens:roll_and_write",
    view="companion.app.widgets.table_panel:TablePanel",
    words="companion.app.roll_and_write_words:describe",
    advice=advice.ADVISING,
    demo="companion.demos:roll_and_write",
    new_games=(NewGame("roll_and_write", TITLE, sheet=True),),
    setup=setup,
    form=form,
)
