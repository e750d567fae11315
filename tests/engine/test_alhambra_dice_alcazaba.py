"""The Alcazaba variant of Alhambra – the dice game: each rule as its section of the rules page names it,
each illegal event refused with the reason (nothing changed), and random whole games folded to the end."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from ad_helpers import dice, fill, turn

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
)
"""Tiles 0–5: the pile (no walls); 6: a garden walled on three sides; 7–10 the other drawn tiles."""


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
    game.apply(TileTaken("Ann", "tower", 5))
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
        (TilesLaid((*PILE[:5], BuildingTile("garden")), LAID.drawn), "one of each type"),
        (TilesLaid(PILE, LAID.drawn[:4]), "5 tiles are drawn"),
        (TilesLaid(PILE, (BuildingTile("pavilion"),) * 3 + LAID.drawn[:2]), "bag holds 2 pavilion"),
        (TilesLaid(PILE, (BuildingTile("castle"), *LAID.drawn[1:])), "no building type"),
        (TilesLaid(PILE, (BuildingTile("garden", "SN"), *LAID.drawn[1:])), "sides among"),
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
    game.apply(TileTaken("Ann", "tower", 5))
    assert game.state.alcazaba is not None and game.state.alcazaba.reserves[0] == (BuildingTile("tower"),)
    # The column empty (the other tower markers were pushed out), the round ends: the start-player tile's
    # receiver named Ben.
    assert game.round == 2 and game.ask is Ask.PREPARE and game.caliph == 1


@pytest.mark.parametrize(
    ("event", "reason"),
    [
        (TileTaken("Ann", "pavilion", 0), "Cleo's turn"),
        (TileTaken("Cleo", "garden", 0), "pavilion column's"),
        (TileTaken("Cleo", "pavilion", 11), "no tile 11"),
        (TileTaken("Cleo", "pavilion", 0, (0, 0)), "built already"),
        (TileTaken("Cleo", "pavilion", 6, (0, -1)), "edges must match"),
        (TileTaken("Cleo", "pavilion", 0, (3, 3)), "not joined"),
        (TileTaken("Cleo", "pavilion", 0, start_player="Ben"), "only the start-player tile's receiver"),
        (TileTaken("Cleo", "pavilion", None), "name the next start player"),
        (TileTaken("Cleo", "pavilion", None, (0, 1), "Ben"), "not built"),
        (PrizeTaken("Cleo", "pavilion", "points"), "wins a building tile"),
    ],
)
def test_taking_a_tile_wrongly_is_refused(event: Event, reason: str) -> None:
    refused(round_one(), event, reason)


def test_a_tile_taken_already_and_the_start_player_tile_taken_already_are_refused() -> None:
    game = round_one()
    game.apply(TileTaken("Cleo", "pavilion", None, start_player="Ben"))
    refused(game, TileTaken("Ann", "garden", None, start_player="Ben"), "not laid out")
    game.apply(TileTaken("Ann", "garden", 6, (0, 1)))
    refused(game, TileTaken("Ben", "garden", 6, (1, 0)), "no tile 6 laid out")
    refused(game, Rolled("Ben", dice()), "no roll now")


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


def test_dirk_takes_the_bottom_most_tile_and_scores_only_majorities() -> None:
    game = alcazaba(("Ann", "Ben"))
    game.apply(DIRK_LAID)
    fill(game, "chambers")
    expected = game.expectation()
    assert expected.player == "Dirk" and expected.auto == TileTaken("Dirk", "pavilion", 10)
    refused(game, TileTaken("Dirk", "pavilion", 0), "bottom-most tile: tile 10")
    refused(game, TileTaken("Dirk", "pavilion", None), "bottom-most")
    refused(game, TileTaken("Dirk", "pavilion", 10, (0, 1)), "Dirk builds no Alhambra")
    game.apply(expected.auto)  # tile 10: arcades
    game.apply(TileTaken("Dirk", "arcades", 9))  # tower
    game.apply(TileTaken("Ann", "chambers", 4, (0, 1)))  # the pile's garden
    while game.ask is Ask.PRIZE:  # Dirk in garden twice (tiles 8 and 7), tower (tile 6)
        auto = game.expectation().auto
        assert auto is not None
        game.apply(auto)
    view = game.state.alcazaba
    assert view is not None and view.dirk == (1, 0, 1, 0, 2, 1)  # pavilion, arcades, 2 gardens, tower
    assert view.laid == ()  # the round is over: the pile's other tiles left the game
    holdings = view.holdings[0]
    assert holdings[2] == Holding("Dirk", True, (1, 0, 1, 0, 2, 1), 0)
    result = game.result()
    assert result is not None
    dirk = result.players[2].scorings[0]
    # Scoring 1 pays the 1st places: pavilion 1, arcades 3, garden 5 (2 against Ann's 1), tower 6; no wall.
    assert [b.vp for b in dirk.buildings] == [1, 0, 3, 0, 5, 6] and dirk.wall_vp == 0 and dirk.vp == 15
    assert result.winners == ("Ann", "Ben")  # Dirk cannot win; Ann's 2nd garden pays nothing yet


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
