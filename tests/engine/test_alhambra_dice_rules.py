"""Each rule of Alhambra – the dice game as the rules page names it, the rulebook's worked examples, and
each illegal event refused with the reason (nothing changed)."""

from __future__ import annotations

import pytest
from ad_helpers import LAYOUTS, ROUND, dice, fill, settle, turn

from companion.app.alhambra_dice_words import describe
from companion.games.alhambra_dice import (
    DIRK,
    Ask,
    BlackDieSet,
    Event,
    Game,
    GameStarted,
    IllegalMove,
    MarkerPlaced,
    PrizeTaken,
    RollCancelled,
    Rolled,
    RoundPrepared,
)
from companion.games.alhambra_dice.engine import MARKERS, field_text, slot_of
from companion.games.alhambra_dice.events import EventFormatError, event_from_json, event_to_json

THREE = ("Ann", "Ben", "Cleo")


def refused(game: Game, event: Event, reason: str) -> None:
    before = game.state
    with pytest.raises(IllegalMove, match=reason):
        game.apply(event)
    assert game.state == before


def new_game(players: tuple[str, ...] = THREE, *events: Event) -> Game:
    game = Game(GameStarted(players))
    for event in (ROUND, *events) if not events or not isinstance(events[0], RoundPrepared) else events:
        game.apply(event)
    return game


def where(game: Game, building: str) -> list[tuple[str, str]]:
    """The markers of a column, best first, as (field, player)."""
    column = game.state.board[
        ["pavilion", "seraglio", "arcades", "chambers", "garden", "tower"].index(building)
    ]
    return [(field_text(slot), game.names[p]) for slot, p in enumerate(column) if p is not None]


# ------------------------------------------------------------------------------------ players, markers
@pytest.mark.parametrize(("players", "markers"), [(2, 5), (3, 5), (4, 4), (5, 3), (6, 3)])
def test_markers_per_player_are_the_turns_of_a_round(players: int, markers: int) -> None:
    names = tuple("ABCDEF"[:players])
    game = Game(GameStarted(names))
    game.apply(RoundPrepared(ROUND.tiles, "pavilion" if players == 2 else None))
    assert MARKERS[players] == markers and game.state.markers_left[:players] == (markers,) * players
    turns = []
    while game.ask is Ask.ROLL:
        turns.append(game.names[game.active])
        turn(game, "garden", dice(garden=2))
    assert turns == list(names) * markers  # clockwise from the Caliph, the first player
    assert game.ask is Ask.PRIZE


def test_a_game_has_2_to_6_players_with_names_of_their_own() -> None:
    for players, reason in [(("A",), "2 to 6 players"), (tuple("ABCDEFG"), "2 to 6"), (("A", "A"), "differ")]:
        with pytest.raises(IllegalMove, match=reason):
            Game(GameStarted(players))
    with pytest.raises(IllegalMove, match="imaginary Dirk"):
        Game(GameStarted(("Ann", DIRK)))


def test_a_blank_or_long_name_is_refused_in_the_players_words() -> None:
    """A blank name was "must be 1 to 40 characters, not '   '"; a long one counted its quotes ("53
    characters" for 51)."""
    with pytest.raises(IllegalMove, match="a player name cannot be blank, not '   '"):
        Game(GameStarted(("Ann", "   ")))
    with pytest.raises(IllegalMove, match=r"must be 1 to 40 characters, not 'M.*…\(51 characters\)$"):
        Game(GameStarted(("Ann", "M" * 51)))


# --------------------------------------------------------------------------------------------- a turn
def test_the_rulebooks_example_carl_5_seraglios_in_3_rolls_marks_line_5_right() -> None:
    """Carl sets aside 3 seraglios from the first roll, rolls 5 dice and sets aside 2 more, rolls 3 and gets
    no seraglio: 5 seraglios in 3 rolls."""
    game = new_game(("Carl", "Dora", "Eli"))
    turn(game, "seraglio", dice(seraglio=3), dice(seraglio=5), dice(seraglio=5))
    assert where(game, "seraglio") == [("line 5, right field", "Carl")]


def test_field_is_line_by_count_and_left_middle_right_by_rolls() -> None:
    game = new_game()
    turn(game, "garden", dice(garden=4))
    turn(game, "garden", dice(garden=1), dice(garden=4))
    turn(game, "garden", dice(garden=2), dice(garden=2), dice(garden=6))
    assert where(game, "garden") == [
        ("line 6, right field", "Cleo"),
        ("line 4, left field", "Ann"),
        ("line 4, middle field", "Ben"),
    ]
    assert slot_of(8, 1) == 0 and slot_of(1, 3) == 23


def test_a_turn_is_up_to_3_rolls_of_all_8_dice() -> None:
    game = new_game()
    assert game.expectation().prompt == "Ann: roll 8 dice, roll 1 of 3"
    refused(game, Rolled("Ann", (1, 1, 1, 1, 1, 1)), "all 8 white dice")
    refused(game, Rolled("Ann", (9, 0, 0, 0, 0, -1)), "none below 0")
    refused(game, MarkerPlaced("Ann", "garden"), "no marker to place now")
    for _ in range(3):
        game.apply(Rolled("Ann", dice(garden=3)))
    assert game.expectation().prompt.startswith("Ann: place a marker (garden 3, tower 5; 3 rolls used)")
    refused(game, Rolled("Ann", dice()), "rolled 3 times: place a marker")
    refused(game, MarkerPlaced("Ann", "pavilion"), "no die shows pavilion")
    refused(game, MarkerPlaced("Ben", "garden"), "it is Ann's turn, not Ben's")
    refused(game, MarkerPlaced("Zoe", "garden"), "no player named 'Zoe'")


def test_after_a_roll_the_table_is_told_what_it_may_do() -> None:
    game = new_game()
    game.apply(Rolled("Ann", dice(garden=3)))
    assert game.expectation().prompt == (
        "Ann: set dice aside, roll the rest (roll 2 of 3) or place a marker (garden 3, tower 5; 1 roll used)"
    )


# ------------------------------------------------------------------------------ occupied fields, out
def test_a_marker_on_an_occupied_field_goes_to_the_next_worse_free_field() -> None:
    """The rulebook's example: '5 seraglios in 3 rolls' is taken, own or other marker alike."""
    game = new_game()
    turn(game, "seraglio", dice(seraglio=5), dice(seraglio=5), dice(seraglio=5))
    turn(game, "seraglio", dice(seraglio=5), dice(seraglio=5), dice(seraglio=5))
    turn(game, "seraglio", dice(seraglio=4), dice(seraglio=4))
    turn(game, "seraglio", dice(seraglio=5), dice(seraglio=5), dice(seraglio=5))  # Ann again, own marker
    assert where(game, "seraglio") == [
        ("line 5, right field", "Ann"),
        ("line 4, left field", "Ben"),
        ("line 4, middle field", "Cleo"),
        ("line 4, right field", "Ann"),
    ]


def test_a_marker_past_the_last_field_is_out_and_wins_no_prize() -> None:
    game = new_game()
    for _ in range(4):
        turn(game, "pavilion", dice("tower", pavilion=1))
    assert [w[0] for w in where(game, "pavilion")] == [
        "line 1, left field",
        "line 1, middle field",
        "line 1, right field",
    ]
    assert game.state.out == (("pavilion", "Ann"),)
    fill(game, "garden")
    settle(game)
    # Pavilion: Ann's marker on line 1 left wins, Ben's is second; Ann's fourth marker is out.
    assert game.points[0][0] == 2 and game.points[1][0] == 1


# -------------------------------------------------------------------------------------------- prizes
def test_prizes_best_chooses_second_gets_the_other() -> None:
    """The rulebook's example: Blue, best, takes 2 building points (his stone on the second field); Orange
    gets the other prize, 1 building point and the bonus tile."""
    game = new_game(("Blue", "Orange", "Green"))
    turn(game, "garden", dice(garden=6))
    turn(game, "garden", dice(garden=5))
    fill(game, "tower")
    assert game.expectation().prompt == (
        "garden: Blue's marker is best: take 2 building points, or 1 building point and the VP tile"
    )
    game.apply(PrizeTaken("Blue", "garden", "points"))
    assert (
        game.expectation().prompt
        == "garden: Orange's marker is second best: Orange takes 1 building point and the VP tile"
    )
    refused(
        game, PrizeTaken("Orange", "garden", "points"), "Orange's prize is tile: the best marker took points"
    )
    refused(game, PrizeTaken("Orange", "garden", "tile"), "type the value printed on the VP tile")
    refused(game, PrizeTaken("Orange", "garden", "tile", 4), "1, 2 or 3")
    game.apply(PrizeTaken("Orange", "garden", "tile", 3))
    garden = 4
    assert game.points[0][garden] == 2 and game.points[1][garden] == 1
    assert game.state.stacks[garden][2] == (0,) and game.state.vp_tiles[1] == (3,)


def test_a_second_best_prize_the_rules_fix_is_given_without_asking() -> None:
    """ "The second best gets the other prize": with nothing left to say it is the engine's `auto`; a player
    holding an exchange tile still says whether it is used."""
    game = new_game(("Blue", "Orange", "Green"))
    turn(game, "pavilion", dice(pavilion=6))  # Blue best, Orange second (the exchange tile)
    turn(game, "pavilion", dice(pavilion=5))
    turn(game, "arcades", dice(arcades=6))  # Green best, Blue second (the cancel tile)
    turn(game, "arcades", dice(arcades=5))
    turn(game, "chambers", dice(chambers=6))  # Orange best, Green second (the black-die tile)
    turn(game, "chambers", dice(chambers=5))
    fill(game, "tower")
    assert game.expectation().auto is None, "the best marker's owner chooses"
    game.apply(PrizeTaken("Blue", "pavilion", "tile"))
    forced = game.expectation().auto
    assert forced == PrizeTaken("Orange", "pavilion", "points", exchange=())
    game.apply(forced)
    game.apply(PrizeTaken("Green", "arcades", "points"))
    assert game.expectation().player == "Blue" and game.expectation().auto is None, (
        "Blue holds an exchange tile"
    )
    game.apply(PrizeTaken("Blue", "arcades", "tile", exchange=()))
    game.apply(PrizeTaken("Orange", "chambers", "points"))
    assert game.expectation().auto == PrizeTaken("Green", "chambers", "tile", exchange=())


def test_the_same_player_may_take_both_prizes_one_marker_no_second_and_none_nothing() -> None:
    game = new_game()
    turn(game, "arcades", dice(arcades=6))
    turn(game, "seraglio", dice(seraglio=4))
    turn(game, "chambers", dice(chambers=3))
    turn(game, "arcades", dice(arcades=5))  # Ann again
    fill(game, "tower")
    asked = []
    while game.ask is Ask.PRIZE:
        expected = game.expectation()
        asked.append((expected.building, expected.player))
        prize = expected.prizes[0]
        value = 1 if prize == "tile" and expected.tile == "vp" else None
        start = "Ben" if prize == "tile" and expected.tile == "start_player" else None
        game.apply(PrizeTaken(str(expected.player), str(expected.building), prize, value, start_player=start))
    assert asked[:4] == [("seraglio", "Ben"), ("arcades", "Ann"), ("arcades", "Ann"), ("chambers", "Cleo")]
    assert game.points[0][2] == 3  # both arcades prizes
    assert game.points[1][1] == 2 and game.points[2][3] == 2  # one marker each: the best prize only
    assert all(game.points[p][0] == 0 and game.points[p][4] == 0 for p in range(3))  # no marker, nothing


def test_building_points_stack_on_top_and_stay_on_12() -> None:
    game = new_game()
    turn(game, "pavilion", dice(pavilion=6))
    turn(game, "pavilion", dice(pavilion=5))
    fill(game, "tower")
    settle(game, {"pavilion": "tile"})  # Ann 1 point + exchange tile, Ben 2 points
    assert game.state.stacks[0][1] == (0,) and game.state.stacks[0][2] == (1,)
    game._gain(0, 0, 1)  # Ann reaches Ben's field: on top of his stone
    assert list(game.state.stacks[0][2]) == [1, 0]
    game._gain(1, 0, 20)
    assert game.points[1][0] == 12 and game.state.stacks[0][12] == (1,)


# ------------------------------------------------------------------------------------ scorings A, B, C
def test_scorings_after_rounds_1_3_5_and_the_game_ends_after_c() -> None:
    game = new_game()
    for r in range(1, 6):
        if r > 1:
            game.apply(RoundPrepared(LAYOUTS[r - 1]))
        turn(game, "tower", dice(tower=8))
        fill(game, "pavilion")
        settle(game, start="Ann")
        assert len(game.standings) == {1: 1, 2: 1, 3: 2, 4: 2, 5: 3}[r]
    assert game.is_over
    refused(game, Rolled("Ann", dice()), "the game is over")


# ---------------------------------------------------------------------------------------- bonus tiles
def test_round_5_lays_the_dark_tiles_and_no_start_player_tile() -> None:
    game = Game(GameStarted(THREE))
    refused(game, RoundPrepared(("vp",) * 6), "start-player tile lies on the column rolled for it")
    refused(
        game, RoundPrepared(("vp", "vp", "vp", "vp", "start_player", "start_player")), "not 2 start-player"
    )
    refused(game, RoundPrepared(ROUND.tiles, "garden"), "Dirk plays only in a 2-player game")
    game.round = 5
    refused(game, RoundPrepared(ROUND.tiles), "round 5 has no start-player tile")


def test_the_game_has_26_bonus_tiles_by_kind() -> None:
    game = new_game()
    fill(game)
    settle(game, start="Ann")
    game.apply(RoundPrepared(("exchange", "vp", "vp", "vp", "vp", "start_player")))
    fill(game)
    settle(game, start="Ann")
    refused(game, RoundPrepared(("exchange", "vp", "vp", "vp", "vp", "start_player")), "2 exchange tiles")


def round_with_tiles(players: tuple[str, ...] = THREE) -> Game:
    """Round 1 played so that Ann holds exchange and displace, Ben cancel and black die; round 2 begins."""
    game = new_game(players)
    turn(game, "pavilion", dice(pavilion=7))  # Ann: exchange
    turn(game, "arcades", dice(arcades=7))  # Ben: cancel
    fill_one = dice("pavilion", tower=1)
    turn(game, "tower", fill_one, fill_one, fill_one)  # Cleo
    turn(game, "seraglio", dice(seraglio=7))  # Ann: displace
    turn(game, "chambers", dice(chambers=7))  # Ben: black die
    fill(game, "tower")
    settle(game, {b: "tile" for b in ("pavilion", "seraglio", "arcades", "chambers")}, start="Ann")
    game.apply(RoundPrepared(("vp", "vp", "cancel", "black_die", "vp", "start_player")))
    return game


def test_exchange_takes_a_building_point_in_another_type_but_not_the_one_received_with_it() -> None:
    game = new_game()
    turn(game, "pavilion", dice(pavilion=7))
    turn(game, "garden", dice(garden=7))
    fill(game, "tower")
    refused(game, PrizeTaken("Ann", "pavilion", "tile", exchange=("garden",)), "holds no exchange tile")
    game.apply(PrizeTaken("Ann", "pavilion", "tile"))
    assert game.state.held[0]["exchange"] == 1
    refused(game, PrizeTaken("Ben", "garden", "points", exchange=("tower",)), "Ben holds no exchange tile")
    game.apply(PrizeTaken("Ben", "garden", "points"))
    settle(game, start="Ann")
    game.apply(RoundPrepared(ROUND.tiles))
    turn(game, "garden", dice(garden=8))
    fill(game, "tower")
    refused(game, PrizeTaken("Ann", "garden", "points", exchange=("garden",)), "another type than garden")
    game.apply(PrizeTaken("Ann", "garden", "points", exchange=("chambers",)))
    assert game.points[0][4] == 1 and game.points[0][3] == 1 and game.state.held[0]["exchange"] == 0


def _two_exchange_tiles() -> Game:
    """Ann takes the pavilion column's exchange tile in rounds 1 and 2 (the second time saying she does not
    use the first), then wins the garden column's best prize in round 3."""
    game = new_game()
    for layout in LAYOUTS[1:3]:
        turn(game, "pavilion", dice(pavilion=7))
        fill(game, "tower")
        settle(game, {"pavilion": "tile"}, start="Ann")
        game.apply(RoundPrepared(layout))
    turn(game, "garden", dice(garden=8))
    fill(game, "tower")
    assert game.state.held[0]["exchange"] == 2 and game.expectation().building == "garden"
    return game


def test_each_exchange_tile_exchanges_one_building_point_so_two_tiles_both_points_of_a_prize() -> None:
    """Seed 002, exchange tile: "Men mag bij de ontvangst van een gebouwenpunt dit gebouwenpunt tegen 1
    gebouwenpunt van een andere soort omruilen ... De fiche wordt daarna afgegeven.": one point per tile, so
    with two tiles both points of the 2-point prize."""
    game = _two_exchange_tiles()
    before = [list(p) for p in game.points]
    refused(game, PrizeTaken("Ann", "garden", "points", exchange=("chambers",) * 3), "holds 2 exchange tile")
    game.apply(PrizeTaken("Ann", "garden", "points", exchange=("chambers", "tower")))
    gained = [now - was for now, was in zip(game.points[0], before[0], strict=True)]
    assert gained == [0, 0, 0, 1, 0, 1] and game.state.held[0]["exchange"] == 0


def test_one_building_point_of_a_tile_prize_can_be_exchanged() -> None:
    """Seed 002: "1 gebouwenpunt en de bonusfiche van deze kolom": one point received, so one exchange."""
    game = _two_exchange_tiles()
    before = list(game.points[0])
    refused(game, PrizeTaken("Ann", "garden", "tile", 2, ("pavilion", "tower")), "gives 1 building point: 2")
    game.apply(PrizeTaken("Ann", "garden", "tile", 2, ("tower",)))
    gained = [now - was for now, was in zip(game.points[0], before, strict=True)]
    assert gained == [0, 0, 0, 0, 0, 1] and game.state.held[0]["exchange"] == 1


def test_a_prize_of_a_player_holding_an_exchange_tile_must_say_whether_it_is_used() -> None:
    """Issue 30: a missing field that changes the score is an error, not a default. A log line whose
    `"exchange": "chambers"` was deleted is refused (seed 002: "Men mag bij de ontvangst van een gebouwenpunt
    dit gebouwenpunt ... omruilen": the choice is the player's, so the log must say it)."""
    game = _two_exchange_tiles()
    line = event_to_json(PrizeTaken("Ann", "garden", "points", exchange=("chambers",)))
    assert line["exchange"] == "chambers" and event_from_json(line).exchange == ("chambers",)
    del line["exchange"]
    refused(game, event_from_json(line), "exchange: Ann holds an exchange tile: say whether it is used")
    none = event_to_json(PrizeTaken("Ann", "garden", "points", exchange=()))
    assert none["exchange"] == [] and event_from_json(none).exchange == ()
    game.apply(event_from_json(none))
    with pytest.raises(EventFormatError, match="exchange: a prize gives at most 2 building points"):
        event_from_json({**none, "exchange": ["garden"] * 3})


def test_displace_needs_an_opponents_marker_on_the_field_reached() -> None:
    game = round_with_tiles()
    turn(game, "garden", dice(garden=2), dice(garden=2))  # Ann: line 2 middle
    turn(game, "garden", dice(garden=2), dice(garden=2), dice(garden=2))  # Ben: line 2 right
    turn(game, "garden", dice(garden=1))  # Cleo: line 1 left
    game.apply(Rolled("Ann", dice(garden=3)))
    refused(game, MarkerPlaced("Ann", "garden", True), "garden's line 3, left field: no marker")
    game.apply(Rolled("Ann", dice(garden=2)))
    # Ann lands on her own marker's field (line 2 middle): displace refused.
    refused(game, MarkerPlaced("Ann", "garden", True), "their own marker")
    game.apply(Rolled("Ann", dice(garden=2)))
    before = game.state
    game.apply(MarkerPlaced("Ann", "garden", True))  # Ben's line 2 right: Ben and Cleo move back together
    # The game log names whose marker was displaced (it said "the marker there").
    assert describe(before, MarkerPlaced("Ann", "garden", True), game.state)[-1].endswith(
        "displacing Ben's marker there"
    )
    assert where(game, "garden") == [
        ("line 2, middle field", "Ann"),
        ("line 2, right field", "Ann"),
        ("line 1, left field", "Ben"),
        ("line 1, middle field", "Cleo"),
    ]
    assert game.state.held[0]["displace"] == 0


def test_displace_pushes_the_last_marker_of_a_full_chain_out() -> None:
    game = round_with_tiles()
    turn(game, "tower", dice("pavilion", tower=1), dice("pavilion", tower=1))  # Ann: line 1 middle
    turn(game, "tower", dice("pavilion", tower=1))  # Ben: line 1 left
    turn(game, "tower", dice("pavilion", tower=1), dice("pavilion", tower=1), dice("pavilion", tower=1))
    game.apply(Rolled("Ann", dice("pavilion", tower=1)))
    game.apply(MarkerPlaced("Ann", "tower", True))
    assert [p for _, p in where(game, "tower")] == ["Ann", "Ben", "Ann"]
    assert game.state.out == (("tower", "Cleo"),)


def test_cancel_voids_a_roll_then_roll_again_or_place() -> None:
    game = round_with_tiles()
    turn(game, "garden", dice(garden=2))  # Ann
    refused(game, RollCancelled("Ben"), "no roll to cancel")
    game.apply(Rolled("Ben", dice(garden=3)))
    game.apply(Rolled("Ben", dice(garden=1)))
    game.apply(RollCancelled("Ben"))  # the roll with 1 garden is void: 3 gardens in 1 roll again
    assert game.rolls == 1 and game.dice == dice(garden=3)
    assert game.expectation().roll == 2
    game.apply(MarkerPlaced("Ben", "garden"))
    assert where(game, "garden")[0] == ("line 3, left field", "Ben")
    game.apply(Rolled("Cleo", dice(garden=3)))
    refused(game, RollCancelled("Cleo"), "Cleo holds no cancel tile")


def test_cancelling_the_first_roll_means_rolling_it_again() -> None:
    game = round_with_tiles()
    turn(game, "garden", dice(garden=2))
    game.apply(Rolled("Ben", dice(garden=3)))
    game.apply(RollCancelled("Ben"))
    assert game.ask is Ask.ROLL and game.expectation().prompt == "Ben: roll 8 dice, roll 1 of 3"


def test_black_die_after_the_first_roll_counts_once_per_turn() -> None:
    game = round_with_tiles()
    turn(game, "garden", dice(garden=2))
    refused(game, BlackDieSet("Ben", "garden"), "set after the first roll")
    game.apply(Rolled("Ben", dice(garden=4)))
    game.apply(BlackDieSet("Ben", "garden"))
    refused(game, BlackDieSet("Ben", "tower"), "one black-die tile per turn")
    assert "garden 5" in game.expectation().prompt
    game.apply(MarkerPlaced("Ben", "garden"))
    assert where(game, "garden")[0] == ("line 5, left field", "Ben")
    game.apply(Rolled("Cleo", dice(garden=3)))
    refused(game, BlackDieSet("Cleo", "garden"), "Cleo holds no black-die tile")


def test_9_equal_symbols_count_as_8_in_the_first_roll() -> None:
    game = round_with_tiles()
    turn(game, "garden", dice(garden=2))
    game.apply(Rolled("Ben", dice(garden=4)))
    game.apply(BlackDieSet("Ben", "tower"))
    game.apply(Rolled("Ben", dice("garden", tower=8)))
    game.apply(MarkerPlaced("Ben", "tower"))
    assert where(game, "tower")[0] == ("line 8, left field", "Ben")


def test_start_player_tile_names_the_next_caliph_and_unclaimed_the_caliph_stays() -> None:
    game = new_game()
    turn(game, "tower", dice(tower=8))
    fill(game, "garden")
    settle(game, {"tower": "tile"}, start="Cleo")
    game.apply(RoundPrepared(LAYOUTS[1]))
    assert game.names[game.active] == "Cleo"
    fill(game, "garden")  # nobody on tower: the start-player tile is not given
    settle(game)
    game.apply(RoundPrepared(LAYOUTS[2]))
    assert game.names[game.active] == "Cleo"


def test_the_start_player_tile_asks_for_a_real_player() -> None:
    game = new_game()
    turn(game, "tower", dice(tower=8))
    fill(game, "garden")
    expected = game.expectation()  # garden first: the first filler's marker
    game.apply(PrizeTaken(str(expected.player), "garden", "points"))
    refused(game, PrizeTaken("Ann", "tower", "tile"), "name the next start player")
    refused(game, PrizeTaken("Ann", "tower", "tile", start_player="Zoe"), "one of Ann, Ben, Cleo")
    refused(game, PrizeTaken("Ann", "tower", "points", start_player="Ben"), "only the start-player tile")
    game.apply(PrizeTaken("Ann", "tower", "tile", start_player="Ben"))
    assert game.ask is Ask.PREPARE and game.caliph == 1


# ----------------------------------------------------------------------------------------- 2 players
def test_dirk_places_lines_2_to_6_right_field_from_the_rolled_column() -> None:
    game = Game(GameStarted(("Ann", "Ben")))
    refused(game, RoundPrepared(ROUND.tiles), "roll a die for the column of Dirk's first marker")
    game.apply(RoundPrepared(ROUND.tiles, "garden"))
    assert game.names == ("Ann", "Ben", DIRK)
    assert [where(game, b) for b in ("garden", "tower", "pavilion", "seraglio", "arcades", "chambers")] == [
        [("line 2, right field", DIRK)],
        [("line 3, right field", DIRK)],
        [("line 4, right field", DIRK)],
        [("line 5, right field", DIRK)],
        [("line 6, right field", DIRK)],
        [],
    ]
    refused(game, Rolled(DIRK, dice()), "it is Ann's turn, not Dirk's")


def test_dirk_always_takes_2_points_keeps_only_vp_tiles_and_names_the_other_start_player() -> None:
    tiles = ("black_die", "vp", "cancel", "exchange", "displace", "start_player")
    game = Game(GameStarted(("Ann", "Ben")))
    game.apply(RoundPrepared(tiles, "tower"))  # Dirk: tower 2, pavilion 3, seraglio 4, arcades 5, chambers 6
    turn(game, "pavilion", dice(pavilion=2))  # Ann behind Dirk on pavilion
    turn(game, "seraglio", dice(seraglio=1))  # Ben behind Dirk on seraglio
    turn(game, "tower", dice(tower=1))  # Ann behind Dirk on tower
    fill(game, "garden")
    expected = game.expectation()
    assert expected.prompt == "pavilion: Dirk's marker is best: Dirk takes 2 building points"
    refused(game, PrizeTaken(DIRK, "pavilion", "tile"), "Dirk always takes 2 building points")
    assert expected.auto == PrizeTaken(DIRK, "pavilion", "points")
    game.apply(expected.auto)
    game.apply(PrizeTaken("Ann", "pavilion", "tile"))  # Ann: black die tile
    game.apply(PrizeTaken(DIRK, "seraglio", "points"))
    assert game.expectation().auto is None  # Ben's choice is forced, but a VP tile's value is asked
    game.apply(PrizeTaken("Ben", "seraglio", "tile", 3))
    settle(game, start="Ben")  # tower: Dirk 2 points, Ann the start-player tile
    assert game.points[2][:3] == [2, 2, 2] and game.vp_tiles[2] == [] and game.vp_tiles[1] == [3]
    assert game.caliph == 1


def test_dirk_given_the_start_player_tile_names_who_was_not_start_player() -> None:
    tiles = ("start_player", "vp", "cancel", "exchange", "displace", "black_die")
    game = Game(GameStarted(("Ann", "Ben")))
    game.apply(RoundPrepared(tiles, "arcades"))  # Dirk: arcades 2, chambers 3, garden 4, tower 5, pavilion 6
    turn(game, "pavilion", dice(pavilion=8))  # Ann best on pavilion, Dirk second gets the start-player tile
    turn(game, "arcades", dice(arcades=8))  # Ben best on arcades, Dirk second gets the cancel tile
    fill(game, "seraglio")
    game.apply(PrizeTaken("Ann", "pavilion", "points"))
    refused(game, PrizeTaken(DIRK, "pavilion", "tile", start_player="Ann"), "Dirk names who was not")
    auto = game.expectation().auto
    assert auto == PrizeTaken(DIRK, "pavilion", "tile", start_player="Ben")
    game.apply(auto)
    settle(game)
    assert game.caliph == 1
    assert game.points[2][2] == 1 and game.state.held[2]["cancel"] == 0  # Dirk keeps only VP tiles


def test_dirk_scores_like_a_player_but_cannot_win() -> None:
    from companion.games.alhambra_dice import Standing, score_standings

    standing = Standing(
        ("Ann", "Ben", DIRK),
        (False, False, True),
        ((("Dirk", 5), ("Ann", 1)), (), (), (), (), ()),
        ((), (), (3,)),
    )
    board = score_standings(standing.names, standing.dirk, [standing, standing, standing])
    assert board.totals == (0 + 1 + 8, 0, 1 + 8 + 16 + 3 * 3)
    assert board.winners == ("Ann",)


# --------------------------------------------------------------------------------- order of events
def test_events_out_of_turn_are_refused_with_what_is_expected() -> None:
    game = Game(GameStarted(THREE))
    refused(game, Rolled("Ann", dice()), "Ann cannot act now: Round 1: roll a die for the start-player")
    game.apply(ROUND)
    refused(game, ROUND, "round 1 is prepared already: Ann: roll 8 dice, roll 1 of 3")
    refused(game, GameStarted(THREE), "already started")
    refused(game, PrizeTaken("Ann", "garden", "points"), "no prize now")
