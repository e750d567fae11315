"""Random whole Alhambra dice games (2–6 players, every bonus tile in play) through the real fold: the board
and the tracks stay consistent, undo is a replay of the shorter log, and the game log survives its round trip
through JSON."""

from __future__ import annotations

import random
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.alhambra_dice import GameStarted, MarkerPlaced, PrizeTaken, replay, score_log, undo
from companion.games.alhambra_dice.engine import TRACK, Game
from companion.games.alhambra_dice.events import LOG_FORMAT, event_from_json, event_to_json
from companion.games.alhambra_dice.play import fold
from companion.games.alhambra_dice.scorefile import log_text
from companion.games.alhambra_dice.simulate import next_event, play_random_game
from companion.games.eventlog import read_log

NAMES = ("Ann", "Ben", "Cleo", "Dan", "Eva", "Finn")
games = st.tuples(st.integers(2, 6), st.integers(0, 2**32))


def consistent(game: Game) -> None:
    """Every stone lies on its owner's points' field once; a field holds one marker; Dirk holds no tile."""
    for t, stacks in enumerate(game.stacks):
        for p in range(len(game.names)):
            points = game.points[p][t]
            assert 0 <= points <= TRACK
            on = [f for f, stack in enumerate(stacks) if p in stack]
            assert on == ([points] if points else [])
    assert not stacks[0]
    if game.dirk >= 0:
        assert sum(game.held[game.dirk]) == 0
    assert all(len(col) == 24 for col in game.board)


@settings(max_examples=40, deadline=None)
@given(games)
def test_random_games_fold_to_the_end_consistently(case: tuple[int, int]) -> None:
    players, seed = case
    rng = random.Random(seed)
    game = Game(GameStarted(NAMES[:players]))
    while not game.is_over:
        assert game.expectation().prompt
        game.apply(next_event(game, rng))
        consistent(game)
    assert len(game.standings) == 3
    board = score_log(list(game.log))
    assert board.finished and board.winners
    assert board.to_json()["totals"] == dict(zip(game.names, board.totals, strict=True))


@settings(max_examples=20, deadline=None)
@given(games, st.floats(0, 1))
def test_undo_is_the_replay_of_the_log_without_its_last_event(case: tuple[int, int], where: float) -> None:
    players, seed = case
    events = play_random_game(GameStarted(NAMES[:players]), random.Random(seed))[1]
    cut = 2 + int(where * (len(events) - 2))
    kept, state = undo(events[:cut])
    assert kept == events[: cut - 1] and state == replay(events[: cut - 1])
    assert fold(kept).expectation() == fold(events[: cut - 1]).expectation()


@settings(max_examples=20, deadline=None)
@given(games)
def test_the_game_log_round_trips_through_json(case: tuple[int, int]) -> None:
    players, seed = case
    events = play_random_game(GameStarted(NAMES[:players]), random.Random(seed))[1]
    assert [event_from_json(event_to_json(e)) for e in events] == events
    assert list(read_log(Path("log.jsonl"), log_text(events).encode(), LOG_FORMAT).events) == events


def test_random_games_use_every_bonus_tile() -> None:
    """So that the checks above cover each tile's rule, not only plain turns."""
    used: set[str] = set()
    for seed in range(10):
        for e in play_random_game(GameStarted(NAMES[: 2 + seed % 3]), random.Random(seed))[1]:
            used.add(type(e).__name__)
            if isinstance(e, MarkerPlaced) and e.displace:
                used.add("displace")
            if isinstance(e, PrizeTaken):
                used.update(k for k in ("exchange", "start_player", "value") if getattr(e, k) is not None)
    assert used >= {"BlackDieSet", "RollCancelled", "displace", "exchange", "start_player", "value"}
