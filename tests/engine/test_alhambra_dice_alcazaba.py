"""The Alcazaba variant of Alhambra – the dice game: each rule as its section of the rules page names it,
each illegal event refused with the reason (nothing changed), and random whole games folded to the end."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from ad_helpers import dice, fill, turn

from companion.app import alcazaba_input
from companion.app.alhambra_dice_words import describe
from companion.cli import main as companion_main
from companion.games.alhambra.scoring import Holding, score_game
from companion.games.alhambra_dice import (
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
    replay,
)
from companion.games.alhambra_dice.alcazaba import BAG, AlcazabaGame
from companion.games.alhambra_dice.engine import MAX_ROLLS, slot_of
from companion.games.alhambra_dice.events import (
    BuildingTile,
    EventFormatError,
    Rebuilt,
    TilesLaid,
    TileTaken,
    event_from_json,
    event_to_json,
)
from companion.games.alhambra_dice.play import fold, new_game
from companion.games.alhambra_dice.scorefile import ScoreFileError, log_text, score_log
from companion.games.alhambra_dice.simulate import play_random_game

THREE = ("Ann", "Ben", "Cleo")
TYPES = ("pavilion", "seraglio", "arcades", "chambers", "garden", "tower")
PILE = tuple(BuildingTile(t) for t in TYPES)
LAID = TilesLaid(
    PILE,
    (
        BuildingTile("garden", "NES"),
        BuildingTile("garden"),
        BuildingTile("tower"),
        BuildingTile("arcades"),
        BuildingTile("chambers"),
    ),
    "pavilion",
)
"""Tiles 0–5: the pile (no walls); 6: a garden walled on three sides; 7–10 the other drawn tiles; the
start-player tile on the pavilion column."""


def refused(game: Game, event: Event, reason: str) -> None:
    before = game.state
    with pytest.raises(IllegalMove, match=reason):
        game.apply(event)
    assert game.state == before


def alcazaba(players: tuple[str, ...] = THREE) -> AlcazabaGame:
    game = new_game(GameStarted(players, "alcazaba"))
    assert isinstance(game, AlcazabaGame)
    return game


def round_one() -> AlcazabaGame:
    """Round 1 of 3 players up to the tiles: Ann garden line 5, Ben garden line 3, Cleo pavilion line 2, then
    the worst results in tower (Ann's lies on line 1, right field; the others are pushed out)."""
    game = alcazaba()
    game.apply(LAID)
    turn(game, "garden", dice(garden=5))
    turn(game, "garden", dice(garden=3))
    turn(game, "pavilion", dice(pavilion=2))
    fill(game, "tower")
    return game


def played_round_one() -> AlcazabaGame:
    """Round 1 to its scoring: Cleo (pavilion) takes the start-player tile naming Ben; Ann builds the walled
    garden east of the fountain, Ben a garden south of it; Ann (tower) puts the tower tile in her reserve."""
    game = round_one()
    game.apply(TileTaken("Cleo", "pavilion", None, start_player="Ben"))
    game.apply(TileTaken("Ann", "garden", 6, (0, 1)))
    game.apply(TileTaken("Ben", "garden", 4, (1, 0)))
    game.apply(TileTaken("Ann", "tower", 5, "reserve"))
    return game


# ------------------------------------------------------------------------------------------- variant
def test_the_variant_is_named_in_game_started_and_old_logs_stay_the_standard_game() -> None:
    standard = event_to_json(GameStarted(THREE))
    assert "variant" not in standard and event_from_json(standard) == GameStarted(THREE)
    data = event_to_json(GameStarted(THREE, "alcazaba"))
    assert data["variant"] == "alcazaba" and event_from_json(data) == GameStarted(THREE, "alcazaba")
    assert type(new_game(GameStarted(THREE))) is Game
    assert replay([GameStarted(THREE)]).variant == "standard"
    with pytest.raises(EventFormatError, match="variant"):
        event_from_json({**standard, "variant": "castle"})
    with pytest.raises(IllegalMove, match="no variant"):
        new_game(GameStarted(THREE, "castle"))
    with pytest.raises(IllegalMove, match="new_game"):
        Game(GameStarted(THREE, "alcazaba"))


@pytest.mark.parametrize(
    "event", [LAID, TileTaken("Ann", "garden", 0), Rebuilt("Ann", remove=(0, 1))], ids=lambda e: e.kind
)
def test_the_variants_events_are_refused_in_the_standard_game(event: Event) -> None:
    game = Game(GameStarted(THREE))
    refused(game, event, "belongs to the Alcazaba variant")
    game.apply(RoundPrepared(("exchange", "displace", "cancel", "black_die", "vp", "start_player")))
    game.apply(Rolled("Ann", dice(garden=3)))
    refused(game, event, "belongs to the Alcazaba variant")


def test_every_new_event_converts_to_json_and_back() -> None:
    game = played_round_one()
    game.apply(LAID)
    game.apply(Rolled("Ben", dice(garden=2)))
    game.apply(Rebuilt("Ben", remove=(1, 0)))
    events = list(game.log)
    assert [event_from_json(event_to_json(e)) for e in events] == events
    assert event_to_json(TileTaken("Ann", "garden", 6, (0, 1)))["at"] == [0, 1]
    with pytest.raises(EventFormatError, match="walls"):
        event_from_json({"event": "tiles_laid", "pile": [{"building": "garden", "walls": "SN"}], "drawn": []})


# -------------------------------------------------------------------------------------- tiles laid out
def test_the_log_names_dirks_markers_laid_with_the_tiles() -> None:
    """Five markers of Dirk's appeared on the board as the tiles were laid, the log's line naming the tiles
    alone (the standard game's names his markers' column)."""
    game = alcazaba(("Ann", "Ben"))
    before = game.state
    game.apply(LAID)
    line = describe(before, LAID, game.state)[0]
    assert line.endswith(
        "; Dirk's markers on garden line 2, garden line 3, tower line 4, arcades line 5, chambers line 6"
    ), line
    three = alcazaba()
    before = three.state
    three.apply(LAID)
    assert "Dirk" not in describe(before, LAID, three.state)[0], "three players play without Dirk"


def test_each_round_a_pile_of_6_and_5_drawn_tiles_are_laid_out_with_the_start_player_tile() -> None:
    game = alcazaba()
    assert game.expectation().ask is Ask.PREPARE and "one of each type" in game.expectation().prompt
    game.apply(LAID)
    view = game.state.alcazaba
    assert view is not None and view.laid == (*LAID.pile, *LAID.drawn) and view.start_tile
    assert game.state.variant == "alcazaba" and game.ask is Ask.ROLL


@pytest.mark.parametrize(
    ("event", "reason"),
    [
        (TilesLaid((*PILE[:5], BuildingTile("garden")), LAID.drawn, "tower"), "one of each type"),
        (TilesLaid(PILE, LAID.drawn[:4], "tower"), "5 tiles are drawn"),
        (TilesLaid(PILE, (BuildingTile("pavilion"),) * 3 + LAID.drawn[:2], "tower"), "bag holds 2 pavilion"),
        (TilesLaid(PILE, (BuildingTile("castle"), *LAID.drawn[1:]), "tower"), "no building type"),
        (TilesLaid(PILE, (BuildingTile("garden", "SN"), *LAID.drawn[1:]), "tower"), "sides among"),
        (TilesLaid(PILE, LAID.drawn), "the start-player tile: round 1: roll a die"),
        (TilesLaid(PILE, LAID.drawn, "castle"), "the start-player tile: there is no building type"),
        (RoundPrepared(("vp", "vp", "vp", "vp", "vp", "start_player")), "building tiles are laid out"),
    ],
)
def test_tiles_laid_out_wrongly_are_refused(event: Event, reason: str) -> None:
    refused(alcazaba(), event, reason)


def test_tiles_are_laid_out_once_a_round_and_no_bonus_tile_is_held() -> None:
    game = alcazaba()
    game.apply(LAID)
    refused(game, LAID, "laid out already")
    game.apply(Rolled("Ann", dice(garden=3)))
    refused(game, RollCancelled("Ann"), "holds no cancel tile")
    refused(game, BlackDieSet("Ann", "garden"), "holds no black-die tile")
    refused(game, MarkerPlaced("Ann", "garden", displace=True), "holds no displace tile")
    refused(game, Rebuilt("Zoe", remove=(0, 1)), "no player named")


def test_the_bag_empties_over_the_rounds_and_round_5_has_no_start_player_tile() -> None:
    assert sum(BAG) == 25 and BAG[TYPES.index("pavilion")] == 2
    game, _ = play_random_game(GameStarted(THREE, "alcazaba"), random.Random(3))
    assert isinstance(game, AlcazabaGame) and game.drawn_used == list(BAG)
    rounds = [e for e in game.log if isinstance(e, TilesLaid)]
    assert len(rounds) == 5
    fifth = fold(game.log[: game.log.index(rounds[-1]) + 1])
    assert isinstance(fifth, AlcazabaGame) and not fifth.start_tile


# ------------------------------------------------------------------------------------- tile of choice
def test_the_best_marker_takes_a_tile_of_choice_and_builds_it_then_the_next_best() -> None:
    game = round_one()
    expected = game.expectation()
    assert (expected.player, expected.building, expected.prizes) == (
        "Cleo",
        "pavilion",
        ("tile", "start_player"),
    )
    game.apply(TileTaken("Cleo", "pavilion", None, start_player="Ben"))
    assert (game.names[game.active], game.expectation().building) == ("Ann", "garden")
    game.apply(TileTaken("Ann", "garden", 6, (0, 1)))
    assert (game.names[game.active], game.expectation().building) == ("Ben", "garden")
    game.apply(TileTaken("Ben", "garden", 4, (1, 0)))
    view = game.state.alcazaba
    assert view is not None
    assert view.alhambras[0] == (((0, 1), BuildingTile("garden", "NES")),)
    assert view.alhambras[1] == (((1, 0), BuildingTile("garden")),)
    assert view.laid[6] is None and view.laid[4] is None and not view.start_tile
    game.apply(TileTaken("Ann", "tower", 5, "reserve"))
    assert game.state.alcazaba is not None and game.state.alcazaba.reserves[0] == (BuildingTile("tower"),)
    # The column empty (the other tower markers were pushed out), the round ends: the start-player tile's
    # receiver named Ben.
    assert game.round == 2 and game.ask is Ask.PREPARE and game.caliph == 1


@pytest.mark.parametrize(
    ("event", "reason"),
    [
        (TileTaken("Ann", "pavilion", 0), "Cleo's turn"),
        (TileTaken("Cleo", "garden", 0), "pavilion column's"),
        (TileTaken("Cleo", "pavilion", 11, (0, 1)), "tile 11 is not laid out"),
        (TileTaken("Cleo", "pavilion", 0, (0, 0)), "built already"),
        (TileTaken("Cleo", "pavilion", 0), "at: say where Cleo puts the tile"),
        (TileTaken("Cleo", "pavilion", 0, "dirk"), "only in a 2-player game"),
        (TileTaken("Cleo", "pavilion", 0, (3, 3)), "not joined"),
        (TileTaken("Cleo", "pavilion", 0, start_player="Ben"), "only the start-player tile's receiver"),
        (TileTaken("Cleo", "pavilion", None), "name the next start player"),
        (TileTaken("Cleo", "pavilion", None, (0, 1), "Ben"), "not built"),
        (PrizeTaken("Cleo", "pavilion", "points"), "wins a building tile"),
    ],
)
def test_taking_a_tile_wrongly_is_refused(event: Event, reason: str) -> None:
    refused(round_one(), event, reason)


def test_the_next_start_player_and_the_prizes_words_are_typed_without_case() -> None:
    # `take start ben` was refused (the standard game's `tile ben` was not), `take 6 Reserve` too.
    game = round_one()
    typed = alcazaba_input.parse("take start ben", game.state, random.Random(0))
    assert typed == TileTaken("Cleo", "pavilion", None, start_player="Ben")
    game.apply(typed)
    assert alcazaba_input.parse("take 6 Reserve", game.state, random.Random(0)) == TileTaken(
        "Ann", "garden", 6, "reserve"
    )


def test_a_tile_taken_already_and_the_start_player_tile_taken_already_are_refused() -> None:
    game = round_one()
    game.apply(TileTaken("Cleo", "pavilion", None, start_player="Ben"))
    refused(game, TileTaken("Ann", "garden", None, start_player="Ben"), "taken already")
    game.apply(TileTaken("Ann", "garden", 6, (0, 1)))
    refused(game, TileTaken("Ben", "garden", 6, (1, 0)), "tile 6 is not laid out")
    refused(game, Rolled("Ben", dice()), "no roll now")


def test_a_marker_takes_only_a_tile_of_its_own_column() -> None:
    """Seed 002, Alcazaba: "De speler met het beste resultaat mag zich als beloning een gebouwenkaartje naar
    keuze uit de desbetreffende kolom nemen" (the tiles lie "op de passende kolommen")."""
    game = round_one()
    refused(game, TileTaken("Cleo", "pavilion", 6, (0, 1)), "tile 6 lies on the garden column")
    refused(game, TileTaken("Cleo", "pavilion", 9, (0, 1)), "taken from the pavilion column: choose among 0")
    assert "0: pavilion (no walls)" in game.expectation().prompt
    game.apply(TileTaken("Cleo", "pavilion", 0, (0, 1)))
    refused(game, TileTaken("Ann", "garden", 0, (0, 1)), "tile 0 is not laid out")


def test_taking_goes_on_only_as_long_as_something_is_left_in_that_column() -> None:
    """Seed 002, Alcazaba: "Als er in deze gebouwenkolom nog iets te rapen valt (een gebouw of de
    startspelerfiche) dan mag de speler die nu het beste resultaat heeft het kaartje of de fiche nemen." and
    "Dit gaat zolang door tot er, in de desbetreffende kolom, niets meer te rapen valt." The pavilion column
    holds its tile and the start-player tile: the third pavilion marker wins nothing, though tiles lie on the
    other columns."""
    game = alcazaba()
    game.apply(LAID)
    turn(game, "pavilion", dice(pavilion=5))
    turn(game, "pavilion", dice(pavilion=4))
    turn(game, "pavilion", dice(pavilion=3))
    fill(game, "tower")
    game.apply(TileTaken("Ann", "pavilion", 0, (0, 1)))
    assert game.expectation().player == "Ben" and game.expectation().prizes == ("start_player",)
    game.apply(TileTaken("Ben", "pavilion", None, start_player="Cleo"))
    # Cleo's pavilion marker is passed over: the next column with a marker is tower (Ann's, line 1).
    assert (game.names[game.active], game.expectation().building) == ("Ann", "tower")
    game.apply(TileTaken("Ann", "tower", 8, "reserve"))
    view = game.state.alcazaba
    assert game.round == 2 and view is not None and view.reserves[0] == (BuildingTile("tower"),)


def test_the_start_player_tile_lies_on_the_column_rolled_for_it_and_is_taken_only_there() -> None:
    """Seed 002, Alcazaba: "Daarna wordt gedobbeld op welk bonusveld de startspelerfiche wordt geplaatst." and
    "Als de startspelerfiche in de desbetreffende gebouwenkolom ligt, mag de speler in plaats van een
    gebouwenkaartje te nemen ook deze fiche nemen." """
    game = alcazaba()
    game.apply(TilesLaid(LAID.pile, LAID.drawn, "garden"))
    turn(game, "garden", dice(garden=5))
    turn(game, "garden", dice(garden=3))
    turn(game, "pavilion", dice(pavilion=2))
    fill(game, "tower")
    view = game.state.alcazaba
    assert view is not None and view.start_tile == "garden"
    assert game.expectation().prizes == ("tile",)
    refused(game, TileTaken("Cleo", "pavilion", None, start_player="Ben"), "it lies on the garden column")
    game.apply(TileTaken("Cleo", "pavilion", 0, (0, 1)))
    assert game.expectation().prizes == ("tile", "start_player")
    game.apply(TileTaken("Ann", "garden", None, start_player="Cleo"))
    game.apply(TileTaken("Ben", "garden", 7, (1, 0)))
    game.apply(TileTaken("Ann", "tower", 8, "reserve"))
    assert game.round == 2 and game.caliph == 2


def test_round_5_lays_no_start_player_tile() -> None:
    """Seed 002, Alcazaba: "In de vijfde (de laatste) ronde wordt geen startspelerfiche meer ingezet." """
    _, events = play_random_game(GameStarted(THREE, "alcazaba"), random.Random(5))
    laid = [i for i, e in enumerate(events) if isinstance(e, TilesLaid)]
    fifth = fold(events[: laid[-1]])
    assert isinstance(events[laid[-1]], TilesLaid) and events[laid[-1]].start_column is None
    refused(fifth, TilesLaid(PILE, LAID.drawn, "tower"), "the start-player tile: round 5 has none")


def test_where_a_tile_taken_goes_is_said_and_a_log_line_without_it_is_refused() -> None:
    """A missing field that changes the score is an error, not a default: a `tile_taken` line without `at`
    is not read as the reserve (seed 002: "onmiddellijk in zijn eigen Alhambra inbouwen of het kaartje in
    zijn reserveveld leggen")."""
    game = round_one()
    line = event_to_json(TileTaken("Cleo", "pavilion", 0, "reserve"))
    assert line["at"] == "reserve"
    del line["at"]
    refused(game, event_from_json(line), "at: say where Cleo puts the tile")
    with pytest.raises(EventFormatError, match='at: must be \\[row, col\\] or "reserve" or "dirk"'):
        event_from_json({**line, "at": "garden"})
    laid = event_to_json(LAID)
    assert laid["start_column"] == "pavilion" and event_from_json(laid) == LAID


def test_log_lines_that_lost_a_field_changing_the_score_are_refused_naming_it() -> None:
    """Issue 30: a missing field that changes the score is an error, not a default: a laid tile's walls (seed
    003: "Edge types must match edge types. Walls match walls and non-walls match non-walls."), and what a
    rebuild action removes and builds (seed 002: "precies één ombouwactie")."""
    laid = event_to_json(LAID)
    del laid["drawn"][0]["walls"]
    with pytest.raises(
        EventFormatError, match=r"drawn\[0\].walls: missing \(\"\" for a tile without walls\)"
    ):
        event_from_json(laid)
    exchange = event_to_json(Rebuilt("Ann", remove=(0, 1), build=0))
    assert exchange["remove"] == [0, 1] and exchange["build"] == 0
    remove_only = event_to_json(Rebuilt("Ann", remove=(0, 1)))
    assert remove_only["build"] is None and event_from_json(remove_only) == Rebuilt("Ann", remove=(0, 1))
    for name in ("build", "remove"):
        lost = dict(exchange)
        del lost[name]
        with pytest.raises(EventFormatError, match=f"{name}: missing \\(null for"):
            event_from_json(lost)


# ------------------------------------------------------------------------------------------ rebuilding
def test_a_rebuild_action_instead_of_the_marker_after_roll_1_or_2_puts_the_marker_on_the_reserve_board() -> (
    None
):
    game = played_round_one()
    game.apply(LAID)
    # Ben (the Caliph now) rebuilds after roll 1: his garden into the reserve.
    game.apply(Rolled("Ben", dice(garden=2)))
    assert "rebuild" in game.expectation().prompt
    game.apply(Rebuilt("Ben", remove=(1, 0)))
    view = game.state.alcazaba
    assert view is not None and view.alhambras[1] == () and view.reserves[1] == (BuildingTile("garden"),)
    assert view.reserve_board == (0, 1, 0) and game.state.markers_left == (5, 4, 5)
    assert all(p is None for column in game.state.board for p in column)
    # Cleo places a marker; Ann exchanges after roll 2: the reserve tower takes the walled garden's place.
    turn(game, "tower", dice(tower=3))
    game.apply(Rolled("Ann", dice(garden=2)))
    game.apply(Rolled("Ann", dice(garden=2)))
    game.apply(Rebuilt("Ann", remove=(0, 1), build=0))
    view = game.state.alcazaba
    assert view is not None and view.alhambras[0] == (((0, 1), BuildingTile("tower")),)
    assert view.reserves[0] == (BuildingTile("garden", "NES"),) and view.reserve_board == (1, 1, 0)
    # Ben builds from his reserve again.
    game.apply(Rolled("Ben", dice(garden=2)))
    game.apply(Rebuilt("Ben", build=0, at=(0, -1)))
    view = game.state.alcazaba
    assert view is not None and view.alhambras[1] == (((0, -1), BuildingTile("garden")),)
    assert view.reserves[1] == ()


def round_two_at_ann() -> AlcazabaGame:
    """Round 2, Ann's first turn after roll 1: her walled garden east of the fountain, a tower in reserve."""
    game = played_round_one()
    game.apply(LAID)
    turn(game, "tower", dice(tower=3))
    turn(game, "tower", dice(tower=3))
    game.apply(Rolled("Ann", dice(garden=2)))
    return game


@pytest.mark.parametrize(
    ("event", "reason"),
    [
        (Rebuilt("Ann"), "name the tile to remove"),
        (Rebuilt("Ann", remove=(0, 0)), "fountain stays"),
        (Rebuilt("Ann", remove=(5, 5)), "no tile at row 5, col 5"),
        (Rebuilt("Ann", build=1, at=(1, 0)), "reserve holds 1 tiles"),
        (Rebuilt("Ann", build=0), "name where"),
        (Rebuilt("Ann", build=0, at=(0, 1)), "built already"),
        (Rebuilt("Ann", build=0, at=(4, 4)), "not joined"),
        (Rebuilt("Ann", remove=(0, 1), build=0, at=(1, 0)), "where the removed tile stood"),
        (Rebuilt("Ann", remove=(0, 1), at=(1, 0)), "name the reserve tile"),
        (Rebuilt("Ben", remove=(1, 0)), "Ann's turn"),
    ],
)
def test_a_rebuild_action_that_cannot_be_made_is_refused(event: Event, reason: str) -> None:
    refused(round_two_at_ann(), event, reason)


def test_a_rebuild_whose_alhambra_breaks_the_laying_rules_is_refused() -> None:
    game = played_round_one()
    game.apply(LAID)
    game.apply(Rolled("Ben", dice(garden=2)))
    game.apply(Rebuilt("Ben", remove=(1, 0)))
    turn(game, "tower", dice(tower=3))
    game.apply(Rolled("Ann", dice(garden=2)))
    game.apply(Rebuilt("Ann", remove=(0, 1), build=0))  # the walled garden goes to the reserve
    game.apply(Rolled("Ben", dice(garden=2)))
    game.apply(MarkerPlaced("Ben", "garden"))
    turn(game, "tower", dice(tower=3))
    game.apply(Rolled("Ann", dice(garden=2)))
    # The garden walled N, E, S: its west side must face a side without wall, its others the outside.
    refused(game, Rebuilt("Ann", build=0, at=(-1, 0)), "edges must match")
    refused(game, Rebuilt("Ann", build=0, at=(1, 0)), "edges must match")
    game.apply(Rebuilt("Ann", build=0, at=(0, 2)))


def test_a_rebuild_action_only_after_roll_1_or_2() -> None:
    game = played_round_one()
    game.apply(LAID)
    refused(game, Rebuilt("Ben", remove=(1, 0)), "after a roll")
    for _ in range(MAX_ROLLS):
        game.apply(Rolled("Ben", dice(garden=2)))
    assert "rebuild" not in game.expectation().prompt
    refused(game, Rebuilt("Ben", remove=(1, 0)), "after roll 1 or 2, not after roll 3")


# ----------------------------------------------------------------------------------------------- Dirk
DIRK_LAID = TilesLaid(
    PILE,
    (
        BuildingTile("garden"),
        BuildingTile("pavilion"),
        BuildingTile("garden"),
        BuildingTile("tower"),
        BuildingTile("arcades"),
    ),
    "garden",
)


def test_dirks_markers_follow_the_order_of_the_drawn_tiles_on_lines_2_to_6_right_field() -> None:
    game = alcazaba(("Ann", "Ben"))
    game.apply(DIRK_LAID)
    dirk = game.dirk
    board = game.state.board
    for line, building in zip(
        (2, 3, 4, 5, 6), ("garden", "pavilion", "garden", "tower", "arcades"), strict=True
    ):
        assert board[TYPES.index(building)][slot_of(line, MAX_ROLLS)] == dirk
    assert sum(p == dirk for column in board for p in column) == 5
    assert game.state.markers_left == (5, 5, 0)


def test_dirk_takes_the_tile_lying_lowest_in_the_column_and_scores_only_majorities() -> None:
    """Seed 002, Alcazaba, 2 players: "Als Dirk een gebouwenkaartje ontvangt, kiest hij telkens voor het
    kaartje dat het meest onderaan ligt." and "Dirk ontvangt enkel de zegepunten voor een meerderheid bij de
    gebouwen." The lowest tile of his column, not the last one laid anywhere."""
    game = alcazaba(("Ann", "Ben"))
    game.apply(DIRK_LAID)
    fill(game, "chambers")
    expected = game.expectation()
    # The pavilion column holds the pile's pavilion (tile 0) and the drawn one (tile 7), laid below it.
    assert expected.player == "Dirk" and expected.auto == TileTaken("Dirk", "pavilion", 7)
    refused(game, TileTaken("Dirk", "pavilion", 0), "lying lowest in the column: tile 7")
    refused(game, TileTaken("Dirk", "pavilion", 10), "tile 10 lies on the arcades column")
    refused(game, TileTaken("Dirk", "pavilion", None), "lowest")
    refused(game, TileTaken("Dirk", "pavilion", 7, (0, 1)), "Dirk builds no Alhambra")
    game.apply(expected.auto)
    game.apply(TileTaken("Dirk", "arcades", 10))  # the drawn arcades, below the pile's (tile 2)
    game.apply(TileTaken("Ann", "chambers", 3, (0, 1)))  # Ann's one marker left on the board
    # Garden: Dirk twice (tiles 8 then 6, the pile's 4 left); the start-player tile is not his. Tower: tile 9.
    autos = []
    while game.ask is Ask.PRIZE:
        auto = game.expectation().auto
        assert auto is not None
        autos.append(auto)
        game.apply(auto)
    assert [(a.building, a.tile) for a in autos if isinstance(a, TileTaken)] == [
        ("garden", 8),
        ("garden", 6),
        ("tower", 9),
    ]
    view = game.state.alcazaba
    assert view is not None and view.dirk == (1, 0, 1, 0, 2, 1)  # pavilion, arcades, 2 gardens, tower
    assert view.laid == ()  # the round is over: the tiles not handed out left the game
    assert game.caliph == 0  # the start-player tile was not handed out: the Caliph stays
    holdings = view.holdings[0]
    assert holdings[2] == Holding("Dirk", True, (1, 0, 1, 0, 2, 1), 0)
    result = game.result()
    assert result is not None
    dirk = result.players[2].scorings[0]
    # Scoring 1 pays the 1st places: pavilion 1, arcades 3, garden 5, tower 6; no wall.
    assert [b.vp for b in dirk.buildings] == [1, 0, 3, 0, 5, 6] and dirk.wall_vp == 0 and dirk.vp == 15
    assert result.winners == ("Ann",)  # Dirk cannot win; Ann's chambers pays its 1st place


def test_both_players_may_give_a_tile_taken_to_dirk() -> None:
    """Seed 002, Alcazaba, 2 players: "Ook bij de Alcazaba-variant mogen de beide spelers gebouwenkaartjes aan
    Dirk schenken." The tile counts for Dirk's majorities, not in the giver's Alhambra."""
    game = alcazaba(("Ann", "Ben"))
    game.apply(DIRK_LAID)
    fill(game, "chambers")
    game.apply(TileTaken("Dirk", "pavilion", 7))
    game.apply(TileTaken("Dirk", "arcades", 10))
    game.apply(TileTaken("Ann", "chambers", 3, "dirk"))
    view = game.state.alcazaba
    assert view is not None and view.dirk == (1, 0, 1, 1, 0, 0) and view.alhambras[0] == ()
    assert view.reserves[0] == ()
    data = event_to_json(TileTaken("Ann", "chambers", 3, "dirk"))
    assert data["at"] == "dirk" and event_from_json(data) == TileTaken("Ann", "chambers", 3, "dirk")


# --------------------------------------------------------------------------------------------- scoring
def test_scoring_is_the_original_alhambras_majorities_ties_shared_and_the_longest_outer_wall() -> None:
    game = played_round_one()
    view = game.state.alcazaba
    assert view is not None and len(view.holdings) == 1
    ann, ben, cleo = view.holdings[0]
    # Ann's tower lies in her reserve and does not count; her garden's 3 wall pieces are all outer.
    assert (ann.counts, ann.wall) == ((0, 0, 0, 0, 1, 0), 3)
    assert (ben.counts, ben.wall, cleo.counts, cleo.wall) == ((0, 0, 0, 0, 1, 0), 0, (0,) * 6, 0)
    result = game.result()
    assert result is not None and result == score_game(view.holdings)
    garden = [p.scorings[0].buildings[4] for p in result.players]
    # Ann and Ben tie for the 1st garden place of scoring 1: (5 + 0) / 2 rounded down.
    assert [g.vp for g in garden] == [2, 2, 0] and "tied with Ben" in garden[0].why
    assert [p.total for p in result.players] == [5, 2, 0] and result.winners == ("Ann",)


def test_nothing_is_scored_before_round_1_ends() -> None:
    game = round_one()
    assert game.result() is None


# ------------------------------------------------------------------------------------------ whole games
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_whole_games_in_the_variant_fold_to_the_end(players: int) -> None:
    names = ("Ann", "Ben", "Cleo", "Dan", "Eva", "Finn")[:players]
    for seed in range(3):
        game, events = play_random_game(GameStarted(names, "alcazaba"), random.Random(seed))
        assert isinstance(game, AlcazabaGame) and game.is_over
        parsed = [event_from_json(event_to_json(e)) for e in events]
        assert replay(parsed) == game.state
        result = game.result()
        assert result is not None and all(len(p.scorings) == 3 for p in result.players)
        view = game.state.alcazaba
        assert view is not None and len(view.holdings) == 3
        refused(game, TilesLaid(PILE, LAID.drawn), "game is over")


def test_the_score_file_refuses_an_alcazaba_log_rather_than_score_it_with_building_points() -> None:
    game = played_round_one()
    with pytest.raises(ScoreFileError, match="alcazaba variant"):
        score_log(list(game.log))


def test_companion_score_scores_a_finished_alcazaba_log_as_the_original_alhambra(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game, events = play_random_game(GameStarted(THREE, "alcazaba"), random.Random(11))
    assert isinstance(game, AlcazabaGame) and game.is_over
    result = game.result()
    assert result is not None
    path = tmp_path / "alcazaba.jsonl"
    path.write_text(log_text(events), encoding="utf-8")
    assert companion_main(["score", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == result.to_json()
    assert companion_main(["score", str(path)]) == 0
    text = capsys.readouterr().out
    assert "Scoring 3" in text and "Winner" in text
