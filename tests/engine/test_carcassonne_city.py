"""City scoring of the Carcassonne dice game on generated layouts, checked against a plain statement of the
rules written here: cities are areas linked black edge to black edge; only the largest completed scores."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games import carcassonne_dice as cd
from companion.games.carcassonne_dice import E, N, S, W, score_layout, survey
from companion.games.carcassonne_dice.city import Areas, Pos, parse_area
from companion.games.carcassonne_dice.report import city_text
from companion.games.carcassonne_dice.scorefile import score_turn
from companion.scorefiles import GAMES

EXAMPLES = Path(__file__).parents[2] / "companion" / "games" / "carcassonne_dice" / "examples"
COMPANION = Path(sys.executable).parent / "companion"
TABLE = {3: 1, 4: 3, 5: 6, 6: 10, 7: 15, 8: 21, 9: 28}
"""The rules page's points, written out again here so that the shipped table is checked too."""
ACROSS = {N: ((-1, 0), S), E: ((0, 1), W), S: ((1, 0), N), W: ((0, -1), E)}


@st.composite
def faces(draw: st.DrawFn) -> Areas:
    """A city face: some edges black, split into 1–4 separate areas."""
    edges = draw(st.lists(st.sampled_from([N, E, S, W]), min_size=1, max_size=4, unique=True))
    groups = draw(st.lists(st.integers(0, 3), min_size=len(edges), max_size=len(edges)))
    areas: dict[int, int] = {}
    for edge, group in zip(edges, groups, strict=True):
        areas[group] = areas.get(group, 0) | edge
    return tuple(areas.values())


layouts = st.dictionaries(st.tuples(st.integers(0, 3), st.integers(0, 3)), faces(), max_size=9)


def plain_cities(layout: dict[Pos, Areas]) -> list[tuple[frozenset[Pos], bool]]:
    """Each city's dice and whether it is completed, found by walking from area to area."""

    def meets(at: Pos, edge: int) -> tuple[Pos, int] | None:
        (dr, dc), back = ACROSS[edge]
        there = (at[0] + dr, at[1] + dc)
        for i, area in enumerate(layout.get(there, ())):
            if area & back:
                return there, i
        return None

    seen: set[tuple[Pos, int]] = set()
    out = []
    for at, areas in layout.items():
        for i in range(len(areas)):
            if (at, i) in seen:
                continue
            city, todo, closed = set(), [(at, i)], True
            while todo:
                node = todo.pop()
                if node in city:
                    continue
                city.add(node)
                for edge in (N, E, S, W):
                    if layout[node[0]][node[1]] & edge:
                        other = meets(node[0], edge)
                        closed = closed and other is not None
                        if other is not None:
                            todo.append(other)
            seen |= city
            out.append((frozenset(p for p, _ in city), closed))
    return out


@settings(max_examples=400, deadline=None)
@given(layouts, st.booleans())
def test_cities_and_points_agree_with_the_plain_rules(layout: dict[Pos, Areas], knight: bool) -> None:
    expected = plain_cities(layout)
    found = survey(layout)
    assert sorted((c.dice, c.completed) for c in found.cities) == sorted(
        (tuple(sorted(dice)), done) for dice, done in expected
    )
    largest = max((len(d) for d, ok in expected if ok), default=0)
    scored = score_layout(layout, knight)
    assert scored.city_points == TABLE.get(largest, 0)
    assert scored.points == scored.city_points * (2 if knight else 1)
    sizes = [c.size for c in found.cities]
    assert sizes == sorted(sizes, reverse=True)


@settings(max_examples=300, deadline=None)
@given(layouts)
def test_every_black_edge_is_joined_open_or_a_rule_break_with_where(layout: dict[Pos, Areas]) -> None:
    found = survey(layout)
    opened = {(o.at, o.edge) for c in found.cities for o in c.open_edges}
    broken = {(b.at, b.edge) for b in found.rule_breaks}
    for at, areas in layout.items():
        for edge in (N, E, S, W):
            if not any(a & edge for a in areas):
                continue
            (dr, dc), back = ACROSS[edge]
            there = layout.get((at[0] + dr, at[1] + dc))
            if there is None:
                assert (at, edge) in opened and (at, edge) not in broken
            elif not any(a & back for a in there):
                assert (at, edge) in broken and (at, edge) not in opened
            else:
                assert (at, edge) not in opened | broken


def test_the_wikis_closed_two_dice_city_beside_an_open_six_dice_city_scores_nothing() -> None:
    data = json.loads((EXAMPLES / "wiki-example.json").read_text())
    layout = {tuple(d["at"]): d["areas"] for d in data["dice"] if d["kind"] == "city"}
    assert len(layout) == 8
    run = subprocess.run(
        [COMPANION, "score", str(EXAMPLES / "wiki-example.json"), "--json"], capture_output=True, text=True
    )
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    assert (out["largest_completed_city"], out["points"]) == (2, 0)
    assert [(c["size"], c["completed"]) for c in out["cities"]] == [(6, False), (2, True)]
    assert out["cities"][0]["open_edges"] == ["die at row 0, col 2: the west edge is open"]
    assert out["rule_breaks"] == []


@settings(max_examples=200, deadline=None)
@given(layouts.filter(bool))
def test_the_game_builds_a_layout_exactly_when_the_scorer_names_no_rule_broken(
    layout: dict[Pos, Areas],
) -> None:
    found = survey(layout)
    rolled = cd.apply(
        cd.start(cd.GameStarted(("Ann", "Ben"))), cd.Rolled("Ann", len(layout), 0, 9 - len(layout))
    )
    kept = cd.Kept("Ann", 0, tuple(cd.Built(at, areas) for at, areas in layout.items()))
    try:
        cd.apply(rolled, kept)
    except cd.IllegalMove:
        assert found.rule_breaks or found.apart
    else:
        assert not found.rule_breaks and not found.apart


def test_the_wiki_example_is_a_city_the_game_lets_a_player_build_and_scores_alike() -> None:
    """The example laid its two cities apart (column 1 empty): scored 0, yet the game refused to build it
    ("it touches no die of the city"). Built as the app's build line does, it scores what the file does."""
    data = json.loads((EXAMPLES / "wiki-example.json").read_text())
    built = tuple(
        cd.Built(tuple(d["at"]), tuple(parse_area(a) for a in d["areas"]))
        for d in data["dice"]
        if d["kind"] == "city"
    )
    knights = sum(d["kind"] == "knight" for d in data["dice"])
    state = cd.start(cd.GameStarted(("Ann", "Ben")))
    for event in (
        cd.Rolled("Ann", len(built), knights, 9 - len(built) - knights),
        cd.Kept("Ann", knights, built),
        cd.TurnEnded("Ann"),
    ):
        state = cd.apply(state, event)
    scored = score_turn(data)
    (turn,) = state.turns
    assert (turn.city, turn.points, turn.why) == (2, 0, "largest completed city: 2 dice = 0 points")
    assert (turn.city, turn.points, turn.why) == (
        len(scored.largest.dice) if scored.largest else 0,
        scored.points,
        scored.why,
    )


def test_separate_areas_on_one_die_stay_separate_cities() -> None:
    # Two caps on one die, each closed by its own neighbour: two 2-dice cities, not one of 3.
    found = survey({(1, 1): (N, S), (0, 1): (S,), (2, 1): (N,)})
    assert [(c.dice, c.completed) for c in found.cities] == [
        (((0, 1), (1, 1)), True),
        (((1, 1), (2, 1)), True),
    ]
    # Joined round the other side by more dice, they are one city, the die counted once.
    ring = {(0, 0): (E | S,), (0, 1): (W, E), (0, 2): (W | S,), (1, 0): (N | S,), (1, 2): (N | S,)}
    ring |= {(2, 0): (N | E,), (2, 1): (W | E,), (2, 2): (W | N,)}
    found = survey(ring)
    assert [c.size for c in found.cities] == [8] and found.cities[0].completed
    assert score_layout(ring, doubled=False).points == 21


def test_a_black_edge_against_a_white_one_is_reported_with_where() -> None:
    found = survey({(2, 3): (E,), (2, 4): (N,)})
    assert [b.text for b in found.rule_breaks] == [
        "die at row 2, col 3: its black east edge touches the white west edge of the die at row 2, col 4"
    ]
    assert not any(c.completed for c in found.cities)


def test_a_turn_file_with_dice_apart_names_the_rule_broken_and_scores_as_laid() -> None:
    """The game refuses a die that touches no die of the city; the turn file scored it without a word (the
    old wiki example, its two cities a column apart, was one). Now it is named, as black against white is."""
    line = [{"at": [r, 0], "kind": "city", "areas": [mask]} for r, mask in enumerate(("S", "NS", "N"))]
    lone = {"at": [5, 5], "kind": "city", "areas": ["N"]}
    turn = {"game": "carcassonne-dice", "knight": False, "dice": [*line, lone]}
    scored = score_turn(turn)
    why = "die at row 5, col 5: it touches none of the other 3 dice (dice lie side by side, in one group)"
    assert scored.to_json()["rule_breaks"] == [why] and scored.points == 1
    assert f"Rule broken: {why}" in city_text(scored).splitlines()
    # Two dice apart from six: the smaller group is named by its top-left die.
    pair = {(0, 0): (S,), (1, 0): (N,)}
    six = {(0, 2): (E | W,), (0, 3): (E | W,), (0, 4): (E | W,), (0, 5): (S | W,), (1, 5): (N | S,)}
    assert [a.text for a in survey(pair | six | {(2, 5): (N,)}).apart] == [
        "die at row 0, col 0: its group of 2 dice touches none of the other 6 dice "
        "(dice lie side by side, in one group)"
    ]


def test_the_score_command_scores_the_shipped_examples_and_refuses_a_bad_file_in_one_line(
    tmp_path: Path,
) -> None:
    run = subprocess.run(
        [COMPANION, "score", str(EXAMPLES / "completed-city.json"), "--json"], capture_output=True, text=True
    )
    out = json.loads(run.stdout)
    assert (out["largest_completed_city"], out["city_points"], out["points"]) == (4, 3, 6)
    assert out["largest_completed_city_at"] == [[0, 0], [0, 1], [1, 0], [1, 1]]
    run = subprocess.run(
        [COMPANION, "score", str(EXAMPLES / "example-game.jsonl"), "--json"], capture_output=True, text=True
    )
    game = json.loads(run.stdout)
    # `winners` as every other game's scoring has it (it said `winner` alone).
    assert game["finished"] and game["winner"] == "Barbara" and game["winners"] == ["Barbara"]
    assert [p["total"] for p in game["players"]] == [
        sum(t["points"] for t in p["turns"]) for p in game["players"]
    ]
    bad = tmp_path / "bad.json"
    for text, message in (
        (
            '{"game": "carcassonne-dice", "knight": false, '
            '"dice": [{"at": [0, 0], "kind": "city", "areas": ["NX"]}]}',
            "dice[0].areas[0]: 'X' is not an edge",
        ),
        ('{"game": "carcassonne-dice", "knight": false, "dice": [], "extra": 1}', "unknown field 'extra'"),
        ('{"game": "chess"}', f"unknown game 'chess' (known: {', '.join(GAMES)})"),
    ):
        bad.write_text(text)
        run = subprocess.run([COMPANION, "score", str(bad), "--json"], capture_output=True, text=True)
        assert run.returncode == 2 and run.stdout == ""
        assert run.stderr.count("\n") == 1 and str(bad) in run.stderr and message in run.stderr, run.stderr


def test_the_points_table_loads_the_rules_pages_points_and_names_a_bad_field() -> None:
    import pytest

    from companion.games.carcassonne_dice.scoring import PointsTableError, load_points

    points: dict[str, object] = {str(k): v for k, v in TABLE.items()}
    good: dict[str, object] = {"about": "x", "points": points}
    assert load_points(json.dumps(good)) == (0, 0, 0, 1, 3, 6, 10, 15, 21, 28)
    bad: list[tuple[object, str]] = [
        ([1, 2], "points.json: must be an object with points"),
        ({**good, "extra": 1}, "points.json: unknown field 'extra'"),
        ({"points": [1, 3]}, "points.json: points: must map dice 3–9 to points"),
        ({"points": {**points, "10": 36}}, "points.json: points: unknown field '10'"),
        ({"points": {**points, "5": 2}}, r"points.json: points.5: must be a whole number 3–99"),
        ({"points": {**points, "9": True}}, r"points.json: points.9: must be a whole number 21–99"),
        ({"points": {**points, "9": 100}}, r"points.json: points.9: must be a whole number 21–99"),
        ({"points": {k: v for k, v in points.items() if k != "7"}}, r"points.json: points.7: "),
    ]
    for data, says in bad:
        with pytest.raises(PointsTableError, match=says):
            load_points(json.dumps(data))


def test_a_turns_reason_says_the_doubling_and_why_nothing_scored() -> None:
    """Rules page: points doubled if the player started the turn with a knight; no completed city: 0."""
    from companion.games.carcassonne_dice.scoring import turn_points

    assert turn_points(6, True, True) == (
        20,
        "largest completed city: 6 dice = 10 points, doubled (a knight held from the last turn) = 20",
    )
    assert turn_points(3, False, True) == (1, "largest completed city: 3 dice = 1 point")
    assert turn_points(0, True, True) == (
        0,
        "no completed city: 0 points, doubled (a knight held from the last turn) = 0",
    )
    assert turn_points(0, False, False) == (0, "no city built: 0 points")
