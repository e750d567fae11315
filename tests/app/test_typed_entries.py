"""What the players type in the dice games: any text is an entry or a reason, never a crash, and a word is
read as the screen writes it."""

from __future__ import annotations

import random

import pytest

from companion.app import alhambra_dice_input, carcassonne_dice_input
from companion.games import alhambra_dice as ad
from companion.games import carcassonne_dice as cd


@pytest.mark.parametrize("typed", ["5 3 ²", "① 2 3", "keep ²", "keep ³ build 0,0:S"])
def test_a_digit_int_cannot_read_is_refused_in_carcassonne(typed: str) -> None:
    # str.isdigit() holds for ² and ①, which int() refuses: the entry line closed the app.
    state = cd.apply(cd.start(cd.GameStarted(("Ann", "Ben"))), cd.Rolled("Ann", 5, 3, 1))
    with pytest.raises(carcassonne_dice_input.InputError):
        carcassonne_dice_input.parse(typed, state)


def test_full_width_digits_are_read_as_digits() -> None:
    state = cd.start(cd.GameStarted(("Ann", "Ben")))
    assert carcassonne_dice_input.parse("５ ３ １", state) == cd.Rolled("Ann", 5, 3, 1)


def test_a_digit_int_cannot_read_is_refused_in_the_alhambra_dice_game() -> None:
    state = ad.start(ad.GameStarted(("Ann", "Ben", "Cleo")))
    state = ad.apply(state, alhambra_dice_input.parse("draw", state, random.Random(0)))
    with pytest.raises(alhambra_dice_input.InputError):
        alhambra_dice_input.parse("² 2 2 1 1 0", state, random.Random(0))


def test_a_second_keep_is_refused_not_put_in_the_firsts_place() -> None:
    state = cd.apply(cd.start(cd.GameStarted(("Ann", "Ben"))), cd.Rolled("Ann", 5, 3, 1))
    with pytest.raises(carcassonne_dice_input.InputError, match="`keep` is typed once a line"):
        carcassonne_dice_input.parse("keep 1 build 0,0:S keep 1", state)
    assert carcassonne_dice_input.parse("keep 2 build 0,0:S", state) == cd.Kept(
        "Ann", 2, (cd.Built((0, 0), (cd.S,)),)
    )


def test_dirk_is_typed_as_the_screen_writes_him() -> None:
    state = ad.start(ad.GameStarted(("Ann", "Ben")))
    typed = alhambra_dice_input.parse(
        "tiles vp cancel start vp exchange vp Dirk garden", state, random.Random(0)
    )
    assert typed == ad.RoundPrepared(("vp", "cancel", "start_player", "vp", "exchange", "vp"), "garden")


def test_the_next_start_player_is_the_name_as_written_before_one_alike_but_for_case() -> None:
    names = ("ann", "Ann", "Ben")
    assert alhambra_dice_input.next_start_player(["Ann"], names) == "Ann"
    assert alhambra_dice_input.next_start_player(["ANN"], names) == "ann"
    with pytest.raises(alhambra_dice_input.InputError, match="name the next start player"):
        alhambra_dice_input.next_start_player(["Cleo"], names)
