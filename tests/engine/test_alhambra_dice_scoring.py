"""Scorings A, B and C of Alhambra – the dice game: places per scoring, stack order on ties (the rulebook's
example of scoring B), VP tiles at every scoring, the VP table as data, and `companion score` on the shipped
end state and game logs and on bad files (one line naming the field, exit 2)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from ad_helpers import ROUND, dice, fill, settle, turn

from companion.games.alhambra.buildings import TYPES
from companion.games.alhambra_dice import (
    VP_TABLE,
    Game,
    GameStarted,
    Standing,
    score_log,
    score_standings,
)
from companion.games.alhambra_dice.components import ComponentsError, load_bonus_tiles
from companion.games.alhambra_dice.events import LOG_FORMAT
from companion.games.alhambra_dice.report import game_text
from companion.games.alhambra_dice.scorefile import ScoreFileError, end_state
from companion.games.alhambra_dice.scoring import score_type
from companion.games.eventlog import load_log

EXAMPLES = Path(__file__).parents[2] / "companion" / "games" / "alhambra_dice" / "examples"
END_STATE = EXAMPLES / "end-state.json"
COMPANION = str(Path(sys.executable).parent / "companion")
NO_TRACKS: tuple[tuple[tuple[str, int], ...], ...] = ((),) * 6


def score(path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([COMPANION, "score", str(path), *args], capture_output=True, text=True, timeout=60)


def test_the_vp_table_is_the_rules_pages() -> None:
    assert tuple(((a,), (a + 7, a), (a + 15, a + 7, a)) for a in range(1, 7)) == VP_TABLE


def test_the_rulebooks_scoring_b_example_the_lower_stone_takes_second_place() -> None:
    """Blue has the most pavilion points (5): 8 VP. Orange and Green have 3 each; Orange's stone lies under
    Green's, so Orange takes the 1 VP of the 2nd place."""
    places = score_type(0, (("Blue", 5), ("Orange", 3), ("Green", 3)), 1)
    assert [(p.place, p.vp) for p in places.values()] == [(1, 8), (2, 1), (3, 0)]
    assert places["Orange"].why == "3 building points, tied with Green, lower in the stack: 2nd place = 1 VP"
    assert places["Green"].why == (
        "3 building points, tied with Orange, higher in the stack: 3rd place "
        "(scoring B pays 1st and 2nd) = 0 VP"
    )


def test_the_stone_that_reached_a_field_first_lies_lowest_and_wins_the_tie() -> None:
    """Played: Ben reaches 2 pavilion points in round 1, Ann in round 2; Ann's stone lies on top, Ben wins."""
    game = Game(GameStarted(("Ann", "Ben", "Cleo")))
    game.apply(ROUND)
    turn(game, "garden", dice(garden=8))
    turn(game, "pavilion", dice(pavilion=8))
    fill(game, "tower")
    settle(game, start="Ann")
    game.apply(ROUND)
    turn(game, "pavilion", dice(pavilion=8))
    fill(game, "tower")
    settle(game, start="Ann")
    assert game.state.stacks[0][2] == (1, 0)
    game.apply(ROUND.__class__(("vp", "vp", "cancel", "black_die", "vp", "start_player")))
    fill(game, "tower")
    settle(game, start="Ann")
    pavilion = score_log(list(game.log)).scorings[1]
    assert [p.buildings[0].place for p in pavilion] == [2, 1, 0]


@pytest.mark.parametrize(("scoring", "paid"), [(0, 1), (1, 2), (2, 3)])
def test_scoring_a_pays_the_1st_place_b_the_2nd_too_c_the_3rd_too(scoring: int, paid: int) -> None:
    stones = (("Ann", 9), ("Ben", 7), ("Cleo", 4), ("Dan", 1))
    for t in range(6):
        vp = [p.vp for p in score_type(t, stones, scoring).values()]
        assert vp == [*VP_TABLE[t][scoring], 0, 0, 0][:4] and sum(1 for v in vp if v) == paid


def test_vp_tiles_count_at_every_scoring_and_dirk_cannot_win() -> None:
    standing = Standing(("Ann", "Ben", "Dirk"), (False, False, True), NO_TRACKS, ((1,), (), (3, 3)))
    board = score_standings(standing.names, standing.dirk, [standing] * 3)
    assert board.totals == (3, 0, 18) and board.winners == ("Ann",)
    shown = board.scorings[2][2]
    assert (shown.tiles, shown.tiles_vp) == ((3, 3), 6)


def test_equal_totals_share_the_win() -> None:
    """[interpretation] The rulebook names no tie-break for the most VP."""
    standing = Standing(("Ann", "Ben", "Cleo"), (False,) * 3, NO_TRACKS, ((2,), (2,), (1,)))
    assert score_standings(standing.names, standing.dirk, [standing] * 3).winners == ("Ann", "Ben")


def test_the_shipped_end_state_is_scored_with_every_reason() -> None:
    result = score(END_STATE, "--json")
    assert result.returncode == 0, result.stderr
    board = json.loads(result.stdout)
    assert board["game"] == "alhambra-dice" and board["finished"]
    assert board["totals"] == {"Blue": 110, "Orange": 100, "Green": 108} and board["winners"] == ["Blue"]
    blue = board["players"][0]
    assert [s["scoring"] for s in blue["scorings"]] == ["A", "B", "C"]
    assert blue["scorings"][1]["buildings"]["pavilion"] == {
        "points": 5,
        "place": 1,
        "vp": 8,
        "why": "5 building points: 1st place = 8 VP",
    }
    assert blue["scorings"][2]["vp_tiles"] == {"values": [3, 1], "vp": 4}
    assert all(sum(s["vp"] for s in p["scorings"]) == p["total"] for p in board["players"])
    text = score(END_STATE).stdout
    assert "Totals: Blue 110, Orange 100, Green 108. Winner: Blue" in text
    assert (
        "    pavilion    1  3 building points, tied with Green, lower in the stack: 2nd place = 1 VP" in text
    )


@pytest.mark.parametrize("name", ["example-game.jsonl", "two-players-and-dirk.jsonl"])
def test_the_shipped_logs_score_as_their_fold(name: str) -> None:
    path = EXAMPLES / name
    result = score(path, "--json")
    assert result.returncode == 0, result.stderr
    board = json.loads(result.stdout)
    assert board == score_log(list(load_log(path, LOG_FORMAT).events)).to_json()
    assert board["finished"] and len(board["stacks"]) == 3
    if "dirk" in name:
        assert board["players"][2] == board["players"][2] | {"name": "Dirk", "dirk": True}
        assert "Dirk" not in board["winners"]


def test_a_log_in_progress_is_not_scored_as_a_whole_game(tmp_path: Path) -> None:
    lines = (EXAMPLES / "example-game.jsonl").read_text().splitlines()
    part = tmp_path / "playing.jsonl"
    part.write_text("\n".join(lines[:200]) + "\n")
    result = score(part)
    assert result.returncode == 2 and result.stderr == (
        f"companion score: {part}: the game is not over: round 3 of 5\n"
    ), result.stderr
    board = score_log(list(load_log(part, LOG_FORMAT).events))
    assert not board.finished and [len(s) for s in board.scorings] == [3]
    assert game_text(board).startswith("Alhambra dice game: in progress, round 3 (scorings: A)")


def tower(end_state: Any) -> Any:
    return end_state["scorings"][0]["buildings"]["tower"]


def _end_state() -> Any:
    return json.loads(END_STATE.read_text())


@pytest.mark.parametrize(
    ("change", "says"),
    [
        (lambda d: d["scorings"][0].update(vp_tile={}), "scorings[0]: unknown field 'vp_tile'"),
        (lambda d: d["scorings"][0]["buildings"].update(palace=[]), "unknown field 'palace'"),
        (
            lambda d: d["scorings"][0]["buildings"].pop("garden"),
            "buildings: missing garden",
        ),
        (lambda d: d["scorings"][1]["vp_tiles"].pop("Blue"), "vp_tiles: missing Blue ([] for no VP tile)"),
        (
            lambda d: d["scorings"].insert(0, d["scorings"].pop()),
            "scorings[0].scoring: must be 'A' (A, B, C in turn)",
        ),
        (
            lambda d: tower(d).append(["Zoe", 1]),
            "'Zoe' is not one of the players",
        ),
        (
            lambda d: tower(d)[0].__setitem__(1, 13),
            "building points must be a whole number 0-12",
        ),
        (lambda d: tower(d).insert(0, ["Green", 0]), "list the stones best first"),
        (
            lambda d: tower(d).append(["Orange", 1]),
            "one stone per building type",
        ),
        (lambda d: d["scorings"][1]["vp_tiles"].update(Blue=[4]), "each 1, 2 or 3"),
        (lambda d: d["scorings"][2]["vp_tiles"].update(Blue=[3]), "VP tiles are kept to the end"),
        (
            lambda d: d["scorings"][2]["buildings"]["pavilion"][2].__setitem__(1, 2),
            "pavilion: Green had 3 building points, they never go down",
        ),
        (lambda d: d["scorings"].append(d["scorings"][2]), "must list the game's 3 scorings, A, B and C"),
        (lambda d: d["players"].append({"name": "Dirk", "dirk": True}), "Dirk plays only in a 2-player game"),
        (lambda d: d["players"][1].update(name="Blue"), "a name of their own"),
        (lambda d: d.update(game="alhambra"), "unknown field 'scorings'"),
    ],
)
def test_a_bad_end_state_is_one_line_naming_the_field(tmp_path: Path, change: Any, says: str) -> None:
    data = _end_state()
    change(data)
    bad = tmp_path / "end.json"
    bad.write_text(json.dumps(data))
    result = score(bad)
    assert result.returncode == 2 and says in result.stderr, result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and str(bad) in result.stderr


def _refused(data: Any, says: str) -> None:
    with pytest.raises(ScoreFileError, match=says):
        end_state(data)


def _seat(data: Any, player: dict[str, Any], instead: str | None = None) -> None:
    """`player` joins the end state (no stone, no VP tile), or takes the place of `instead`."""
    if instead is None:
        data["players"].append(player)
    else:
        data["players"] = [player if p["name"] == instead else p for p in data["players"]]
    for scoring in data["scorings"]:
        for stones in scoring["buildings"].values():
            stones[:] = [[player["name"] if n == instead else n, v] for n, v in stones]
            if instead is None:
                stones.append([player["name"], 0])
        scoring["vp_tiles"][player["name"]] = scoring["vp_tiles"].pop(instead) if instead else []


def test_an_end_state_of_more_than_6_real_players_is_refused() -> None:
    """Seed 002: "2 - 6 spelers vanaf 8 jaar": 7 real players cannot play (a 7th entry is only Dirk's)."""
    data = _end_state()
    for name in ("Dan", "Eva", "Finn"):
        _seat(data, {"name": name})
    assert len(end_state(data).names) == 6
    _seat(data, {"name": "Gus"})
    _refused(data, "players: the game is for 2-6 real players, got 7")


def test_an_end_state_of_2_players_without_dirk_is_refused() -> None:
    """Seed 002: "In het spel voor 2 spelers speelt, zoals ook in het basisspel 'Der Palast von Alhambra', een
    derde denkbeeldige speler mee, die we ook nu Dirk zullen noemen." """
    data = _end_state()
    _seat(data, {"name": "Dirk", "dirk": True}, instead="Green")
    assert end_state(data).dirk == (False, False, True)
    data["players"].pop()
    for scoring in data["scorings"]:
        for stones in scoring["buildings"].values():
            stones[:] = [stone for stone in stones if stone[0] != "Dirk"]
        del scoring["vp_tiles"]["Dirk"]
    _refused(
        data, 'a 2-player game has the imaginary Dirk as third player: add {"name": "Dirk", "dirk": true}'
    )


def test_more_building_points_than_the_rounds_can_give_are_refused() -> None:
    """Seed 002: "De speler met het beste resultaat in een categorie mag zich één van de beide volgende
    premies uitzoeken: 2 gebouwenpunten van de desbetreffende categorie; 1 gebouwenpunt en de bonusfiche van
    deze kolom." and "Het beste en het tweede beste resultaat kan ook door dezelfde speler worden behaald." A
    round gives a player at most 3 of a type, and each of the 2 exchange tiles one more: 5 at scoring A,
    11 at B."""
    data = _end_state()
    pavilion = [data["scorings"][k]["buildings"]["pavilion"] for k in range(3)]
    pavilion[0][1][1] = 0  # Orange's: one round's 5 in all are Blue's
    pavilion[0][0][1] = 5
    assert end_state(data).scorings[0][0].buildings[0].points == 5
    pavilion[0][0][1] = 12
    pavilion[1][0][1] = 12
    _refused(data, r"scorings\[0\].buildings.pavilion\[0\]: Blue cannot hold 12 building points .* at most 5")
    pavilion[0][0][1] = 5
    _refused(data, r"scorings\[1\].buildings.pavilion\[0\]: Blue cannot hold 12 .* at most 11")


def test_dirk_holds_no_more_than_his_markers_can_take() -> None:
    """Rules page (2 players: imaginary "Dirk"): one marker a column each round, and "As best result Dirk
    always takes 2 building points": 2 of a type at scoring A, 6 at B, 10 at C. An end state giving him 3
    at A was scored, and his points took a real player's place."""
    data = _end_state()
    _seat(data, {"name": "Dirk", "dirk": True}, instead="Green")
    for scoring in data["scorings"]:
        for stones in scoring["buildings"].values():
            stones[:] = [*(s for s in stones if s[0] != "Dirk"), ["Dirk", 0]]
        scoring["buildings"]["tower"] = [["Dirk", 0], ["Blue", 0], ["Orange", 0]]
    for k, most in enumerate((2, 6, 10)):
        for scoring in data["scorings"][k:]:
            scoring["buildings"]["tower"][0][1] = most
        assert end_state(data).dirk == (False, False, True)
        tower = data["scorings"][k]["buildings"]["tower"]
        tower[0][1] = most + 1
        _refused(data, rf"scorings\[{k}\].buildings.tower\[0\]: Dirk cannot hold {most + 1} .* most {most}")
        tower[0][1] = most


def test_more_vp_tiles_than_the_rounds_laid_out_are_refused() -> None:
    """Seed 002: "Daarna worden de 5 bonusfiches van een stapel van links naar rechts over de resterende
    bonusvelden verdeeld.": by scoring A (after round 1) only 5 bonus tiles were laid out."""
    data = _end_state()
    data["scorings"][0]["vp_tiles"].update(Blue=[1, 1, 1], Orange=[2, 1])
    for later in data["scorings"][1:]:
        later["vp_tiles"].update(Blue=[1, 1, 1, 3], Orange=[2, 1, 3])
    assert end_state(data).scorings[0][0].tiles == (1, 1, 1)
    data["scorings"][0]["vp_tiles"]["Green"] = [1]
    _refused(data, r"scorings\[0\].vp_tiles: 6 VP tiles in all, at most 5 can be taken by this scoring")


def test_stones_that_stayed_on_a_field_keep_their_stack_order_below_the_later_ones() -> None:
    """Seed 002: "Als er later in het spel een steen uit zo een toren moet worden verplaatst, moet men er zeer
    goed op letten dat de volgorde van de gebouwenstenen in die toren niet wordt gewijzigd." and a stone that
    lands on a taken field "wordt er gewoon bovenop gezet"."""
    data = _end_state()
    chambers = data["scorings"][1]["buildings"]
    chambers["chambers"] = [["Blue", 1], ["Green", 1], ["Orange", 1]]  # both stayed on 1; Orange came later
    assert [p.buildings[3].place for p in end_state(data).scorings[1]] == [1, 3, 2]
    chambers["chambers"] = [["Green", 1], ["Blue", 1], ["Orange", 1]]
    _refused(
        data, r"scorings\[1\].buildings.chambers: on field 1 the stones that stayed there .* \(Blue, Green\)"
    )
    chambers["chambers"] = [["Blue", 1], ["Orange", 1], ["Green", 1]]
    _refused(data, "stones reaching it later lie on top; got Blue, Orange, Green")


@pytest.mark.parametrize(
    ("line", "says"),
    [
        ('{"event":"rolled","player":"Ann","dice":{"garden":9}}', "line 3: not a valid event (dice.garden"),
        ('{"event":"rolled","player":"Ann","dice":{"garden":3}}', "event 3: a roll shows all 8 white dice"),
        (
            '{"event":"marker_placed","player":"Ben","building":"garden"}',
            "event 3: it is Ann's turn, not Ben's",
        ),
        ('{"event":"rolled","player":"Ann","dice":{"gardn":8}}', "unknown field 'gardn'"),
        ('{"event":"jumped","player":"Ann"}', "event: unknown kind 'jumped'"),
    ],
)
def test_a_bad_game_log_is_one_line_naming_the_line(tmp_path: Path, line: str, says: str) -> None:
    first = (EXAMPLES / "example-game.jsonl").read_text().splitlines()[:2]
    bad = tmp_path / "game.jsonl"
    bad.write_text("\n".join([*first, line]) + "\n")
    result = score(bad)
    assert result.returncode == 2 and says in result.stderr, result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ('{"tiles": {"vp": 16}, "dark": 6, "pile": 5}', "tiles.exchange: must be a whole number 0–30"),
        (
            '{"tiles": {"vp": 16, "exchange": 2, "displace": 2, "cancel": 3, "black_die": 3}, "dark": 7}',
            "dark: must be a whole number 6–6",
        ),
        ('{"tiles": {"vp": 16, "wish": 1}}', "unknown field 'wish'"),
        (
            '{"tiles": {"vp": 15, "exchange": 2, "displace": 2, "cancel": 3, "black_die": 3}, '
            '"dark": 6, "pile": 5}',
            r"^bonus_tiles\.json: tiles: 25 tiles in all, the game has 26 "
            r"\(a pile of 5 for each of rounds 1–4 and 6 dark-backed tiles\)",
        ),
        (
            '{"tiles": {"vp": 16, "exchange": 3, "displace": 2, "cancel": 3, "black_die": 3}, '
            '"dark": 6, "pile": 5}',
            "27 tiles in all, the game has 26",
        ),
    ],
)
def test_the_bonus_tiles_file_is_checked_naming_the_field(text: str, says: str) -> None:
    with pytest.raises(ComponentsError, match=says):
        load_bonus_tiles(text, "bonus_tiles.json")


def test_types_are_the_boards_columns() -> None:
    assert TYPES == ("pavilion", "seraglio", "arcades", "chambers", "garden", "tower")


def test_a_game_in_progress_has_no_winners_yet_and_its_json_says_so() -> None:
    standing = Standing(("Ann", "Ben", "Cleo"), (False,) * 3, NO_TRACKS, ((2,), (), ()))
    board = score_standings(standing.names, standing.dirk, [standing], round_=2)
    assert not board.finished and board.winners == ()
    assert board.to_json()["winners"] == [] and board.to_json()["totals"] == {"Ann": 2, "Ben": 0, "Cleo": 0}


def test_a_player_without_a_stone_shows_0_building_points_and_no_place() -> None:
    tracks = ((("Ann", 3),), (), (), (), (), ())
    standing = Standing(("Ann", "Ben"), (False, False), tracks, ((), ()))
    ben = score_standings(standing.names, standing.dirk, [standing]).scorings[0][1]
    assert [(b.points, b.place, b.vp) for b in ben.buildings] == [(0, 0, 0)] * 6
    assert ben.to_json("A")["buildings"]["pavilion"] == {
        "points": 0,
        "place": 0,
        "vp": 0,
        "why": "no building points: no place",
    }
