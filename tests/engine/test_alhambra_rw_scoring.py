"""Final scoring: every worked example of the rules page, plus variants, winners and end-state validation."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest
from rw_helpers import EXAMPLE, boxes_of

from companion.games import alhambra_rw as rw
from companion.games.alhambra_rw.endstate import EndStateError, end_state_from_json
from companion.games.alhambra_rw.report import scoreboard_text
from companion.games.alhambra_rw.scoring import (
    Completion,
    EndState,
    PlayerRecord,
    Scoreboard,
    score,
    score_coins,
    score_rows_columns,
)
from companion.games.alhambra_rw.sheet import BUILDING_TYPES
from companion.games.alhambra_rw.simulate import play_random_game


def counts(**by_type: int) -> tuple[int, ...]:
    return tuple(by_type.get(t, 0) for t in BUILDING_TYPES)


def board_for(
    players: list[tuple[str, dict[str, int]]],
    completions: tuple[Completion, ...] = (),
    imaginary: tuple[str, ...] = (),
    variant: str = "standard",
) -> Scoreboard:
    records = tuple(PlayerRecord(name, name in imaginary, counts(**c)) for name, c in players)
    return score(EndState(EXAMPLE, variant, records, completions))


def building(board: Scoreboard, name: str, type_: str) -> tuple[int | None, int]:
    player = next(p for p in board.players if p.name == name)
    b = next(b for b in player.buildings if b.building == type_)
    return b.place, b.vp


def test_arcades_tie_for_second_shares_second_and_third_place() -> None:
    """Rulebook: Patricia 1st = 18; Barbara and Dirk tie for 2nd: (10 + 3) / 2 = 6 each; Frank nothing."""
    board = board_for(
        [
            ("Barbara", {"arcades": 2}),
            ("Dirk", {"arcades": 2}),
            ("Patricia", {"arcades": 4}),
            ("Frank", {"arcades": 1}),
            ("Ani", {}),
        ]
    )
    assert building(board, "Patricia", "arcades") == (1, 18)
    assert building(board, "Barbara", "arcades") == (2, 6)
    assert building(board, "Dirk", "arcades") == (2, 6)
    assert building(board, "Frank", "arcades") == (None, 0)
    assert building(board, "Ani", "arcades") == (None, 0)
    why = next(b.why for b in board.players[0].buildings if b.building == "arcades")
    assert "tied with Dirk" in why and "(10 + 3) / 2 = 6" in why
    assert "only a player with" in next(b.why for b in board.players[4].buildings if b.building == "arcades")


def test_seraglio_completed_in_the_same_round_shares_first_and_second_place() -> None:
    """Rulebook: Patricia and Frank both complete seraglio in one round: (17 + 9) / 2 = 13 VP each."""
    full = boxes_of(EXAMPLE, "seraglio")
    board = board_for(
        [
            ("Barbara", {"seraglio": 1}),
            ("Dirk", {"seraglio": 2}),
            ("Patricia", {"seraglio": full}),
            ("Frank", {"seraglio": full}),
            ("Ani", {"seraglio": 2}),
        ],
        completions=(Completion("seraglio", 7, ("Patricia", "Frank")),),
    )
    assert building(board, "Patricia", "seraglio") == (1, 13)
    assert building(board, "Frank", "seraglio") == (1, 13)
    # The others take the places still open: only the 3rd, shared by Dirk and Ani: 2 / 2 = 1.
    assert building(board, "Dirk", "seraglio") == (3, 1)
    assert building(board, "Ani", "seraglio") == (3, 1)
    assert building(board, "Barbara", "seraglio") == (None, 0)
    why = next(b.why for b in board.players[2].buildings if b.building == "seraglio")
    assert "round 7 together with Frank" in why and "(17 + 9) / 2 = 13" in why


def test_tower_first_place_taken_during_the_game_leaves_second_and_third() -> None:
    """Rulebook: Ani took tower's 1st during the game, so Barbara gets 13 for 2nd and Dirk 6 for 3rd."""
    full = boxes_of(EXAMPLE, "tower")
    board = board_for(
        [
            ("Barbara", {"tower": 5}),
            ("Dirk", {"tower": 4}),
            ("Patricia", {"tower": 1}),
            ("Frank", {"tower": 3}),
            ("Ani", {"tower": full}),
        ],
        completions=(Completion("tower", 9, ("Ani",)),),
    )
    assert building(board, "Ani", "tower") == (1, 21)
    assert building(board, "Barbara", "tower") == (2, 13)
    assert building(board, "Dirk", "tower") == (3, 6)
    assert building(board, "Frank", "tower") == (None, 0)
    assert building(board, "Patricia", "tower") == (None, 0)
    why = next(b.why for b in board.players[0].buildings if b.building == "tower")
    assert "place 1 by Ani taken during the game" in why


def test_rows_and_columns_one_row_of_6_and_columns_of_5_and_4_give_17() -> None:
    """Rulebook: one row of 6 and two columns of 5 and 4: 10 + 5 + 2 = 17."""
    cells = [(2, b) for b in range(1, 7)] + [(y, 2) for y in (1, 3, 4, 5)] + [(y, 5) for y in (4, 5, 6)]
    crossed = sum(1 << ((y - 1) * 6 + b - 1) for y, b in cells)
    vp, why = score_rows_columns(crossed)
    assert vp == 17
    assert why == (
        "row yellow 2: 6 crossed = 10; column blue 2: 5 crossed = 5; column blue 5: 4 crossed = 2 (total 17)"
    )
    assert score_rows_columns(0) == (0, "no row or column with 4 or more crossed cells")


def test_coins_one_vp_per_two_left() -> None:
    """Rulebook: 3 coins left = 1 VP."""
    assert score_coins(9, 6) == (1, "3 coins left (9 circled, 6 spent): 1 VP")
    assert score_coins(3, 3)[0] == 0
    assert score_coins(20, 0)[0] == 10


def test_imaginary_players_rank_but_score_nothing_in_the_standard_game() -> None:
    board = board_for(
        [("Barbara", {"garden": 2}), ("Ani", {"garden": 1}), ("Marc", {"garden": 4})], imaginary=("Marc",)
    )
    assert building(board, "Marc", "garden") == (1, 0)  # takes 1st place, VP not written down
    assert building(board, "Barbara", "garden") == (2, 12)
    assert building(board, "Ani", "garden") == (3, 5)
    marc = board.players[2]
    assert marc.total == 0 and marc.extra == 0
    assert board.winners == ("Barbara",)


@pytest.mark.parametrize(("n_imaginary", "extra"), [(2, 21), (3, 18), (4, 15)])
def test_versus_imaginary_players_get_building_vp_and_extra_points(n_imaginary: int, extra: int) -> None:
    names = ["Marc", "Herman", "Filip", "Wim"][:n_imaginary]
    board = board_for(
        [("Barbara", {"garden": 2}), *((n, {"garden": 4 if n == "Marc" else 0}) for n in names)],
        imaginary=tuple(names),
        variant="versus-imaginary",
    )
    marc = board.players[1]
    assert building(board, "Marc", "garden") == (1, 20)
    assert marc.extra == extra and marc.total == 20 + extra
    assert board.winners == ("Marc",)
    assert "versus" not in marc.extra_why and f"{n_imaginary} imaginary players get {extra}" in marc.extra_why


def test_ties_share_the_win() -> None:
    board = board_for([("A", {"garden": 2}), ("B", {"garden": 2}), ("C", {})])
    assert board.winners == ("A", "B")
    assert board.players[0].total == board.players[1].total == (20 + 12) // 2


def test_later_completers_only_get_places_still_open_and_none_when_all_are_gone() -> None:
    full = boxes_of(EXAMPLE, "pavilion")
    board = board_for(
        [
            ("A", {"pavilion": full}),
            ("B", {"pavilion": full}),
            ("C", {"pavilion": full}),
            ("D", {"pavilion": full}),
        ],
        completions=(
            Completion("pavilion", 3, ("A", "B")),
            Completion("pavilion", 5, ("C", "D")),
        ),
    )
    assert building(board, "A", "pavilion") == (1, 12)
    assert building(board, "C", "pavilion") == (3, 0)  # place 3 (1 VP) shared by two: 1 // 2 = 0
    assert building(board, "D", "pavilion") == (3, 0)


# --------------------------------------------------------------------------------- end-state JSON
END_STATE: dict[str, Any] = {
    "game": "alhambra-roll-and-write",
    "sheet": "example",
    "variant": "standard",
    "players": [
        {"name": "Barbara", "grid": ["X.....", "XXXXXX", "......", "......", "......", "......"],
         "coins": {"circled": 9, "spent": 4}},
        {"name": "Ani", "grid": ["......", ".X....", ".X....", ".X....", ".X....", "......"],
         "coins": {"circled": 3, "spent": 0}},
        {"name": "Marc", "imaginary": True,
         "buildings": {"pavilion": 3, "seraglio": 4, "arcades": 3, "chambers": 2, "garden": 5, "tower": 4}},
    ],
    "completions": [],
}  # fmt: skip


def test_end_state_json_scores_grids_and_imaginary_counts() -> None:
    board = score(end_state_from_json(END_STATE))
    barbara = board.players[0]
    # Barbara's grid: yellow 1 × blue 1 (pavilion) and the whole row yellow 2: G T P S A C.
    assert [b.count for b in barbara.buildings] == [2, 1, 1, 1, 1, 1]
    assert barbara.rows_columns == 10 and barbara.coins == 2
    assert building(board, "Marc", "pavilion") == (1, 0)
    assert building(board, "Barbara", "pavilion") == (2, 8)


def broken(path: list[str | int], value: object) -> dict[str, Any]:
    data = copy.deepcopy(END_STATE)
    target: Any = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return data


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (["game"], "carcassonne", "game: must be 'alhambra-roll-and-write'"),
        (["sheet"], "printed", "no shipped sheet named 'printed'"),
        (
            ["sheet"],
            {"name": "x", "grid": ["PSACGT"] * 5, "coins": 20},
            "sheet.grid: must be a list of 6 rows",
        ),
        (["variant"], "coop", "variant: must be one of standard, versus-imaginary"),
        (["players", 0, "grid", 3], "..X", r"players\[0\].grid\[3\]: must be 6 characters of X"),
        (["players", 0, "coins", "circled"], 99, r"players\[0\].coins.circled: must be a whole number 3–20"),
        (["players", 0, "coins", "spent"], 10, r"players\[0\].coins.spent: must be a whole number 0–9"),
        (
            ["players", 2, "buildings", "garden"],
            8,
            r"players\[2\].buildings.garden: must be a whole number 0–7",
        ),
        (["players", 2, "buildings", "castle"], 1, r"players\[2\].buildings: unknown field .castle."),
        (["players", 1, "name"], "Barbara", "players: player names must differ"),
        (["completions"], [{"type": "tower", "round": 3, "players": ["Ani"]}], "Ani has 2 of 8 tower boxes"),
        (
            ["completions"],
            [{"type": "moat", "round": 3, "players": ["Ani"]}],
            r"completions\[0\].type: unknown",
        ),
        (
            ["completions"],
            [{"type": "tower", "round": 30, "players": ["Marc"]}],
            r"round: must be a round number 1–18, or 0 for set-up, got 30",
        ),
        (
            ["completions"],
            [{"type": "tower", "round": 0, "players": ["Marc"]}],
            r"completions\[0\].round: set-up crosses 3 buildings, so no one completes the 8 tower boxes",
        ),
        (
            ["players", 2, "buildings", "pavilion"],
            4,
            "Marc filled every pavilion box, so it must say in which round",
        ),
    ],
)
def test_a_bad_end_state_names_the_field(path: list[str | int], value: object, message: str) -> None:
    with pytest.raises(EndStateError, match=message):
        end_state_from_json(broken(path, value))


def test_completions_in_the_same_round_listed_separately_still_share() -> None:
    data = broken(["players", 2, "buildings", "pavilion"], 4)
    data["players"][2]["buildings"]["tower"] = 3  # an imaginary player's 3 + 18 buildings
    data["players"][0]["grid"] = ["X.....", "XXXXXX", "....X.", "......", "...X..", "......"]
    data["completions"] = [
        {"type": "pavilion", "round": 4, "players": ["Marc"]},
        {"type": "pavilion", "round": 4, "players": ["Barbara"]},
    ]
    board = score(end_state_from_json(data))
    assert building(board, "Barbara", "pavilion") == (1, (16 + 8) // 2)


def test_the_total_adds_buildings_rows_columns_and_coins() -> None:
    """Rules page, game end: each real player scores building types + rows and columns + coins."""
    row_2 = sum(1 << (6 + b) for b in range(6))  # the whole row yellow 2: 10 VP
    records = (
        PlayerRecord("A", False, counts(garden=2), crossed=row_2, circled=9, spent=4),  # 5 left: 2 VP
        PlayerRecord("B", False, counts(garden=1), circled=3),  # 3 left: 1 VP
    )
    board = score(EndState(EXAMPLE, "standard", records, ()))
    a, b = board.players
    assert (a.buildings_vp, a.rows_columns, a.coins) == (20, 10, 2)
    assert a.total == 20 + 10 + 2
    assert b.total == 12 + 0 + 1
    assert board.to_json()["players"][0]["total"] == 32
    assert board.winners == ("A",)


@pytest.mark.parametrize("line", range(1, 7))
def test_every_row_and_every_column_scores(line: int) -> None:
    """Rules page: "for each of the 6 rows and 6 columns: 4 crossed cells = 2 VP" (the last ones too)."""
    row = sum(1 << ((line - 1) * 6 + b - 1) for b in range(1, 5))
    column = sum(1 << ((y - 1) * 6 + line - 1) for y in range(1, 5))
    assert score_rows_columns(row) == (2, f"row yellow {line}: 4 crossed = 2")
    assert score_rows_columns(column) == (2, f"column blue {line}: 4 crossed = 2")


def test_a_type_without_buildings_counts_0_in_the_breakdown() -> None:
    board = board_for([("A", {"garden": 2}), ("B", {})])
    assert [b.count for b in board.players[1].buildings] == [0] * len(BUILDING_TYPES)
    assert board.to_json()["players"][1]["buildings"]["garden"]["count"] == 0


def test_the_reasons_name_places_taken_during_the_game_and_count_in_words() -> None:
    """The breakdown settles disputes: its words must say what was counted."""
    full = boxes_of(EXAMPLE, "pavilion")
    board = board_for(
        [
            ("A", {"pavilion": full}),
            ("B", {"pavilion": full}),
            ("C", {"pavilion": 2}),
            ("D", {"pavilion": 1}),
        ],
        completions=(Completion("pavilion", 3, ("A", "B")),),
    )
    whys = [p.buildings[0].why for p in board.players]
    assert whys[2] == "2 buildings: 3rd place = 1 VP (places 1 and 2 by A and B taken during the game)"
    assert whys[3] == "1 building: no place left, 0 VP (places 1 and 2 by A and B taken during the game)"
    assert score_coins(4, 3) == (0, "1 coin left (4 circled, 3 spent): 0 VP")
    assert score_coins(3, 3) == (0, "0 coins left (3 circled, 3 spent): 0 VP")
    assert score_coins(5, 3) == (1, "2 coins left (5 circled, 3 spent): 1 VP")


def test_a_scoring_so_far_names_no_winner_until_the_game_is_over() -> None:
    """An export in play named the player ahead "Winner", and the scorer's text would have said "Winner: "
    with nobody: a scoring so far names none."""
    setup = rw.GameStarted(rw.load_shipped_sheet("example"), ("Ann", "Ben", "Cleo"))
    events = play_random_game(setup, random.Random(2))[1]
    half = rw.score_so_far(rw.replay(events[: len(events) // 2]))
    assert half.winners == () and "no winner yet" in scoreboard_text(half).splitlines()
    end = rw.score_so_far(rw.replay(events))
    assert end.winners == rw.score_game(rw.replay(events)).winners != ()
