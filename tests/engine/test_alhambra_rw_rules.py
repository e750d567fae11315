"""Each rule of the Alhambra Roll & Write rules page, and each illegal event (refused, nothing changed)."""

from __future__ import annotations

import pytest
from rw_helpers import EXAMPLE, TWO_SERAGLIO, new_game, roll, run_setup

from companion.games.alhambra_rw import (
    Ask,
    ChangePips,
    CrossBuilding,
    Event,
    Game,
    GameStarted,
    IllegalMove,
    KeepPair,
    Roll,
    TakeCoins,
    apply,
    crossings,
    expectation,
    legal_actions,
    replay,
    start,
    undo,
)


def refused(game: Game, event: Event, reason: str) -> None:
    """The event is refused with `reason` in the message, and the game is exactly as before."""
    before = game.state
    with pytest.raises(IllegalMove, match=reason):
        game.apply(event)
    assert game.state == before


# ------------------------------------------------------------------------------------------- set-up
def test_setup_rolls_go_round_the_table_three_times_then_dice_fields_then_extra_pair() -> None:
    game = new_game()
    names = ["Barbara", "Dirk", "Patricia"] * 3
    cells = [(1, 1), (2, 2), (3, 3), (1, 2), (2, 3), (3, 4), (1, 3), (2, 4), (3, 5)]
    for name, cell in zip(names, cells, strict=True):
        exp = game.expectation()
        assert (exp.ask, exp.player, exp.yellow, exp.blue) == (Ask.SETUP_CROSS, name, 1, 1)
        game.apply(roll(name, *cell))
    s = game.state
    assert s.player("Barbara").crossed_cells() == ((1, 1), (1, 2), (1, 3))
    # The start player marks every set-up building on the score sheet.
    assert s.player("Barbara").count_of("pavilion") == 1
    assert s.player("Barbara").count_of("seraglio") == 1
    assert s.player("Barbara").count_of("arcades") == 1
    for name in ("Barbara", "Dirk", "Patricia"):
        assert game.expectation().ask is Ask.SETUP_DICE
        assert game.expectation().player == name
        game.apply(roll(name, 4, 5))
    exp = game.expectation()
    assert (exp.ask, exp.player) == (Ask.SETUP_EXTRA_PAIR, "Barbara")
    game.apply(roll("Barbara", 6, 2))
    s = game.state
    # The start player begins with 4 dice, the others with 2; every player has 3 coins circled.
    assert (sorted(s.player("Barbara").yellow), sorted(s.player("Barbara").blue)) == ([4, 6], [2, 5])
    assert (s.player("Dirk").yellow, s.player("Dirk").blue) == ((4,), (5,))
    assert all(p.coins == 3 and p.circled == 3 for p in s.players)
    assert (game.expectation().ask, game.expectation().player, s.round) == (Ask.ACTION, "Barbara", 1)


def test_setup_roll_on_an_already_crossed_cell_is_rolled_again() -> None:
    game = new_game()
    game.apply(roll("Barbara", 1, 1))
    game.apply(roll("Dirk", 1, 1))
    game.apply(roll("Patricia", 1, 1))
    game.apply(roll("Barbara", 1, 1))  # already crossed: recorded, but no building and the same ask
    exp = game.expectation()
    assert exp.roll_again and exp.player == "Barbara" and exp.ask is Ask.SETUP_CROSS
    assert "already crossed" in game.state.notice
    assert game.state.player("Barbara").count_of("pavilion") == 1
    game.apply(roll("Barbara", 1, 2))
    assert game.expectation().player == "Dirk" and not game.expectation().roll_again
    assert game.state.player("Barbara").crossed_cells() == ((1, 1), (1, 2))


def test_a_die_value_outside_1_to_6_is_refused() -> None:
    game = new_game()
    refused(game, roll("Barbara", 7, 1), "die value 7 is outside 1–6")
    refused(game, roll("Barbara", 3, 0), "die value 0 is outside 1–6")
    refused(game, Roll("Barbara", (1, 2), (3,)), "must roll 1 yellow and 1 blue die, got 2 yellow and 1 blue")


def test_acting_out_of_turn_is_refused() -> None:
    game = new_game()
    refused(game, roll("Dirk", 1, 1), "it is Barbara's turn, not Dirk's")
    refused(game, roll("Nobody", 1, 1), "there is no player named 'Nobody'")
    refused(game, TakeCoins("Barbara"), "for set-up building 1 of 3; not taking coins")


def test_impossible_setups_are_refused() -> None:
    with pytest.raises(IllegalMove, match="1 to 5 real players"):
        start(GameStarted(EXAMPLE, ("A", "B", "C", "D", "E", "F")))
    with pytest.raises(IllegalMove, match="play with 1 imaginary players, not 0"):
        start(GameStarted(EXAMPLE, ("A", "B")))
    with pytest.raises(IllegalMove, match="play with 2 or 3 or 4 imaginary players, not 1"):
        start(GameStarted(EXAMPLE, ("A",), ("M",)))
    with pytest.raises(IllegalMove, match="names must differ"):
        start(GameStarted(EXAMPLE, ("A", "A", "B")))
    with pytest.raises(IllegalMove, match="solo variant"):
        start(GameStarted(EXAMPLE, ("A", "B"), ("M",), "versus-imaginary"))


# ------------------------------------------------------------------------------------------ a turn
def test_crossings_show_building_free_or_crossed_and_how_often_they_are_hit() -> None:
    game = new_game()
    run_setup(game)  # Barbara crossed yellow 2 × blue 4, 5, 6; her dice: yellow 1, 1 and blue 1, 1
    (c,) = game.crossings()
    assert (c.yellow, c.blue, c.building, c.crossed, c.times) == (1, 1, "pavilion", False, 4)
    game = new_game()
    run_setup(game, fields={"Barbara": (2, 4)}, extra=(2, 4))
    (c,) = game.crossings()
    assert (c.yellow, c.blue, c.building, c.crossed, c.times) == (2, 4, "seraglio", True, 4)


def test_setup_helper_with_distinct_cells() -> None:
    game = new_game()
    run_setup(game, fields={"Barbara": (1, 2)}, extra=(3, 4))
    # Barbara: yellow 1, 3 × blue 2, 4 -> four different crossings.
    cs = {(c.yellow, c.blue): (c.building, c.crossed, c.times) for c in game.crossings()}
    assert cs == {
        (1, 2): ("seraglio", False, 1),
        (1, 4): ("chambers", False, 1),
        (3, 2): ("chambers", False, 1),
        (3, 4): ("tower", False, 1),
    }


def test_cross_a_building_then_pass_the_other_pair_and_reroll_the_used_one() -> None:
    game = new_game()
    run_setup(game, fields={"Barbara": (1, 2), "Dirk": (5, 5)}, extra=(3, 4))
    game.apply(CrossBuilding("Barbara", 1, 4))
    s = game.state
    # chambers: yellow 2 × blue 6 in set-up, and now yellow 1 × blue 4
    assert s.player("Barbara").is_crossed(1, 4) and s.player("Barbara").count_of("chambers") == 2
    exp = game.expectation()
    assert (exp.ask, exp.player, exp.yellow, exp.blue) == (Ask.REROLL_USED_PAIR, "Barbara", 1, 1)
    assert exp.can_cross_second  # 3 coins and yellow 3 × blue 2 is free
    game.apply(roll("Barbara", 6, 6))
    s = game.state
    # The other pair (yellow 3, blue 2) went to the left neighbour Dirk, values unchanged.
    assert (sorted(s.player("Dirk").yellow), sorted(s.player("Dirk").blue)) == ([3, 5], [2, 5])
    assert (s.player("Barbara").yellow, s.player("Barbara").blue) == ((6,), (6,))
    assert (game.expectation().ask, game.expectation().player) == (Ask.ACTION, "Dirk")


def test_crossing_a_crossed_cell_is_refused() -> None:
    game = new_game()
    run_setup(game, fields={"Barbara": (2, 4)}, extra=(1, 1))  # Barbara crossed yellow 2 × blue 4 in set-up
    refused(game, CrossBuilding("Barbara", 2, 4), "yellow 2 × blue 4 is already crossed")
    refused(game, CrossBuilding("Barbara", 5, 5), "yellow 5 × blue 5 is not a crossing of Barbara's dice")
    refused(game, CrossBuilding("Barbara", 9, 1), "die value 9 is outside 1–6")
    refused(game, CrossBuilding("Dirk", 1, 1), "it is Barbara's turn, not Dirk's")
    game.apply(CrossBuilding("Barbara", 1, 4))
    refused(game, TakeCoins("Barbara"), "not taking coins")
    refused(game, ChangePips("Barbara", "yellow", 2, 3), "only before the action")


def test_take_coins_counts_duplicate_crossings() -> None:
    game = new_game()
    # Barbara crossed yellow 2 × blue 4 in set-up; her 4 dice are yellow 2, 2 and blue 4, 4: hit 4 times.
    run_setup(game, fields={"Barbara": (2, 4)}, extra=(2, 4))
    assert game.expectation().coins_to_take == 4
    game.apply(TakeCoins("Barbara"))
    assert game.state.player("Barbara").circled == 7
    exp = game.expectation()
    assert (exp.ask, exp.yellow, exp.blue) == (Ask.ROLL_ALL, 2, 2)
    game.apply(Roll("Barbara", (1, 5), (2, 6)))
    assert game.expectation().ask is Ask.KEEP_PAIR
    refused(game, KeepPair("Barbara", 3, 2), "yellow 3 \\+ blue 2 is not a pair of the rolled dice")
    game.apply(KeepPair("Barbara", 5, 2))
    s = game.state
    assert (s.player("Barbara").yellow, s.player("Barbara").blue) == ((5,), (2,))
    assert (sorted(s.player("Dirk").yellow), sorted(s.player("Dirk").blue)) == ([1, 1], [1, 6])


def test_take_coins_partly_crossed_gives_one_coin_per_crossed_combination() -> None:
    game = new_game()
    # Barbara crossed yellow 2 × blue 4, 5, 6. Dice yellow 2, 1 × blue 4, 5: (2,4) and (2,5) crossed.
    run_setup(game, fields={"Barbara": (2, 4)}, extra=(1, 5))
    game.apply(TakeCoins("Barbara"))
    assert game.state.player("Barbara").circled == 5


def test_a_full_coin_supply_takes_no_more_coins() -> None:
    game = new_game(sheet=TWO_SERAGLIO)  # supply of 6 coins
    run_setup(
        game,
        crosses={
            "Barbara": [(2, 1), (2, 2), (3, 3)],
            "Dirk": [(2, 1), (2, 2), (2, 3)],
            "Patricia": [(3, 1), (3, 2), (3, 3)],
        },
        fields={"Barbara": (2, 1)},
        extra=(2, 1),
    )
    assert game.expectation().coins_to_take == 3  # 4 combinations crossed, but only 3 more fit
    game.apply(TakeCoins("Barbara"))
    assert game.state.player("Barbara").circled == 6
    game.apply(Roll("Barbara", (2, 2), (1, 1)))
    game.apply(KeepPair("Barbara", 2, 1))
    # Round 2 comes round again; Barbara takes coins with a full supply and gets none.
    for name in ("Dirk", "Patricia"):
        game.apply(TakeCoins(name))
        game.apply(Roll(name, (2, 2), (1, 1)))
        game.apply(KeepPair(name, 2, 1))
    assert game.expectation().coins_to_take == 0
    game.apply(TakeCoins("Barbara"))
    assert game.state.player("Barbara").circled == 6


def test_change_pips_costs_a_coin_per_pip_and_does_not_wrap() -> None:
    game = new_game()
    run_setup(game, fields={"Barbara": (1, 6)}, extra=(3, 2))
    refused(game, ChangePips("Barbara", "yellow", 1, 0), "die value 0 is outside 1–6 \\(a die cannot turn")
    refused(game, ChangePips("Barbara", "blue", 6, 7), "die value 7 is outside 1–6")
    refused(game, ChangePips("Barbara", "yellow", 5, 4), "Barbara has no yellow die showing 5")
    refused(game, ChangePips("Barbara", "yellow", 1, 1), "changes nothing")
    refused(game, ChangePips("Barbara", "yellow", 1, 5), "Barbara has 3 coins, needs 4 to turn yellow 1 to 5")
    game.apply(ChangePips("Barbara", "yellow", 3, 5))  # 2 coins, one die twice
    game.apply(ChangePips("Barbara", "blue", 2, 1))  # 1 coin, another die
    s = game.state
    assert (sorted(s.player("Barbara").yellow), sorted(s.player("Barbara").blue)) == ([1, 5], [1, 6])
    assert (s.player("Barbara").spent, s.player("Barbara").coins) == (3, 0)
    refused(game, ChangePips("Barbara", "blue", 1, 2), "Barbara has 0 coins, needs 1")
    assert not game.expectation().can_change_pips
    game.apply(CrossBuilding("Barbara", 5, 1))
    assert game.state.player("Barbara").is_crossed(5, 1)


def test_two_buildings_costs_3_coins_then_all_4_dice_are_rolled_and_one_pair_kept() -> None:
    game = new_game()
    run_setup(game, fields={"Barbara": (1, 2), "Dirk": (4, 4)}, extra=(3, 4))
    game.apply(CrossBuilding("Barbara", 1, 4))
    exp = game.expectation()
    assert exp.can_cross_second and legal_actions(game.state) == (CrossBuilding("Barbara", 3, 2),)
    refused(game, CrossBuilding("Barbara", 1, 2), "must use the other two dice: yellow 3 × blue 2")
    game.apply(CrossBuilding("Barbara", 3, 2))
    s = game.state
    assert s.player("Barbara").is_crossed(3, 2) and s.player("Barbara").coins == 0
    assert game.expectation().ask is Ask.ROLL_ALL
    refused(game, roll("Barbara", 1, 1), "must roll 2 yellow and 2 blue dice, got 1 yellow and 1 blue")
    game.apply(Roll("Barbara", (2, 6), (3, 5)))
    game.apply(KeepPair("Barbara", 6, 3))
    s = game.state
    assert (s.player("Barbara").yellow, s.player("Barbara").blue) == ((6,), (3,))
    assert (sorted(s.player("Dirk").yellow), sorted(s.player("Dirk").blue)) == ([2, 4], [4, 5])


def test_two_buildings_needs_3_coins() -> None:
    game = new_game()
    run_setup(game, fields={"Barbara": (1, 2)}, extra=(3, 4))
    game.apply(ChangePips("Barbara", "yellow", 3, 4))
    game.apply(CrossBuilding("Barbara", 1, 4))
    assert not game.expectation().can_cross_second
    refused(game, CrossBuilding("Barbara", 4, 2), "Barbara has 2 coins, needs 3 for two buildings")


def test_if_no_crossing_is_free_only_take_coins_remains() -> None:
    game = new_game()
    run_setup(game, fields={"Barbara": (2, 4)}, extra=(2, 5))
    actions = legal_actions(game.state)
    assert not any(isinstance(a, CrossBuilding) for a in actions)
    assert TakeCoins("Barbara") in actions


# ---------------------------------------------------------------------------- rounds and awards
def play_round_taking_coins(game: Game) -> None:
    """Every real player takes coins and keeps yellow 1 + blue 1; imaginary players roll 1 × 1."""
    assert game.expectation().ask is Ask.ACTION and game.active == 0
    for name in game.setup.players:
        game.apply(TakeCoins(name))
        game.apply(Roll(name, (1, 1), (1, 1)))
        if len(game.setup.players) > 1:
            game.apply(KeepPair(name, 1, 1))
    cells = iter([(y, b) for y in range(1, 7) for b in range(1, 7)])
    for name in game.setup.imaginary:
        while game.expectation().player == name:  # a full type is rolled again
            game.apply(roll(name, *next(cells)))


@pytest.mark.parametrize(
    ("players", "imaginary", "rounds"),
    [
        (("A", "B", "C", "D", "E"), (), 12),
        (("A", "B", "C", "D"), (), 15),
        (("A", "B", "C"), (), 18),
        (("A", "B"), ("M",), 18),
        (("A",), ("M", "N"), 18),
        (("A",), ("M", "N", "O"), 15),
        (("A",), ("M", "N", "O", "P"), 12),
    ],
)
def test_rounds_by_player_count_including_imaginary_players(
    players: tuple[str, ...], imaginary: tuple[str, ...], rounds: int
) -> None:
    game = new_game(players, imaginary)
    run_setup(game, imaginary_rolls={n: [(2, 1), (3, 1), (4, 1)] for n in imaginary})
    assert game.rounds == rounds
    for r in range(1, rounds + 1):
        assert game.state.round == r
        play_round_taking_coins(game)
    assert game.is_over and game.expectation().ask is Ask.GAME_OVER
    refused(game, TakeCoins("A"), "the game is over")


def test_same_round_completions_share_places_rounded_down() -> None:
    """Rulebook example: Patricia and Frank both complete seraglio in one round: (17 + 9) / 2 = 13 each."""
    game = new_game(("Patricia", "Frank", "Barbara"), sheet=TWO_SERAGLIO)
    run_setup(
        game,
        crosses={
            "Patricia": [(1, 1), (2, 1), (3, 1)],
            "Frank": [(1, 1), (2, 2), (3, 2)],
            "Barbara": [(1, 1), (2, 3), (3, 3)],
        },
        fields={"Patricia": (1, 2), "Frank": (4, 4), "Barbara": (4, 5)},
        extra=(1, 2),
    )
    game.apply(CrossBuilding("Patricia", 1, 2))  # last seraglio box
    game.apply(roll("Patricia", 5, 5))
    assert game.state.awards == ()  # awarded at the end of the round, not at once
    game.apply(CrossBuilding("Frank", 1, 2))  # the passed pair: Frank's last seraglio box
    game.apply(roll("Frank", 5, 6))
    assert game.state.pending and game.state.awards == ()
    game.apply(TakeCoins("Barbara"))
    game.apply(Roll("Barbara", (1, 6), (2, 6)))
    game.apply(KeepPair("Barbara", 1, 2))
    (award,) = game.state.awards
    assert (award.building, award.round, award.players, award.places, award.vp_each) == (
        "seraglio",
        1,
        ("Patricia", "Frank"),
        (1, 2),
        13,
    )
    assert game.state.places_taken[1] == 2
    # Round 2: Patricia passes... Barbara completes later and only gets the 3rd place.
    game.apply(TakeCoins("Patricia"))
    game.apply(Roll("Patricia", (6, 6), (6, 6)))
    game.apply(KeepPair("Patricia", 6, 6))
    game.apply(TakeCoins("Frank"))
    game.apply(Roll("Frank", (6, 1), (6, 2)))
    game.apply(KeepPair("Frank", 6, 6))  # passes yellow 1 + blue 2 to Barbara
    game.apply(CrossBuilding("Barbara", 1, 2))
    game.apply(roll("Barbara", 4, 4))
    last = game.state.awards[-1]
    assert (last.players, last.round, last.places, last.vp_each) == (("Barbara",), 2, (3,), 2)


# ---------------------------------------------------------------------------- imaginary players
def test_two_players_pass_back_and_forth_and_the_imaginary_player_rolls_after_them() -> None:
    game = new_game(("Barbara", "Ani"), ("Marc",))
    run_setup(game, imaginary_rolls={"Marc": [(1, 1), (1, 1), (2, 3)]}, fields={"Ani": (5, 5)}, extra=(4, 4))
    # Imaginary players have no grid: the same roll twice is another building of that type.
    assert game.state.player("Marc").count_of("pavilion") == 3
    assert game.state.player("Marc").crossed == 0
    game.apply(CrossBuilding("Barbara", 1, 1))
    game.apply(roll("Barbara", 6, 6))
    assert sorted(game.state.player("Ani").yellow) == [4, 5]
    game.apply(CrossBuilding("Ani", 4, 5))
    game.apply(roll("Ani", 3, 3))
    # Ani's other pair goes back to Barbara, not to the imaginary player.
    assert sorted(game.state.player("Barbara").yellow) == [5, 6]
    exp = game.expectation()
    assert (exp.ask, exp.player, exp.roller) == (Ask.IMAGINARY_TURN, "Marc", "Barbara")
    assert (exp.yellow, exp.blue) == (1, 1)
    game.apply(roll("Marc", 2, 2))
    assert game.state.player("Marc").count_of("tower") == 1
    assert game.state.round == 2 and game.expectation().player == "Barbara"


def test_imaginary_player_rolls_again_when_that_type_is_full_and_occupies_the_place() -> None:
    game = new_game(("Barbara", "Ani"), ("Marc",), sheet=TWO_SERAGLIO)
    run_setup(
        game,
        crosses={"Barbara": [(2, 1), (2, 2), (2, 3)], "Ani": [(2, 1), (2, 2), (2, 3)]},
        imaginary_rolls={"Marc": [(1, 1), (1, 2), (2, 1)]},  # 2 seraglio: every box filled during set-up
    )
    # Completed during set-up: awarded when set-up ends, as round 0.
    (award,) = game.state.awards
    assert (award.players, award.round, award.places, award.vp_each) == (("Marc",), 0, (1,), 17)
    for name in ("Barbara", "Ani"):
        game.apply(TakeCoins(name))
        game.apply(Roll(name, (3, 3), (3, 3)))
        game.apply(KeepPair(name, 3, 3))
    game.apply(roll("Marc", 1, 2))  # seraglio again: every box filled, roll again
    exp = game.expectation()
    assert exp.roll_again and exp.player == "Marc" and "filled every seraglio box" in game.state.notice
    assert game.state.player("Marc").count_of("seraglio") == 2
    game.apply(roll("Marc", 2, 5))
    assert game.state.player("Marc").count_of("arcades") == 2 and game.state.round == 2


def test_solo_unused_pair_stays_and_dice_are_never_passed() -> None:
    game = new_game(("Solo",), ("Marc", "Herman"))
    run_setup(game, fields={"Solo": (1, 2)}, extra=(3, 4))
    game.apply(CrossBuilding("Solo", 1, 4))
    game.apply(roll("Solo", 6, 6))
    s = game.state.player("Solo")
    # [interpretation] the unused pair stays on the sheet; the used pair is re-rolled onto the fields.
    assert (sorted(s.yellow), sorted(s.blue)) == ([3, 6], [2, 6])
    for name in ("Marc", "Herman"):
        assert game.expectation().player == name
        game.apply(roll(name, 1, 1))
    game.apply(TakeCoins("Solo"))
    game.apply(Roll("Solo", (1, 2), (3, 4)))
    # [interpretation] after taking coins all 4 dice are re-rolled and stay: no pair to keep.
    s = game.state.player("Solo")
    assert (sorted(s.yellow), sorted(s.blue)) == ([1, 2], [3, 4])
    assert game.expectation().player == "Marc"


# ------------------------------------------------------------------ the immutable API and undo
def test_apply_returns_a_new_state_and_leaves_the_old_one_alone() -> None:
    setup = GameStarted(EXAMPLE, ("Barbara", "Dirk", "Patricia"))
    s0 = start(setup)
    s1 = apply(s0, roll("Barbara", 1, 1))
    assert s0.player("Barbara").crossed == 0 and s1.player("Barbara").is_crossed(1, 1)
    with pytest.raises(IllegalMove):
        apply(s1, roll("Barbara", 1, 2))
    assert expectation(s1).player == "Dirk"
    assert crossings(s1) == ()


def test_undo_drops_the_last_event_and_replays() -> None:
    setup = GameStarted(EXAMPLE, ("Barbara", "Dirk", "Patricia"))
    events: list[Event] = [setup, roll("Barbara", 1, 1), roll("Dirk", 2, 2)]
    state = replay(events)
    events, undone = undo(events)
    assert undone == replay([setup, roll("Barbara", 1, 1)])
    assert undone != state and expectation(undone).player == "Dirk"
    with pytest.raises(IllegalMove, match="nothing to undo"):
        undo([setup])


def test_replay_names_the_illegal_event() -> None:
    setup = GameStarted(EXAMPLE, ("Barbara", "Dirk", "Patricia"))
    with pytest.raises(IllegalMove, match="event 3: it is Dirk's turn, not Barbara's"):
        replay([setup, roll("Barbara", 1, 1), roll("Barbara", 2, 2)])
    with pytest.raises(IllegalMove, match="must start with a GameStarted"):
        replay([roll("Barbara", 1, 1)])
    game = Game(setup)
    refused(game, setup, "already started")


def test_a_crossing_needs_both_dice_on_the_fields() -> None:
    """Rules page: each yellow with each blue makes a crossing: one of the two dice alone is not one."""
    game = new_game()
    run_setup(game, fields={"Barbara": (2, 4)}, extra=(1, 1))  # Barbara: yellow 2 and 1, blue 4 and 1
    refused(game, CrossBuilding("Barbara", 1, 5), "yellow 1 × blue 5 is not a crossing of Barbara's dice")
    refused(game, CrossBuilding("Barbara", 5, 4), "yellow 5 × blue 4 is not a crossing of Barbara's dice")
