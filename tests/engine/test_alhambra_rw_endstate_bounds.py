"""Roll & Write end states with more buildings than the rounds allow are refused, naming the field.

A real player crosses 3 buildings at set-up and 1 a turn, a second one in a turn only by "two buildings" for
3 coins (changing pips costs coins too, so the coins spent bound those turns from above only); an imaginary
player gets 3 at set-up and 1 a round. Every end state a game of the engine reaches is still accepted.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest
from rw_helpers import EXAMPLE, SETUPS, run_setup
from test_end_states_refused import rw_json

from companion.games.alhambra_rw import BUILDING_TYPES, Game, GameStarted, sheet_from_json
from companion.games.alhambra_rw.endstate import EndStateError, end_state_from_json
from companion.games.alhambra_rw.events import CrossBuilding, Event
from companion.games.alhambra_rw.scoring import Completion, end_state_of
from companion.games.alhambra_rw.simulate import play_out, play_random_game, random_decision
from companion.games.alhambra_rw.state import Ask

# The explorer's file: imaginary Imb's tower (8 boxes) written as completed in round 1 (3 + 1 buildings then).
TOWER_IN_ROUND_1: dict[str, Any] = {
    "game": "alhambra-roll-and-write",
    "sheet": "example",
    "players": [
        {"name": "Ann", "grid": ["XXXXXX", "X.....", "X.....", "X.....", "X.....", "X....."],
         "coins": {"circled": 10, "spent": 3}},
        {"name": "Ben", "grid": [".....X", ".X....", "...X.X", ".X....", "..X.X.", "X....."],
         "coins": {"circled": 10, "spent": 3}},
        {"name": "Imb", "imaginary": True,
         "buildings": {"pavilion": 1, "seraglio": 3, "arcades": 3, "chambers": 2, "garden": 4, "tower": 8}},
    ],
    "completions": [
        {"type": "tower", "round": 1, "players": ["Imb"]},
        {"type": "tower", "round": 2, "players": ["Ben"]},
    ],
}  # fmt: skip


def _with_rounds(imb: int, ben: int) -> dict[str, Any]:
    data = copy.deepcopy(TOWER_IN_ROUND_1)
    data["completions"][0]["round"], data["completions"][1]["round"] = imb, ben
    return data


def test_a_real_player_cannot_complete_8_towers_by_round_2() -> None:
    """Ben spent 3 coins: by round 2 at most 3 + 2 + 1 buildings; by round 4, 3 + 4 + 1 = 8."""
    with pytest.raises(
        EndStateError,
        match=r"^completions\[1\]: Ben cannot have completed tower \(8 boxes\) by round 2: at most 6 "
        r'buildings then \(3 at set-up, 1 a turn, and 1 more per "two buildings" \(3 coins\): 3 spent\)$',
    ):
        end_state_from_json(TOWER_IN_ROUND_1)
    with pytest.raises(EndStateError, match=r"^completions\[1\]: Ben .* by round 3: at most 7 buildings"):
        end_state_from_json(_with_rounds(5, 3))
    end_state_from_json(_with_rounds(5, 4))


def test_an_imaginary_player_cannot_complete_8_towers_by_round_1() -> None:
    """Imb: 3 at set-up and 1 a round, so 8 towers at the earliest in round 5; the typo decided who got 21."""
    with pytest.raises(
        EndStateError,
        match=r"^completions\[0\]: Imb cannot have completed tower \(8 boxes\) by round 1: at most 4 "
        r"buildings then \(an imaginary player gets 3 at set-up and 1 a round\)$",
    ):
        end_state_from_json(_with_rounds(1, 4))
    with pytest.raises(EndStateError, match=r"^completions\[0\]: Imb .* by round 4: at most 7 buildings"):
        end_state_from_json(_with_rounds(4, 4))
    end_state_from_json(_with_rounds(5, 4))


def _grid(crossed: set[int]) -> list[str]:
    return ["".join("X" if y * 6 + b in crossed else "." for b in range(6)) for y in range(6)]


def _five_players(
    grid: list[str], circled: int, spent: int, completions: list[dict[str, Any]]
) -> dict[str, Any]:
    """Five players (12 rounds): A's sheet as given, the others with their 3 set-up buildings."""
    others = [{"name": n, "grid": _grid({0, 1, 2}), "coins": {"circled": 3, "spent": 0}} for n in "BCDE"]
    a = {"name": "A", "grid": grid, "coins": {"circled": circled, "spent": spent}}
    return {"sheet": "example", "players": [a, *others], "completions": completions}


def test_a_whole_grid_completed_in_round_1_without_a_coin_spent_is_refused() -> None:
    """The explorer's file: every cell crossed and all six types completed in round 1 scored A 232 VP."""
    completions = [{"type": t, "round": 1, "players": ["A"]} for t in BUILDING_TYPES]
    with pytest.raises(
        EndStateError,
        match=r"^completions\[0\]: A cannot have completed pavilion, seraglio, arcades, chambers, garden and "
        r"tower \(36 boxes\) by round 1: at most 4 buildings then",
    ):
        end_state_from_json(_five_players(["XXXXXX"] * 6, 3, 0, completions))


def _cells_of(building: str) -> set[int]:
    mask = EXAMPLE.type_masks[BUILDING_TYPES.index(building)]
    return {c for c in range(36) if mask >> c & 1}


@pytest.mark.parametrize(("spent", "accepted"), [(0, False), (2, False), (3, True)])
def test_a_second_building_in_round_1_needs_3_coins_spent(spent: int, accepted: bool) -> None:
    """Seraglio's 5 boxes in round 1: 3 at set-up, 1 in the turn and 1 more by "two buildings"."""
    data = _five_players(
        _grid(_cells_of("seraglio")), 3, spent, [{"type": "seraglio", "round": 1, "players": ["A"]}]
    )
    if accepted:
        end_state_from_json(data)
        return
    with pytest.raises(
        EndStateError, match=rf"^completions\[0\]: A .* by round 1: at most 4 buildings .*{spent} spent"
    ):
        end_state_from_json(data)


def test_types_completed_by_a_round_are_counted_together() -> None:
    """Pavilion (4) in round 1 and seraglio (5) in round 2: 9 boxes by round 2, where 6 coins spent allow
    3 + 2 + 2; by round 4, 3 + 4 + 2."""
    completions = [
        {"type": "seraglio", "round": 2, "players": ["A"]},
        {"type": "pavilion", "round": 1, "players": ["A"]},
    ]
    data = _five_players(_grid(_cells_of("seraglio") | _cells_of("pavilion")), 6, 6, completions)
    with pytest.raises(
        EndStateError,
        match=r"^completions\[0\]: A cannot have completed seraglio and pavilion \(9 boxes\) by round "
        r"2: at most 7 buildings then",
    ):
        end_state_from_json(data)
    completions[0]["round"] = 4
    end_state_from_json(data)


def test_more_crossed_cells_than_the_turns_and_coins_allow_are_refused() -> None:
    """12 rounds, 20 coins spent: 3 + 12 + 20 // 3 = 21 crossed cells at most (none of A's types full: one
    cell of each free). The shipped example crossed 17 with 4 spent (at most 16) until mended."""
    free_one_of_each = {min(_cells_of(t)) for t in BUILDING_TYPES}
    open_cells = [c for c in range(36) if c not in free_one_of_each]
    end_state_from_json(_five_players(_grid(set(open_cells[:21])), 20, 20, []))
    with pytest.raises(
        EndStateError,
        match=r"^players\[0\].grid: A has 22 crossed cells, but crosses at most 21 in 12 rounds: 3 at "
        r'set-up, 1 a turn, and 1 more per "two buildings" \(3 coins\): 20 spent$',
    ):
        end_state_from_json(_five_players(_grid(set(open_cells[:22])), 20, 20, []))


def _eager_decision(game: Game, rng: random.Random) -> Event:
    """Crosses whenever it can, a second building too: the games nearest the bounds."""
    who, name = game.active, game.names[game.active]
    if game.ask is Ask.REROLL_USED_PAIR and game.expectation().can_cross_second:
        return CrossBuilding(name, game.yellow[who][0], game.blue[who][0])
    if game.ask is Ask.ACTION:
        free = [e for e in game.legal_actions() if isinstance(e, CrossBuilding)]
        if free:
            return rng.choice(free)
    return random_decision(game, rng)


def _eager_game(seed: int, setup_index: int) -> Game:
    rng = random.Random(seed)
    game = Game(SETUPS[setup_index])
    while not game.is_over:
        game.apply(_eager_decision(game, rng) if rng.random() < 0.8 else random_decision(game, rng))
    return game


def test_every_finished_game_is_accepted_as_an_end_state() -> None:
    """Random games and eager ones on every set-up (both sheets, every variant): none is refused."""
    for seed in range(40):
        for i, setup in enumerate(SETUPS):
            for game in (play_random_game(setup, random.Random(seed))[0], _eager_game(seed, i)):
                end = end_state_of(game.state)
                assert end_state_from_json(rw_json(end)).players == end.players


def test_a_game_at_the_bound_is_accepted() -> None:
    """Solo, 5 seraglio cells in row 1: 3 at set-up, then round 1's building and "two buildings" fill them."""
    sheet = sheet_from_json(
        {
            "name": "five-seraglio",
            "grid": ["SSSSSP", "AAAAAA", "CCCCCC", "GGGGGG", "TTTTTT", "PPPPTG"],
            "coins": 9,
        }
    )
    game = Game(GameStarted(sheet, ("Barbara",), ("Marc", "Nora")))
    run_setup(game, {"Barbara": [(1, 1), (1, 2), (1, 3)]}, fields={"Barbara": (1, 4)}, extra=(1, 5))
    game.apply(CrossBuilding("Barbara", 1, 4))
    game.apply(CrossBuilding("Barbara", 1, 5))
    play_out(game, random.Random(3))
    end = end_state_of(game.state)
    assert Completion("seraglio", 1, ("Barbara",)) in end.completions
    assert end_state_from_json(rw_json(end)).completions == end.completions
