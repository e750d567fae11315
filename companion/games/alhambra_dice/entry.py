"""Alhambra – the dice game's row in the table of games."""

from __future__ import annotations

from operator import attrgetter
from pathlib import Path
from typing import TypeAlias

from ..alhambra.entry import ENTRY as TILE_GAME
from ..alhambra.pad import results as tile_game_results
from ..alhambra.report import result_text
from ..alhambra.scoring import Result as AlhambraResult
from ..entry import Form, GameEntry, NewGame, Progress, Records, Result, Scored, Summary, random_game_of
from ..session import Rules, Session
from . import advice
from .alcazaba import AlcazabaGame
from .engine import PLAYERS, ROUNDS
from .events import ALCAZABA, GAME_ID, LOG_FORMAT, STANDARD, Event, GameStarted
from .play import apply, expectation, fold, replay, undo
from .report import game_text
from .scorefile import end_state, score_finished, score_log
from .scoring import GameScore
from .simulate import play_random_game
from .state import Expectation, GameState

RULES: Rules[Event, GameState, Expectation] = Rules(
    LOG_FORMAT, replay, apply, undo, expectation, attrgetter("players")
)
TITLE = "Alhambra – the dice game"
LIST_NAME = "Alhambra dice"
SOURCES = ("buildings", "vp_tiles")
"""Where a standard game's points come from."""
AlhambraDiceSession: TypeAlias = Session[Event, GameState, Expectation]
"""A game of it being played (`Session.create(RULES, ...)`, `Session.resume(RULES, path)`)."""


def _scored(scored: GameScore | AlhambraResult) -> Scored:
    text = result_text(scored) if isinstance(scored, AlhambraResult) else game_text(scored)
    return Scored(scored.to_json(), text)


def score(data: object, _sheets_dir: Path | None = None) -> Scored:
    return _scored(end_state(data))


def score_events(events: list[Event]) -> Scored:
    return _scored(score_finished(events))


def summary(state: GameState) -> Summary:
    real = tuple(n for i, n in enumerate(state.names) if i != state.dirk)
    dirk = () if state.dirk is None else (state.names[state.dirk],)
    where = f"round {state.round}/{ROUNDS}" if state.round else "set-up"
    variant = "Alcazaba" if state.variant == ALCAZABA else ""
    return Summary(real, dirk, "finished" if state.is_over else where, state.is_over, variant)


def finished(events: list[Event]) -> tuple[tuple[Result, ...], tuple[str, ...]] | None:
    if _alcazaba(events):
        return _alcazaba_finished(events)
    board = score_log(events)
    if not board.finished:
        return None
    results = tuple(
        Result(
            name,
            dirk,
            total,
            (
                sum(s[i].vp - s[i].tiles_vp for s in board.scorings),
                sum(s[i].tiles_vp for s in board.scorings),
            ),
        )
        for i, (name, dirk, total) in enumerate(zip(board.names, board.dirk, board.totals, strict=True))
    )
    return results, board.winners


def _alcazaba(events: list[Event]) -> bool:
    first = events[0]
    return isinstance(first, GameStarted) and first.variant == ALCAZABA


def _alcazaba_finished(events: list[Event]) -> tuple[tuple[Result, ...], tuple[str, ...]] | None:
    """The Alcazaba variant, scored as the original Alhambra: its points are the buildings' majorities and
    the walls (no VP tiles), split as the tile game's (`variant_sources`). A move the rules refuse raises
    `IllegalMove`, naming the event, as the standard game's does: it is no game still being played."""
    game = fold(events)
    if not game.is_over:
        return None
    assert isinstance(game, AlcazabaGame)  # its first event names the variant
    result = game.result()
    assert result is not None  # a finished game has held its three scorings
    return tile_game_results(result), result.winners


def sources(events: list[Event]) -> tuple[str, ...]:
    """Where a game's points come from: an Alcazaba game's as the tile game's, a standard one's the row's."""
    if not _alcazaba(events):
        return SOURCES
    assert TILE_GAME.records is not None  # the tile game's row reads its pads back
    return TILE_GAME.records.sources


def progress(events: list[Event]) -> Progress:
    """The real players' totals before the first scoring and after each of scorings A, B and C."""
    if _alcazaba(events):
        return _alcazaba_progress(events)
    board = score_log(events)
    real = [i for i, dirk in enumerate(board.dirk) if not dirk]
    totals = [tuple(0 for _ in real)]
    for scoring in board.scorings:
        totals.append(tuple(before + scoring[i].vp for before, i in zip(totals[-1], real, strict=True)))
    return Progress(tuple(board.names[i] for i in real), totals, step="scoring")


def _alcazaba_progress(events: list[Event]) -> Progress:
    result = score_finished(events)
    assert isinstance(result, AlhambraResult)
    players = [p for p in result.players if not p.dirk]
    held = len(players[0].scorings)
    sums = [tuple(sum(s.vp for s in p.scorings[:n]) for p in players) for n in range(held + 1)]
    return Progress(tuple(p.name for p in players), sums, step="scoring")


def setup(form: Form) -> GameStarted:
    """The names typed, the start player first (Dirk joins two)."""
    return GameStarted(form.players, form.variant)


def form(setup: GameStarted) -> Form:
    return Form(setup.players, setup.variant)


ENTRY = GameEntry(
    id=GAME_ID,
    title=TITLE,
    list_name=LIST_NAME,
    score=score,
    score_events=score_events,
    rules=RULES,
    players=PLAYERS,
    random_game=random_game_of(play_random_game, GameStarted),
    summary=summary,
    records=Records(SOURCES, finished, progress, variant_sources=sources),
    screen="companion.app.game_screens:alhambra_dice",
    view="companion.app.widgets.alhambra_board:AlhambraTable",
    words="companion.app.alhambra_dice_words:describe",
    advice=advice.ADVISING,
    demo="companion.demos:alhambra_dice",
    new_games=(
        NewGame("alhambra_dice", TITLE, "f8", "dice", STANDARD),
        NewGame("alcazaba", f"{LIST_NAME}, Alcazaba variant", "f10", "Alcazaba", ALCAZABA),
    ),
    setup=setup,
    form=form,
    refused="Alhambra dice game: ",
)
