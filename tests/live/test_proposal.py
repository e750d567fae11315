"""Which settled readings go straight in, and which the players are asked about."""

from __future__ import annotations

from dataclasses import replace

from companion.games import alhambra_rw as rw
from companion.live.match import propose, propose_city_roll, propose_faces
from vision.reading import Box, DiceReading, Die


def reading(*dice: tuple[str, int, float]) -> DiceReading:
    return DiceReading(
        tuple(Die(Box(10 * i, 0, 10 * i + 8, 8), "pip", c, conf, v) for i, (c, v, conf) in enumerate(dice)),
        0.0,
    )


PAIR = rw.Expectation(rw.Ask.REROLL_USED_PAIR, "Barbara", "Barbara", 1, 1, 1, 6, "Barbara re-rolls her pair")


def test_sure_dice_of_the_roll_go_in_and_unsure_finds_beside_them_are_passed_over() -> None:
    sure = propose(reading(("yellow", 2, 0.95), ("blue", 6, 0.96)), PAIR)
    assert (
        sure is not None
        and sure.sure
        and sorted((d.colour, d.value) for d in sure.dice)
        == [
            ("blue", 6),
            ("yellow", 2),
        ]
    )
    # A dot of the table read as an unsure third die, of a game colour or another: the roll still goes in,
    # and what the camera read (kept in the log if the players fix the roll) still shows it.
    clutter = propose(
        reading(("yellow", 2, 0.95), ("blue", 6, 0.96), ("blue", 3, 0.55), ("red", 1, 0.6)), PAIR
    )
    assert clutter is not None and clutter.sure and [d.value for d in clutter.dice] == [2, 6]
    assert clutter.read == "y2 b3 b6 red 1"


def test_a_sure_extra_die_or_an_unsure_die_of_the_roll_is_asked_about() -> None:
    extra = propose(reading(("yellow", 2, 0.95), ("blue", 6, 0.96), ("blue", 3, 0.9)), PAIR)
    assert extra is not None and not extra.sure and extra.problem == "2 blue dice seen, 1 expected"
    other = propose(reading(("yellow", 2, 0.95), ("blue", 6, 0.96), ("red", 3, 0.9)), PAIR)
    assert other is not None and not other.sure
    assert (
        other.problem
        == "1 die of another colour ignored (if they are the game's dice, F3 teaches their colours)"
    )
    # Which of two unsure blue dice was thrown is the players' call.
    unsure = propose(reading(("yellow", 2, 0.95), ("blue", 6, 0.7), ("blue", 3, 0.6)), PAIR)
    assert unsure is not None and not unsure.sure
    assert unsure.problem == "2 blue dice seen, 1 expected; unsure of b6 (70%)"
    missing = propose(reading(("yellow", 2, 0.95), ("blue", 3, 0.55)), replace(PAIR, blue=2))
    assert missing is not None and not missing.complete and missing.problem.startswith("missing")
    # Game dice the profile names another colour: what is missing, and the dice that may be them, with F3.
    misnamed = propose(reading(("yellow", 2, 0.95), ("red", 3, 0.9)), PAIR)
    assert misnamed is not None and not misnamed.complete
    assert misnamed.problem == (
        "missing 1 blue die expected, 0 seen; "
        "1 die of another colour ignored (if they are the game's dice, F3 teaches their colours)"
    )


# ------------------------------------------------------------------------------------ symbol dice by face
FACES = ("pavilion", "seraglio", "arcades", "chambers", "garden", "tower")


def faces(*dice: tuple[str | None, float], colour: str = "white") -> DiceReading:
    return DiceReading(
        tuple(
            Die(Box(40 * i, 0, 40 * i + 30, 30), "symbol", colour, conf, face=face, rotation=0)
            for i, (face, conf) in enumerate(dice)
        ),
        0.0,
    )


def test_symbol_dice_are_counted_by_face_whatever_colour_a_white_die_is_named() -> None:
    dice = [("tower", 0.95)] * 5 + [("garden", 0.9)] * 3
    sure = propose_faces(faces(*dice, colour="black"), FACES, 8)
    assert sure.sure and sure.counts == (0, 0, 0, 0, 3, 5) and sure.read == "5 tower, 3 garden"
    clutter = propose_faces(faces(*dice, ("unknown", 0.55)), FACES, 8)
    assert clutter.sure and clutter.counts == (0, 0, 0, 0, 3, 5), "an unsure find beside sure dice is clutter"


def test_the_black_die_counts_for_nothing_and_must_show_the_face_it_was_set_to() -> None:
    dice = [("tower", 0.95)] * 5 + [("garden", 0.9)] * 3 + [("seraglio", 0.92)]
    assert propose_faces(faces(*dice), FACES, 8, "seraglio").counts == (0, 0, 0, 0, 3, 5)
    missing = propose_faces(faces(*dice), FACES, 8, "pavilion")
    assert not missing.complete and "black die's pavilion" in missing.problem


def test_unsure_missing_and_unreadable_dice_are_asked() -> None:
    unsure = propose_faces(faces(*[("tower", 0.95)] * 7, ("garden", 0.6)), FACES, 8)
    assert unsure.complete and not unsure.sure and unsure.problem == "unsure of garden (60%)"
    missing = propose_faces(faces(*[("tower", 0.95)] * 7), FACES, 8)
    assert not missing.complete and missing.problem == "missing dice: 8 expected, 7 seen"
    blank = propose_faces(faces(*[("tower", 0.95)] * 7, ("unknown", 0.85)), FACES, 8)
    assert not blank.complete and blank.problem == "a die not made out"


CITY = ("city1", "city2", "city3", "city4")


def test_a_carcassonne_throw_is_counted_less_the_city_built_and_the_knights_kept() -> None:
    # On the table: 3 city dice built and a knight kept this turn, then 5 dice thrown.
    built = [("city2", 0.97), ("city2", 0.96), ("city1", 0.98), ("knight", 0.95)]
    thrown = [("city4", 0.95), ("knight", 0.97), ("catapult", 0.96), ("catapult", 0.99), ("city3", 0.93)]
    roll = propose_city_roll(faces(*built, *thrown), CITY, 5, 3, 1)
    assert roll.sure and roll.counts == (2, 1, 2) and "1 city4" in roll.read
    # The first throw of a turn: every die in view was thrown.
    assert propose_city_roll(faces(*thrown), CITY, 5, 0, 0).counts == (2, 1, 2)
    # Fewer city dice in view than were built: the built city is out of view, or a die was misread.
    short = propose_city_roll(faces(*[("knight", 0.95)] * 9), CITY, 5, 3, 1)
    assert not short.complete and "do not include the 3 city dice built" in short.problem
    missing = propose_city_roll(faces(*built, *thrown[:4]), CITY, 5, 3, 1)
    assert not missing.complete and missing.problem == "missing dice: 9 expected, 8 seen"
    unsure = propose_city_roll(faces(*built, *thrown[:4], ("city3", 0.6)), CITY, 5, 3, 1)
    assert unsure.complete and not unsure.sure and unsure.counts == (2, 1, 2)


def test_each_games_camera_turns_a_reading_into_the_move_the_game_waits_for() -> None:
    """The adapters the screens and the demos share: a sure reading becomes the roll of the player who
    rolls now, marked as the camera's; a game waiting for no dice proposes nothing."""
    from companion.games import alhambra_dice as ad
    from companion.live.cameras import AlhambraDiceCamera, RollAndWriteCamera

    proposal = RollAndWriteCamera.proposal(reading(("yellow", 2, 0.95), ("blue", 6, 0.96)), PAIR)
    assert proposal is not None and proposal.sure
    roll = RollAndWriteCamera.event(proposal.dice, PAIR, "camera")
    assert roll == rw.Roll("Barbara", (2,), (6,)) and roll is not None and roll.source == "camera"
    choose = replace(PAIR, ask=rw.Ask.ACTION, yellow=0, blue=0)
    assert RollAndWriteCamera.proposal(reading(("yellow", 2, 0.95)), choose) is None

    state = ad.start(ad.GameStarted(("Ann", "Ben", "Cleo")))
    waits = ad.expectation(state)
    assert AlhambraDiceCamera.proposal(reading(("white", 1, 0.9)), waits, state) is None, (
        "the round is prepared first"
    )
    rolled = AlhambraDiceCamera.event((8, 0, 0, 0, 0, 0), replace(waits, player="Ann"), "camera", "read 8")
    assert rolled == ad.Rolled("Ann", (8, 0, 0, 0, 0, 0)) and rolled is not None and rolled.note == "read 8"
