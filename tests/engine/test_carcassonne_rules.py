"""Each turn rule of the Carcassonne dice game, and each illegal event (refused with the reason, nothing
changed); random whole games and the game log's round trip."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.carcassonne_dice import (
    Ask,
    Built,
    E,
    Event,
    Game,
    GameStarted,
    IllegalMove,
    Kept,
    N,
    Rolled,
    S,
    TurnEnded,
    W,
    apply,
    legal_actions,
    replay,
    score_game,
    score_layout,
    start,
    undo,
)
from companion.games.carcassonne_dice.events import (
    LOG_FORMAT,
    EventFormatError,
    event_from_json,
    event_to_json,
)
from companion.games.carcassonne_dice.scorefile import log_text
from companion.games.carcassonne_dice.simulate import play_random_game
from companion.games.eventlog import read_log

PLAYERS = ("Ani", "Bo", "Cy")


def refused(game: Game, event: Event, reason: str) -> None:
    before = game.state
    with pytest.raises(IllegalMove, match=reason):
        game.apply(event)
    assert game.state == before


def new_game(*events: Event) -> Game:
    game = Game(GameStarted(PLAYERS))
    for event in events:
        game.apply(event)
    return game


THREE_DICE_CITY = (Built((0, 0), (E,)), Built((0, 1), (W | E,)), Built((0, 2), (W,)))


def test_a_turn_is_up_to_three_rolls_of_the_dice_not_kept() -> None:
    game = new_game()
    exp = game.expectation()
    assert (exp.ask, exp.player, exp.dice, exp.roll) == (Ask.ROLL, "Ani", 9, 1)
    refused(game, Rolled("Ani", 5, 2, 1), "Ani rolls 9 dice, but the roll counts 8")
    refused(game, TurnEnded("Ani"), "Ani must roll first")
    refused(game, Rolled("Bo", 9, 0, 0), "it is Ani's turn, not Bo's")
    # Counts below 0 made dice from nothing: 12 city dice and -3 knights add up to the 9 dice.
    refused(game, Rolled("Ani", 12, -3, 0), r"counts are 0 or more, not \(12, -3, 0\)")
    game.apply(Rolled("Ani", 6, 2, 1))
    refused(game, Kept("Ani", -2, THREE_DICE_CITY[:1]), "cannot keep -2 knights")
    game.apply(Kept("Ani", 1, THREE_DICE_CITY[:2]))
    # The catapult went to the left neighbour; 1 knight and 2 city dice are kept: 5 dice are rolled again.
    assert (game.expectation().dice, game.expectation().roll) == (5, 2)
    game.apply(Rolled("Ani", 5, 0, 0))
    game.apply(Rolled("Ani", 3, 1, 1))
    exp = game.expectation()
    assert not exp.can_roll and exp.dice == 4
    refused(game, Rolled("Ani", 4, 0, 0), "cannot roll again: 3 rolls are made")
    refused(game, Kept("Ani", 0, (Built((5, 5), (N,)),) * 4), "the last roll left 3 dice with a city")
    game.apply(Kept("Ani", 0, THREE_DICE_CITY[2:]))
    game.apply(TurnEnded("Ani"))
    assert game.state.scores == (1, 0, 0) and game.turns[-1].city == 3
    # Then all dice pass to the left neighbour.
    assert (game.expectation().player, game.expectation().dice) == ("Bo", 9)


def test_kept_city_dice_are_built_at_once_black_to_black_and_never_moved() -> None:
    game = new_game(Rolled("Ani", 9, 0, 0), Kept("Ani", 0, (Built((0, 0), (E,)),)))
    refused(
        game, Kept("Ani", 0, (Built((0, 1), (N,)),)), "its white west edge would touch the black east edge"
    )
    refused(game, Kept("Ani", 0, (Built((0, 0), (W,)),)), "row 0, col 0 already holds a die")
    # Two dice typed for one free cell: said so (it was refused as if one lay there already).
    refused(game, Kept("Ani", 0, (Built((3, 3), (N,)), Built((3, 3), (S,)))), "row 3, col 3 is given for two")
    refused(game, Kept("Ani", 0, (Built((3, 3), (N, N)),)), "edge N belongs to two areas")
    refused(game, Kept("Ani"), "Ani keeps nothing")
    refused(game, Kept("Ani", 1), "the last roll left 0 knights")
    game.apply(Kept("Ani", 0, (Built((0, 1), (W,)),)))
    assert [b.at for b in game.built] == [(0, 0), (0, 1)]


def test_city_dice_lie_side_by_side_each_touching_the_city() -> None:
    """Building: "dice lie side by side". A die apart from the city (`build 20,20:N`, a slip for 2,2) is
    refused naming its cell; dice built together may join the city through one another, in any order."""
    game = new_game(Rolled("Ani", 9, 0, 0), Kept("Ani", 0, (Built((2, 1), (E,)),)))
    refused(
        game, Kept("Ani", 0, (Built((20, 20), (W,)),)), r"row 20, col 20 cannot be built: it touches no die"
    )
    refused(game, Kept("Ani", 0, (Built((2, 2), (W,)), Built((4, 2), (N,)))), "row 4, col 2 .* side by side")
    assert game.black == {(2, 1): E}, "a refused build takes its dice back out"
    game.apply(Kept("Ani", 0, (Built((4, 2), (N,)), Built((3, 2), (S,)), Built((2, 2), (W,)))))
    assert [b.at for b in game.built] == [(2, 1), (4, 2), (3, 2), (2, 2)]
    first = new_game(Rolled("Ani", 9, 0, 0))
    refused(first, Kept("Ani", 0, (Built((5, 5), (E,)), Built((7, 7), (N,)))), "row 7, col 7")
    first.apply(Kept("Ani", 0, (Built((20, 20), (E,)),)))  # the first die of a turn goes anywhere


def test_catapults_pass_left_at_once_and_nine_in_a_turn_win_at_once() -> None:
    game = new_game(Rolled("Ani", 4, 0, 5))
    assert game.expectation().dice == 4
    game.apply(Rolled("Ani", 0, 0, 4))
    assert game.is_over and game.winner == 0 and "9 catapults" in game.why_over
    refused(game, TurnEnded("Ani"), "the game is over")


def test_three_knights_hold_one_for_a_doubled_next_turn_and_fewer_dice_go_round() -> None:
    game = new_game(Rolled("Ani", 6, 3, 0), Kept("Ani", 2, THREE_DICE_CITY))
    refused(game, TurnEnded("Ani", hold_knight=True), "holding one for the next turn needs 3 or more")
    game.apply(Kept("Ani", 1))
    assert TurnEnded("Ani", hold_knight=True) in legal_actions(game.state)
    game.apply(TurnEnded("Ani", hold_knight=True))
    # No points for the completed city; Ani holds one knight, so 8 dice go round.
    assert game.state.scores == (0, 0, 0) and game.state.held == (True, False, False)
    assert game.expectation().dice == 8
    for name in ("Bo", "Cy"):
        game.apply(Rolled(name, 8, 0, 0))
        game.apply(TurnEnded(name))
    exp = game.expectation()
    assert (exp.player, exp.dice, exp.doubled) == ("Ani", 9, True)
    game.apply(Rolled("Ani", 9, 0, 0))
    game.apply(Kept("Ani", 0, THREE_DICE_CITY))
    game.apply(TurnEnded("Ani"))
    assert game.state.scores == (2, 0, 0) and game.state.held == (False, False, False)


def test_reaching_42_points_wins_at_once() -> None:
    game = new_game()
    nine = (
        Built((0, 0), (E | S,)), Built((0, 1), (W | E | S,)), Built((0, 2), (W | S,)),
        Built((1, 0), (N | E | S,)), Built((1, 1), (N | E | S | W,)), Built((1, 2), (N | W | S,)),
        Built((2, 0), (N | E,)), Built((2, 1), (W | N | E,)), Built((2, 2), (W | N,)),
    )  # fmt: skip
    for name in (*PLAYERS, "Ani"):
        game.apply(Rolled(name, 9, 0, 0))
        if name == "Ani":
            game.apply(Kept(name, 0, nine))
        game.apply(TurnEnded(name))
    assert game.is_over and game.state.scores[0] == 56 and "Ani reached 56 points" in game.why_over
    assert score_game(game.state).winner == "Ani"


def test_the_engines_points_are_the_city_scorers_and_the_log_round_trips() -> None:
    for seed in range(20):
        game, events = play_random_game(GameStarted(PLAYERS[: 2 + seed % 3]), random.Random(seed))
        assert game.is_over
        assert max(game.scores) >= 42 or game.catapults == 9
        assert [event_from_json(event_to_json(e)) for e in events] == events
        assert list(read_log(Path("log.jsonl"), log_text(events).encode(), LOG_FORMAT).events) == events
        assert replay(events) == game.state
        assert sum(t.points for t in game.turns) == sum(game.scores)


@pytest.mark.parametrize(
    ("event", "field"),
    [
        (Kept("Ani", 2, (Built((8, 8), (N,)),)), "built"),
        (Kept("Ani", 2, (Built((8, 8), (N,)),)), "knights"),
        (TurnEnded("Ani", hold_knight=True), "hold_knight"),
    ],
)
def test_a_log_line_that_lost_a_field_of_the_score_is_refused_naming_it(event: Event, field: str) -> None:
    """Found by the fuzz: a `kept` line without its `built` was read as nothing built, a different score."""
    data = event_to_json(event)
    del data[field]
    with pytest.raises(EventFormatError, match=f"^{field}: missing"):
        event_from_json(data)


@settings(max_examples=50, deadline=None)
@given(st.integers(0, 10_000), st.integers(2, 60))
def test_a_turn_scores_what_the_city_scorer_says_and_apply_never_changes_its_input(
    seed: int, cut: int
) -> None:
    _, events = play_random_game(GameStarted(PLAYERS), random.Random(seed))
    state = replay(events[:cut])
    for event in events[cut : cut + 20]:
        before = state
        if isinstance(event, TurnEnded) and not event.hold_knight:
            layout = {b.at: b.areas for b in state.built}
            expected = score_layout(layout, state.doubled).points
            state = apply(state, event)
            assert state.turns[-1].points == expected
        else:
            state = apply(state, event)
        assert before != state
    prefix = list(events[:cut])
    assert undo(prefix)[1] == replay(prefix[:-1])


def test_a_game_needs_two_to_five_players_with_different_names() -> None:
    with pytest.raises(IllegalMove, match="2 to 5 players, not 1"):
        start(GameStarted(("Ani",)))
    with pytest.raises(IllegalMove, match="names must differ"):
        start(GameStarted(("Ani", "Ani")))


def test_a_log_cut_short_is_refused_like_the_other_games_logs(tmp_path: Path) -> None:
    """`companion score` of a Carcassonne log whose game is not over: exit 2 and why, as an Alhambra dice or
    Roll & Write log cut short is refused (it is a game in progress, not a game to score)."""
    example = Path(__file__).parents[2] / "companion/games/carcassonne_dice/examples/example-game.jsonl"
    part = tmp_path / "playing.jsonl"
    part.write_text("".join(example.read_text().splitlines(keepends=True)[:7]))
    command = [sys.executable, "-m", "companion", "score", str(part)]
    result = subprocess.run(command, capture_output=True, text=True, check=False)
    assert result.returncode == 2 and result.stderr == (
        f"companion score: {part}: the game is not over: turn 2 is being played\n"
    ), result.stderr
    whole = subprocess.run([*command[:-1], str(example)], capture_output=True, text=True, check=False)
    assert whole.returncode == 0 and whole.stdout.startswith("Carcassonne dice game: over"), whole.stderr


def test_knights_kept_in_two_steps_are_no_more_than_the_roll_showed() -> None:
    """Rules page: knights kept are never re-rolled; a roll of 2 knights cannot keep 3 (nor hold one)."""
    game = new_game(Rolled("Ani", 7, 2, 0))
    game.apply(Kept("Ani", 1, ()))
    refused(game, Kept("Ani", 2, ()), "the last roll left 1 knight to keep, not 2")
    game.apply(Kept("Ani", 1, ()))
    refused(game, Kept("Ani", 1, ()), "the last roll left 0 knights to keep, not 1")
    assert game.expectation().dice == 7


def test_a_turn_that_holds_a_knight_records_no_city_and_no_points() -> None:
    game = new_game(
        Rolled("Ani", 6, 3, 0), Kept("Ani", 3, THREE_DICE_CITY), TurnEnded("Ani", hold_knight=True)
    )
    held = game.turns[-1]
    assert (held.city, held.points, held.held_knight) == (0, 0, True)
    assert held.why == "kept 3 knights and holds one: no points now, the next turn counts double"
    assert score_game(game.state).to_json()["players"][0]["turns"][0]["city"] == 0
