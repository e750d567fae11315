"""End states typed in from the table that no game can reach are refused, naming the field; every end state a
game of the engine reaches is still accepted.

Roll & Write: every player crosses 3 buildings at set-up and an imaginary player gets one more each round.
The dice game: a column gives 3 building points a round, the 2 exchange tiles one more each.
"""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rw_helpers import EXAMPLE, SETUPS, boxes_of

from companion.games.alhambra.buildings import TYPES
from companion.games.alhambra_dice import GameStarted as DiceStarted
from companion.games.alhambra_dice import Standing
from companion.games.alhambra_dice.scorefile import ScoreFileError, end_state
from companion.games.alhambra_dice.simulate import play_random_game as play_dice_game
from companion.games.alhambra_rw import BUILDING_TYPES, GameStarted
from companion.games.alhambra_rw.endstate import EndStateError, end_state_from_json
from companion.games.alhambra_rw.scoring import EndState, end_state_of
from companion.games.alhambra_rw.simulate import play_random_game as play_rw_game

DICE_END_STATE = (
    Path(__file__).parents[2] / "companion" / "games" / "alhambra_dice" / "examples" / "end-state.json"
)


# ------------------------------------------------------------------------------------ Roll & Write
def rw_json(end: EndState) -> dict[str, Any]:
    """An end state as a player types it in from the sheets."""
    players: list[dict[str, Any]] = []
    for p in end.players:
        if p.imaginary:
            players.append(
                {
                    "name": p.name,
                    "imaginary": True,
                    "buildings": dict(zip(BUILDING_TYPES, p.counts, strict=True)),
                }
            )
            continue
        grid = ["".join("X" if p.crossed >> (y * 6 + b) & 1 else "." for b in range(6)) for y in range(6)]
        players.append({"name": p.name, "grid": grid, "coins": {"circled": p.circled, "spent": p.spent}})
    return {
        "game": "alhambra-roll-and-write",
        "sheet": end.sheet.to_json(),
        "variant": end.variant,
        "players": players,
        "completions": [
            {"type": c.building, "round": c.round, "players": list(c.players)} for c in end.completions
        ],
    }


SOLO = GameStarted(EXAMPLE, ("Barbara",), ("Marc", "Nora"), "standard")
"""Solo with 2 imaginary players (players[1] and [2]): 18 rounds."""


def finished_rw(seed: int = 7, setup: GameStarted = SOLO) -> dict[str, Any]:
    game, _ = play_rw_game(setup, random.Random(seed))
    return rw_json(end_state_of(game.state))


@settings(max_examples=120, deadline=None)
@given(setup=st.sampled_from(SETUPS), seed=st.integers(0, 2**32 - 1))
def test_every_finished_roll_and_write_game_is_accepted_as_an_end_state(
    setup: GameStarted, seed: int
) -> None:
    data = finished_rw(seed, setup)
    assert (
        end_state_from_json(json.loads(json.dumps(data))).players
        == end_state_of(play_rw_game(setup, random.Random(seed))[0].state).players
    )


def _first_type_held(buildings: dict[str, int]) -> str:
    """A type held but not filled: one more or one less changes no completion."""
    return next(t for t in BUILDING_TYPES if 0 < buildings[t] < boxes_of(EXAMPLE, t))


def test_an_imaginary_players_type_left_out_is_refused_not_scored_as_0() -> None:
    data = finished_rw()
    buildings = data["players"][1]["buildings"]
    del buildings[_first_type_held(buildings)]
    with pytest.raises(EndStateError, match=r"players\[1\].buildings: missing \w+ \(0 where there is none\)"):
        end_state_from_json(data)
    # A type the player has none of must be written too, as 0.
    data = finished_rw()
    data["players"][1]["buildings"] = dict.fromkeys(BUILDING_TYPES, 0) | data["players"][1]["buildings"]
    end_state_from_json(data)


@pytest.mark.parametrize("change", [-1, 1])
def test_an_imaginary_player_without_3_plus_one_building_a_round_is_refused(change: int) -> None:
    """Solo: 18 rounds, so each imaginary player holds 3 + 18 = 21 buildings."""
    data = finished_rw()
    buildings = data["players"][2]["buildings"]
    assert sum(buildings.values()) == 21
    held = _first_type_held(buildings)
    buildings[held] += change
    name = data["players"][2]["name"]
    with pytest.raises(
        EndStateError,
        match=rf"players\[2\].buildings: imaginary {name} has {21 + change} buildings, but gets 3 at set-up "
        r"and 1 in each of the 18 rounds: 21 in all",
    ):
        end_state_from_json(data)


def test_a_real_player_with_fewer_than_3_crossed_cells_is_refused() -> None:
    """The testers' file: four real players, one with a single cross (12 rounds, no imaginary player)."""
    data = {
        "game": "alhambra-roll-and-write",
        "sheet": "example",
        "players": [
            {"name": n, "grid": [row, "X.....", "X.....", "......", "......", "......"],
             "coins": {"circled": 3, "spent": 0}}
            for n, row in (("Patricia", "XXXXXX"), ("Barbara", "X.X..."), ("Dirk", "..X..."))
        ] + [{"name": "Frank", "grid": ["..X...", "......", "......", "......", "......", "......"],
              "coins": {"circled": 3, "spent": 0}}],
    }  # fmt: skip
    with pytest.raises(
        EndStateError,
        match=r"players\[3\].grid: Frank has 1 crossed cells, but every player crosses 3 buildings at set-up",
    ):
        end_state_from_json(data)
    data["players"][3]["grid"][1] = "XX...."
    end_state_from_json(data)


# ------------------------------------------------------------------------------------ the dice game
def dice_json(names: tuple[str, ...], dirk: tuple[bool, ...], standings: list[Standing]) -> dict[str, Any]:
    """A finished game's board as a player types it in: every stone, best first, and every VP tile."""
    scorings = []
    for letter, standing in zip("ABC", standings, strict=True):
        buildings = {}
        for t, track in zip(TYPES, standing.tracks, strict=True):
            on = [[n, p] for n, p in track]
            buildings[t] = on + [[n, 0] for n in names if all(n != s[0] for s in on)]
        tiles = {n: list(v) for n, v in zip(names, standing.vp_tiles, strict=True)}
        scorings.append({"scoring": letter, "buildings": buildings, "vp_tiles": tiles})
    players = [{"name": n, "dirk": True} if d else {"name": n} for n, d in zip(names, dirk, strict=True)]
    return {"game": "alhambra-dice", "players": players, "scorings": scorings}


@settings(max_examples=150, deadline=None)
@given(players=st.integers(2, 6), seed=st.integers(0, 2**32 - 1))
def test_every_finished_dice_game_is_accepted_as_an_end_state(players: int, seed: int) -> None:
    names = ("Ann", "Ben", "Cleo", "Dan", "Eva", "Finn")[:players]
    game, _ = play_dice_game(DiceStarted(names), random.Random(seed))
    dirk = tuple(i == game.dirk for i in range(len(game.names)))
    data = dice_json(game.names, dirk, game.standings)
    assert end_state(data).names == game.names


def _pavilion_a(*points: int) -> dict[str, Any]:
    data: dict[str, Any] = copy.deepcopy(json.loads(DICE_END_STATE.read_text()))
    names = [p["name"] for p in data["players"]]
    data["scorings"][0]["buildings"]["pavilion"] = [[n, p] for n, p in zip(names, points, strict=True)]
    return data


def test_more_building_points_of_a_type_in_all_than_its_column_gave_are_refused() -> None:
    """After round 1 the pavilion column gave 3 (2 + 1) and the 2 exchange tiles one more each: 5 in all."""
    end_state(_pavilion_a(5, 0, 0))
    end_state(_pavilion_a(3, 2, 0))
    with pytest.raises(
        ScoreFileError,
        match=r"scorings\[0\].buildings.pavilion: 15 building points in all, at most 5 after 1 round "
        r"\(3 a round from its column and one per exchange tile, the game has 2\)",
    ):
        end_state(_pavilion_a(5, 5, 5))
    with pytest.raises(ScoreFileError, match=r"scorings\[0\].buildings.pavilion: 6 building points in all"):
        end_state(_pavilion_a(3, 2, 1))


def test_scoring_c_allows_3_a_round_and_the_exchange_tiles() -> None:
    data = json.loads(DICE_END_STATE.read_text())
    data["scorings"][2]["buildings"]["tower"] = [["Orange", 9], ["Blue", 5], ["Green", 4]]
    with pytest.raises(
        ScoreFileError, match=r"scorings\[2\].buildings.tower: 18 building points in all, at most 17"
    ):
        end_state(data)
