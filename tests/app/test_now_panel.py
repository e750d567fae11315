"""The Now panel says only what holds now: the line under it offers the entries open (the Alhambra dice
game's second best was offered `points` where the best had taken them; Carcassonne offered the next roll
after the third and `hold` before 3 knights were kept), and no player has "0 markers left" before a round's
markers are handed out."""

from __future__ import annotations

import random

import pytest

from companion.app import alhambra_dice_input, carcassonne_dice_input
from companion.app.widgets.alhambra_board import player_lines
from companion.games import alhambra_dice as ad
from companion.games import carcassonne_dice as cd
from companion.games.alhambra_dice.simulate import play_random_game as play_alhambra
from companion.games.carcassonne_dice.simulate import play_random_game as play_carcassonne


def test_a_prize_offers_only_the_prizes_left() -> None:
    events = play_alhambra(ad.GameStarted(("Ann", "Ben", "Cleo")), random.Random(4))[1]
    offered: dict[tuple[str, ...], str] = {}
    for n in range(1, len(events)):
        state = ad.replay(events[:n])
        exp = ad.expectation(state)
        if exp.ask is ad.Ask.PRIZE and exp.auto is None:
            offered[exp.prizes] = alhambra_dice_input.entry_help(exp)
            # Enter on an empty line says the same (it said the whole step's help, `points` too).
            with pytest.raises(alhambra_dice_input.InputError) as empty:
                alhambra_dice_input.parse("", state, random.Random(0))
            assert str(empty.value) == offered[exp.prizes]
    assert set(offered) == {("points", "tile"), ("tile",)}, offered
    assert offered[("points", "tile")].startswith("type `points` or `tile")
    assert offered[("tile",)].startswith("type `tile") and "points" not in offered[("tile",)]


def test_a_choice_offers_the_next_roll_and_hold_only_when_the_turn_allows_them() -> None:
    events = play_carcassonne(cd.GameStarted(("Ann", "Ben")), random.Random(2))[1]
    seen = []
    said_once: set[str] = set()
    for n in range(1, len(events)):
        exp = cd.expectation(cd.replay(events[:n]))
        if exp.ask is cd.Ask.CHOOSE:
            said = carcassonne_dice_input.entry_help(exp)
            said_once.add(said)
            seen.append((exp.can_roll, exp.can_hold_knight))
            assert ("the next roll's counts" in said) == exp.can_roll, (exp, said)
            assert ("`hold`" in said) == exp.can_hold_knight, (exp, said)
            assert said.startswith("type `") or said.startswith("type the"), said  # never "type , or `stop`"
            assert said.endswith("`stop`") or said.endswith("the next turn counts double)"), said
    assert {roll for roll, _ in seen} == {True, False} and {hold for _, hold in seen} == {True, False}
    # Every die kept and no knight to hold: one entry.
    assert "type `stop`" in said_once


def test_markers_left_are_said_once_a_round_hands_them_out() -> None:
    state = ad.start(ad.GameStarted(("Ann", "Ben", "Cleo")))
    assert [line.split(" ", 1)[1] for line in player_lines(state)] == [
        "Ann: VP tiles 0",
        "Ben: VP tiles 0",
        "Cleo: VP tiles 0",
    ]
    state = ad.apply(state, ad.RoundPrepared(("vp", "cancel", "start_player", "vp", "exchange", "vp")))
    assert player_lines(state)[0].endswith("Ann: 5 markers left, VP tiles 0")
