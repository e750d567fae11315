"""Advice ranks a clearly best choice first in a known position of each game, is the same for a given seed,
says why there is nothing to advise while the game waits for dice, and never changes the game it is asked
about. Every game's advice is found through the table of games."""

from __future__ import annotations

import dataclasses
import random

import pytest

from companion.games import alhambra_dice as ad
from companion.games import alhambra_rw as rw
from companion.games import carcassonne_dice as cd
from companion.games.advice import Advice, Decision, advise
from companion.games.alhambra_dice.simulate import play_random_game, prepare
from companion.games.alhambra_rw.endstate import GAME_ID as RW
from companion.games.alhambra_rw.engine import Game as RollAndWriteGame
from companion.games.alhambra_rw.sheet import load_shipped_sheet
from companion.games.alhambra_rw.simulate import play_random_game as play_random_game_rw
from companion.games.carcassonne_dice.city import N, S
from companion.games.table import GAMES

PLAYOUTS = 60


def advised(state: object, game_id: str) -> Advice:
    advising = GAMES[game_id].advice
    assert advising is not None
    return advise(advising.decision(state), PLAYOUTS, None, seed=3)


def row_completing_position() -> tuple[rw.GameState, str, str]:
    """The last round of a Roll & Write game: the start player's dice cross y{a}×b{b}, the last free cell of
    row a (6 crossed cells: 10 VP instead of 5), or y{c}×b{b}, a cell of the same building alone in its row
    and column. No coins, so no pips change."""
    sheet = load_shipped_sheet("example")
    setup = rw.GameStarted(sheet, ("Ann", "Ben"), ("Nora",))

    def kind(y: int, b: int) -> int:
        return sheet.cell_type[(y - 1) * 6 + b - 1]

    a, c, b = next(
        (a, c, b)
        for b in range(1, 7)
        for a in range(1, 7)
        for c in range(1, 7)
        if a != c and kind(a, b) == kind(c, b)
    )
    game = RollAndWriteGame(setup)
    row = [(a, blue) for blue in range(1, 7) if blue != b]
    for y, blue in row:
        game.crossed[0] |= 1 << ((y - 1) * 6 + blue - 1)
        game.counts[0][kind(y, blue)] += 1
    game.spent[0] = game.circled[0]
    game.yellow[0], game.blue[0] = [a, c], [b, b]
    game.yellow[1], game.blue[1] = [3], [4]  # Ben's kept pair; Ann passes hers on
    game.round, game.ask, game.active = game.rounds, rw.Ask.ACTION, 0
    return game.state, f"cross y{a}×b{b}", f"cross y{c}×b{b}"


def test_roll_and_write_advises_the_crossing_that_completes_a_row() -> None:
    state, best, other = row_completing_position()
    advice = advised(state, RW)
    words = [e.words for e in advice.estimates]
    assert words[0].startswith(best), words
    assert any(w.startswith(other) for w in words) and "take coins (+0)" in words
    first = advice.estimates[0]
    second = next(e for e in advice.estimates if e.words.startswith(other))
    assert first.score - second.score == pytest.approx(5, abs=1)


def test_roll_and_write_names_each_crossing_by_the_key_that_crosses_it() -> None:
    """The advice ranks its choices 1, 2, … in the style of keys; its best crossing, its rank pressed on the
    game screen, crossed another: each crossing names its own key (the screen's 1-4, `rw.crossings`)."""
    state, _, _ = row_completing_position()
    words = [e.words for e in advised(state, RW).estimates]
    for key, crossing in enumerate(rw.crossings(state), start=1):
        named = f"cross y{crossing.yellow}×b{crossing.blue} {crossing.building} (key {key})"
        assert named in words, (named, words)


def test_roll_and_write_offers_each_crossing_by_the_cheapest_change_of_pips() -> None:
    """With y5 y6 b5 b2, b4 was reached by turning b2 up two pips (2 coins) and never by b5 down one (1
    coin): the first change found was kept, not the cheapest."""
    game = RollAndWriteGame(rw.GameStarted(load_shipped_sheet("example"), ("Ann", "Ben"), ("Nora",)))
    game.yellow[0], game.blue[0] = [5, 6], [5, 2]
    game.yellow[1], game.blue[1] = [3], [4]
    game.round, game.ask, game.active = 1, rw.Ask.ACTION, 0
    advising = GAMES[RW].advice
    assert advising is not None
    words = [c.words for c in advising.decision(game.state).choices]
    to_b4 = [w for w in words if "×b4" in w]
    assert to_b4 and all(w.startswith("turn b5 to b4 (1 coin)") for w in to_b4), words


def seven_pavilions() -> ad.GameState:
    """Round 1 of an Alhambra dice game: the start player has rolled 3 times and shows 7 pavilions, 1
    seraglio: a marker on line 7 of the pavilion column, or on line 1 of the seraglio's."""
    state = ad.start(ad.GameStarted(("Ann", "Ben", "Cleo")))
    state = ad.apply(state, prepare(ad.fold(state.log), random.Random(1)))
    for _ in range(3):
        state = ad.apply(state, ad.Rolled("Ann", (7, 1, 0, 0, 0, 0)))
    return state


def test_alhambra_dice_advises_the_marker_on_seven_pavilions() -> None:
    advice = advised(seven_pavilions(), ad.GAME_ID)
    assert [e.words for e in advice.estimates] == [
        "place a marker on pavilion, line 7, right field",
        "place a marker on seraglio, line 1, right field",
    ]
    assert advice.player == "Ann" and advice.estimates[0].playouts == PLAYOUTS


def test_alhambra_dice_offers_each_set_aside_after_the_first_roll() -> None:
    state = ad.start(ad.GameStarted(("Ann", "Ben", "Cleo")))
    state = ad.apply(state, prepare(ad.fold(state.log), random.Random(1)))
    state = ad.apply(state, ad.Rolled("Ann", (3, 3, 2, 0, 0, 0)))
    advising = GAMES[ad.GAME_ID].advice
    assert advising is not None
    decision = advising.decision(state)
    assert isinstance(decision, Decision)
    assert [c.words for c in decision.choices][:4] == [
        "set aside the 3 pavilions, roll the other 5",
        "set aside the 3 seraglios, roll the other 5",
        "set aside the 2 arcades, roll the other 6",
        "roll all 8 dice again",
    ]


def winning_city() -> cd.GameState:
    """Ann and Ben have 41 points each; Ann has built a completed city of 3 dice (1 point) and kept 3
    knights with no die left to roll: stopping wins now, holding a knight scores nothing and lets Ben play."""
    state = dataclasses.replace(cd.start(cd.GameStarted(("Ann", "Ben"))), scores=(41, 41))
    state = cd.apply(state, cd.Rolled("Ann", 3, 3, 3))
    city = (cd.Built((8, 8), (S,)), cd.Built((9, 8), (N | S,)), cd.Built((10, 8), (N,)))
    return cd.apply(state, cd.Kept("Ann", 3, city))


def test_alhambra_dice_offers_no_set_aside_that_leaves_no_die_to_roll() -> None:
    """8 towers in one roll: "set aside the 8 towers, roll the other 0" only used up a roll, and was ranked
    above the best field on the board."""
    state = ad.start(ad.GameStarted(("Ann", "Ben", "Cleo")))
    state = ad.apply(state, prepare(ad.fold(state.log), random.Random(1)))
    state = ad.apply(state, ad.Rolled("Ann", (0, 0, 0, 0, 0, 8)))
    advising = GAMES[ad.GAME_ID].advice
    assert advising is not None
    words = [c.words for c in advising.decision(state).choices]
    assert not any("roll the other 0" in w for w in words) and "roll all 8 dice again" in words, words


def test_carcassonne_advises_to_stop_when_stopping_wins() -> None:
    advice = advised(winning_city(), cd.GAME_ID)
    assert [e.words for e in advice.estimates] == [
        "stop: +1 (a completed city of 3 dice)",
        "hold a knight: no points now, the next turn counts double",
    ]
    assert advice.estimates[0].win == 1.0 > advice.estimates[1].win


def test_the_same_seed_gives_the_same_advice() -> None:
    state = seven_pavilions()
    assert advised(state, ad.GAME_ID) == advised(state, ad.GAME_ID)


@pytest.mark.parametrize("game_id", [RW, ad.GAME_ID, cd.GAME_ID])
def test_a_game_waiting_for_dice_is_told_to_roll_first(game_id: str) -> None:
    entry = GAMES[game_id]
    assert entry.random_game is not None and entry.rules is not None and entry.advice is not None
    events = entry.random_game(2, random.Random(4))
    waiting = next(
        state
        for state in (entry.rules.replay(events[:n]) for n in range(1, len(events)))
        if getattr(entry.rules.expectation(state), "ask", None) in ("roll", "roll_all", "setup_cross")
    )
    note = advise(entry.advice.decision(waiting), PLAYOUTS, None).note
    assert note.startswith("roll first: "), note


def test_advice_never_changes_the_state_it_is_asked_about() -> None:
    for state, game_id in ((row_completing_position()[0], RW), (winning_city(), cd.GAME_ID)):
        before = dataclasses.astuple(state)
        advised(state, game_id)
        assert dataclasses.astuple(state) == before
    state = seven_pavilions()
    log = state.log
    advised(state, ad.GAME_ID)
    assert state.log == log and ad.replay(list(log)) == state


def test_the_original_alhambra_has_no_decisions_to_advise() -> None:
    assert GAMES["alhambra"].advice is None


def test_a_race_won_in_every_playout_ranks_the_choices_that_roll_no_dice_first() -> None:
    """Ann at 41 with a completed city of 3 dice and 3 dice free: stopping wins now, and so did rolling again
    in every playout, for a point more now and then: rolling was ranked first, for a win just as sure."""
    state = dataclasses.replace(cd.start(cd.GameStarted(("Ann", "Ben"))), scores=(41, 30))
    state = cd.apply(state, cd.Rolled("Ann", 3, 3, 3))
    city = (cd.Built((8, 8), (S,)), cd.Built((9, 8), (N | S,)), cd.Built((10, 8), (N,)))
    state = cd.apply(state, cd.Kept("Ann", 0, city))
    sure = [e for e in advised(state, cd.GAME_ID).estimates if e.win == 1]
    rolling = ["roll the other" in e.words for e in sure]
    assert rolling == sorted(rolling) and True in rolling, sure
    assert sure[0].words == "stop: +1 (a completed city of 3 dice)"
    assert max(e.score for e in sure if "roll the other" in e.words) > sure[0].score


def test_alcazabas_advice_names_the_rebuild_action_it_leaves_out() -> None:
    """After roll 1 or 2 (with a tile to move) a rebuild action may replace the marker: not advised, and said
    so under the advice; never in the standard game."""
    advising = GAMES[ad.GAME_ID].advice
    assert advising is not None
    rebuild = "a rebuild action instead of the marker (`rebuild …`)"
    for setup in (ad.GameStarted(("Ann", "Ben"), "alcazaba"), ad.GameStarted(("Ann", "Ben"))):
        events = play_random_game(setup, random.Random(3))[1]
        state, said = ad.replay(events[:1]), set()
        for event in events[1:]:
            decision = advising.decision(state)
            if isinstance(decision, Decision):
                window = state.ask is ad.Ask.CHOOSE and decision.fork().rolls in (1, 2)
                if (decision.unadvised, window) not in said and decision.unadvised:
                    assert advise(decision, 1, None).unadvised == decision.unadvised
                said.add((decision.unadvised, window))
            state = ad.apply(state, event)
        if setup.variant == "alcazaba":
            assert said >= {(rebuild, True), ("", False)} and (rebuild, False) not in said, said
        else:
            assert said == {("", True), ("", False)}


@pytest.mark.parametrize(
    ("players", "variant", "last_round", "by_win"),
    [
        (("Ann", "Ben"), rw.STANDARD, True, True),
        (("Ann", "Ben"), rw.STANDARD, False, False),
        (("Ann",), rw.STANDARD, True, False),
        (("Ann",), rw.VERSUS_IMAGINARY, True, True),
    ],
)
def test_roll_and_write_ranks_the_last_round_by_the_chance_to_win(
    players: tuple[str, ...], variant: str, last_round: bool, by_win: bool
) -> None:
    """In the last round a crossing 2 points better (66.8) ranked above coins that won more often (87% to
    70%): the last round is a race against the others, and the advice ranks it by the chance to win. Solo
    against imaginary players that score nothing, the aim stays the highest score."""
    imaginary = ("Nora", "Omar")[: 3 - len(players)]
    setup = rw.GameStarted(load_shipped_sheet("example"), players, imaginary, variant)
    _, events = play_random_game_rw(setup, random.Random(5))
    game = RollAndWriteGame(setup)
    for event in events[1:]:
        game.apply(event)
        state = game.state
        if state.ask is rw.Ask.ACTION and state.active == 0 and (state.round == state.rounds) is last_round:
            break
    else:
        raise AssertionError("the game never came to such a decision")
    advice = advised(state, RW)
    assert advice.by_win is by_win
    if by_win:
        wins = [e.win for e in advice.estimates]
        assert wins == sorted(wins, reverse=True)
