"""Property-based tests: thousands of random legal games for every player count and variant."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rw_helpers import SETUPS, vp_of

from companion.games.alhambra_rw import (
    BUILDING_TYPES,
    Game,
    GameStarted,
    GameState,
    Scoreboard,
    apply,
    event_from_json,
    event_to_json,
    fold,
    load_log,
    load_shipped_sheet,
    replay,
    score_game,
    start,
)
from companion.games.alhambra_rw.log import write_log
from companion.games.alhambra_rw.simulate import play_random_game

ROUNDS = {1: 18, 2: 18, 3: 18, 4: 15, 5: 12}


def _games(max_examples: int) -> settings:
    return settings(max_examples=max_examples, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _check_sheet_marks(state: GameState) -> None:
    sheet = state.sheet
    for p in state.players:
        if p.imaginary:
            assert p.crossed == 0
            continue
        crossed = [sheet.building_at(y, b) for y, b in p.crossed_cells()]
        assert p.counts == tuple(crossed.count(t) for t in BUILDING_TYPES), p.name
        assert 0 <= p.spent <= p.circled <= sheet.coins


def _check_awards(state: GameState, board: Scoreboard) -> None:
    sheet = state.sheet
    for award in state.awards:
        row = vp_of(sheet, award.building)
        assert award.vp_each * len(award.players) <= sum(row[p - 1] for p in award.places)
    for i, building in enumerate(BUILDING_TYPES):
        row = sheet.vp[i]
        given = [p.buildings[i].vp for p in board.players]
        assert all(0 <= vp <= row[0] for vp in given)
        assert sum(given) <= sum(row), (building, given)


@pytest.mark.parametrize("setup", SETUPS, ids=lambda s: f"{len(s.players)}+{len(s.imaginary)}-{s.variant}")
@_games(250)
@given(seed=st.integers(0, 2**32 - 1))
def test_random_games_end_scored_and_replay_identically(setup: GameStarted, seed: int) -> None:
    game, events = play_random_game(setup, random.Random(seed))
    assert game.is_over and game.round == ROUNDS[len(setup.players) + len(setup.imaginary)]
    state = game.state
    # The log's own encoding, line by line, replays to the same state.
    lines = [json.dumps(event_to_json(e), separators=(",", ":")) for e in events]
    assert replay(event_from_json(json.loads(line)) for line in lines) == state
    _check_sheet_marks(state)
    _check_awards(state, score_game(state))


@_games(300)
@given(setup=st.sampled_from(SETUPS), seed=st.integers(0, 2**32 - 1), data=st.data())
def test_immutable_apply_agrees_with_the_fold_at_every_step(
    setup: GameStarted, seed: int, data: st.DataObject
) -> None:
    _, events = play_random_game(setup, random.Random(seed))
    stop = data.draw(st.integers(1, len(events)), label="events kept")
    state = start(setup)
    for event in events[1:stop]:
        state = apply(state, event)
        _check_sheet_marks(state)
    assert state == replay(events[:stop])
    assert Game.from_state(state).state == state


@_games(40)
@given(setup=st.sampled_from(SETUPS), seed=st.integers(0, 2**32 - 1), cut=st.integers(2, 40))
def test_a_saved_log_replays_to_the_same_state_even_cut_off(
    tmp_path_factory: pytest.TempPathFactory, setup: GameStarted, seed: int, cut: int
) -> None:
    game, events = play_random_game(setup, random.Random(seed))
    path: Path = tmp_path_factory.mktemp("log") / "game.jsonl"
    write_log(path, events)
    assert replay(load_log(path).events) == game.state
    # A crash in the middle of writing the last line keeps every complete event.
    data = path.read_bytes()
    path.write_bytes(data[: len(data) - min(cut, len(data.splitlines()[-1]))])
    loaded = load_log(path)
    assert loaded.cut_line == len(events)
    assert replay(loaded.events) == replay(events[:-1])


def test_the_shipped_example_log_is_the_seeded_example_game() -> None:
    """The shipped example log is a seeded random 3-player game on the example sheet."""
    setup = GameStarted(load_shipped_sheet("example"), ("Barbara", "Dirk", "Patricia"))
    shipped = load_log(Path(__file__).parents[2] / "companion/games/alhambra_rw/examples/example-game.jsonl")
    assert shipped.cut_line is None
    assert list(shipped.events) == play_random_game(setup, random.Random(2026))[1]
    assert fold(shipped.events).is_over
