"""The original Alhambra's scorings: the rules page's example, generated end states with many ties checked
against a plain statement of the rule, walls found on tiles, and `companion score` on pads."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import datetime
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games import alhambra as al
from companion.games.alhambra import walls as walls_module
from companion.games.alhambra.buildings import BuildingTableError
from companion.games.alhambra.pad import new_pad, summary

BUILDINGS = al.load_buildings()
COMPANION = str(Path(sys.executable).parent / "companion")
EXAMPLE = Path(al.__file__).parent / "examples" / "two-players-and-dirk.json"


def test_the_rules_pages_tie_example() -> None:
    # Two tied for 1st in the 3rd scoring on towers: (21 + 13) / 2 = 17 each; 3rd place still gets 6.
    towers = BUILDINGS[al.TYPES.index("tower")].vp[2]
    scores = al.majorities([("Ann", 4), ("Ben", 4), ("Cleo", 2)], towers, 3)
    assert (scores["Ann"].vp, scores["Ben"].vp, scores["Cleo"].vp) == (17, 17, 6)
    assert scores["Ann"].why == "4 buildings, tied with Ben for 1st and 2nd: (21 + 13) / 2 = 17 VP"
    assert scores["Cleo"].place == 3 and scores["Cleo"].why == "2 buildings: 3rd place = 6 VP"


def plain_rule(counts: list[int], paid: tuple[int, ...]) -> list[int]:
    """The rule as the page says it, another way: a player's place is 1 + the players with more; the players
    with as many share the places from there, each getting the sum of the paid VP of those places / g."""
    out = []
    for mine in counts:
        if mine < 1:
            out.append(0)
            continue
        place = 1 + sum(c > mine for c in counts)
        tied = sum(c == mine for c in counts)
        out.append(sum(paid[p - 1] for p in range(place, place + tied) if p <= len(paid)) // tied)
    return out


holdings = st.lists(st.integers(0, 4), min_size=2, max_size=7)


@settings(max_examples=400, deadline=None)
@given(st.lists(holdings, min_size=1, max_size=3).filter(lambda s: len({len(p) for p in s}) == 1), st.data())
def test_generated_scorings_with_many_ties_agree_with_the_rule(
    counts: list[list[int]], data: st.DataObject
) -> None:
    n = len(counts[0])
    dirk = n == 3 and data.draw(st.booleans())
    names = [f"P{i}" for i in range(n)]
    walls = data.draw(st.lists(st.integers(0, 12), min_size=n, max_size=n))
    scorings = []
    for per_player in counts:
        types = [data.draw(st.lists(st.integers(0, 3), min_size=n, max_size=n)) for _ in al.TYPES]
        types[0] = per_player  # pavilions: the drawn counts, ties likely
        scorings.append(
            [
                al.Holding(
                    names[i], dirk and i == 2, tuple(t[i] for t in types), 0 if dirk and i == 2 else walls[i]
                )
                for i in range(n)
            ]
        )
    result = al.score_game(scorings, BUILDINGS)
    totals = [0] * n
    for k, holding in enumerate(scorings):
        for t, kind in enumerate(BUILDINGS):
            expected = plain_rule([h.counts[t] for h in holding], kind.vp[k])
            assert [p.scorings[k].buildings[t].vp for p in result.players] == expected
        for i, h in enumerate(holding):
            totals[i] += sum(
                plain_rule([x.counts[t] for x in holding], BUILDINGS[t].vp[k])[i] for t in range(6)
            )
            totals[i] += 0 if h.dirk else h.wall
    assert [p.total for p in result.players] == totals
    real = [i for i in range(n) if not (dirk and i == 2)]
    assert set(result.winners) == {names[i] for i in real if totals[i] == max(totals[j] for j in real)}
    assert not (dirk and "P2" in result.winners), "Dirk cannot win"


def tiles(*specs: tuple[int, int, str]) -> list[al.Tile]:
    return [al.Tile((r, c), frozenset(w)) for r, c, w in specs]


def test_walls_only_the_outer_pieces_and_the_longest_run_count() -> None:
    straight = al.longest_wall(tiles((0, 0, "N"), (0, 1, "N"), (0, 2, "N")))
    assert straight.length == 3 and straight.runs == (3,)
    # An L round a corner is one wall.
    corner = al.longest_wall(tiles((0, 0, "NW"), (0, 1, "N"), (1, 0, "W")))
    assert corner.length == 4
    # A wall between two tiles is inside the Alhambra: it does not count. (The two tiles are joined through
    # the tiles below them: joined only wall against wall they would break the building rules.)
    inner = al.longest_wall(tiles((0, 0, "E"), (0, 1, "W"), (1, 0, ""), (1, 1, "")))
    assert inner.length == 0
    # Two walls apart: the longer scores.
    apart = al.longest_wall(tiles((0, 0, "N"), (0, 1, ""), (0, 2, ""), (0, 3, "NE"), (1, 3, "E")))
    assert apart.runs == (3, 1) and apart.length == 3


def test_a_layout_the_rules_forbid_is_named_by_its_tile() -> None:
    with pytest.raises(al.LayoutError, match="row 0, col 0: its E edge has wall"):
        al.longest_wall(tiles((0, 0, "E"), (0, 1, "")))
    with pytest.raises(al.LayoutError, match="row 5, col 5 is not joined"):
        al.longest_wall(tiles((0, 0, ""), (5, 5, "N")))
    with pytest.raises(al.LayoutError, match="two tiles at row 0, col 0"):
        al.longest_wall(tiles((0, 0, ""), (0, 0, "N")))


def test_a_tile_joined_only_wall_against_wall_is_refused() -> None:
    """Seed 003, "Building Rules": "Each new building tile must be joined to your Alhambra by at least one
    non-wall side orthogonally (diagonally is not permitted)." """
    with pytest.raises(al.LayoutError, match=r"tile at row 0, col 0 is joined only wall against wall"):
        al.longest_wall(tiles((0, 0, "E"), (0, 1, "W")))


def test_a_tile_that_cannot_be_reached_on_foot_is_refused() -> None:
    """Seed 003, "Building Rules": "You must be able to reach each new building "on foot" from the starting
    tile without crossing a wall and without moving off the tiles." The tile at (0, 2) is joined by its open
    south side, but the tile below it is walled off from the fountain."""
    layout = tiles((0, 0, ""), (0, 1, "E"), (0, 2, "W"), (1, 2, "W"), (1, 1, "E"))
    with pytest.raises(
        al.LayoutError, match="row 0, col 2 cannot be reached on foot from the tile at row 0, col 0"
    ):
        al.longest_wall(layout, (0, 0))
    with pytest.raises(al.LayoutError, match="cannot be reached on foot"):
        al.longest_wall(layout)  # no fountain named: the first tile given


def test_a_layout_with_a_hole_is_refused() -> None:
    """Seed 003, "Building Rules": "You may not have a hole/gap develop in your Alhambra (i.e. a space
    completely surrounded by buildings)." Also a space of two empty squares ([interpretation])."""
    ring = [(r, c, "") for r in range(3) for c in range(3) if (r, c) != (1, 1)]
    with pytest.raises(
        al.LayoutError, match=r"row 1, col 1 is a hole: an empty space surrounded by buildings"
    ):
        al.longest_wall(tiles(*ring))
    assert al.longest_wall(tiles(*ring, (1, 1, ""))).length == 0
    wide = [(r, c, "") for r in range(3) for c in range(4) if (r, c) not in ((1, 1), (1, 2))]
    with pytest.raises(al.LayoutError, match="row 1, col 1 is a hole"):
        al.longest_wall(tiles(*wide))


def test_alcazaba_refuses_a_tile_built_against_the_building_rules_naming_it() -> None:
    """Seed 002, Alcazaba: the tile is built "onmiddellijk in zijn eigen Alhambra ... (hier gelden uiteraard
    ook weer de bekende bouwregels van Alhambra)"; seed 003: "Each new building tile must be joined to your
    Alhambra by at least one non-wall side"."""
    from companion.games.alhambra_dice.alcazaba import check_alhambra
    from companion.games.alhambra_dice.events import BuildingTile

    with pytest.raises(al.LayoutError, match="garden at row 1, col 1 is joined only wall against wall"):
        check_alhambra({(1, 0): BuildingTile("tower", "E"), (1, 1): BuildingTile("garden", "W")})
    with pytest.raises(al.LayoutError, match="fountain at row 0, col 0: its E edge has no wall, the garden"):
        check_alhambra({(0, 1): BuildingTile("garden", "W")})
    ring = {(r, c): BuildingTile("tower") for r in range(-1, 2) for c in range(1, 4) if (r, c) != (0, 2)}
    with pytest.raises(al.LayoutError, match="row 0, col 2 is a hole"):
        check_alhambra(ring)


def score(path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([COMPANION, "score", str(path), *args], capture_output=True, text=True, timeout=60)


def test_the_shipped_pad_is_scored_with_every_reason() -> None:
    result = score(EXAMPLE, "--json")
    assert result.returncode == 0, result.stderr
    board = json.loads(result.stdout)
    assert board["game"] == "alhambra" and board["winners"] == ["Ann"]
    ann, _, dirk = board["players"]
    assert dirk["dirk"] and all(s["wall"]["vp"] == 0 for s in dirk["scorings"])
    final = ann["scorings"][2]
    assert final["wall"]["length"] == 12 and final["wall"]["runs"] == [12], "found on the tiles given"
    why = "5 buildings, tied with Ben for 1st and 2nd: (21 + 13) / 2 = 17 VP"
    assert final["buildings"]["tower"] == {"count": 5, "place": 1, "vp": 17, "why": why}
    assert sum(s["vp"] for s in ann["scorings"]) == ann["total"]
    assert "Winner: Ann" in score(EXAMPLE).stdout


def test_a_three_way_tie_is_said_as_a_list() -> None:
    """It said "tied with Ben and Dirk for 1st and 2nd and 3rd"."""
    said = score(EXAMPLE).stdout
    assert "1 building, tied with Ben and Dirk for 1st, 2nd and 3rd: (1 + 0 + 0) / 3" in said, said


def test_the_walls_reason_counts_its_pieces_in_words(tmp_path: Path) -> None:
    data = json.loads(EXAMPLE.read_text())
    ann, ben = data["players"][0]["scorings"][0], data["players"][1]["scorings"][0]
    ann["wall"], ben["wall"] = 1, 0
    pad = tmp_path / "pad.json"
    pad.write_text(json.dumps(data))
    said = score(pad).stdout
    assert "    wall        1  1 piece\n" in said and "    wall        0  0 pieces\n" in said, said


@pytest.mark.parametrize(
    ("change", "says"),
    [
        (lambda d: d["players"][0]["scorings"][0].update(wal=3), "unknown field 'wal'"),
        (lambda d: d["players"][0]["scorings"][0]["buildings"].pop("tower"), "missing tower"),
        (
            lambda d: d["players"][0]["scorings"][0]["buildings"].update(pavilion=8),
            "pavilion: must be a whole number 0-7",
        ),
        (lambda d: d["players"][1]["scorings"].pop(), "same number of scorings"),
        (lambda d: d["players"][2]["scorings"][0].update(wall=2), "unknown field 'wall'"),
        (
            lambda d: d["players"].append({"name": "Cleo", "scorings": d["players"][0]["scorings"]}),
            "Dirk plays only",
        ),
        (
            lambda d: d["players"][0]["scorings"][0].update(layout={"tiles": []}),
            "wall's length (wall) or the tiles",
        ),
    ],
)
def test_a_bad_pad_is_one_line_naming_the_field(tmp_path: Path, change: object, says: str) -> None:
    data = json.loads(EXAMPLE.read_text())
    change(data)  # type: ignore[operator]
    bad = tmp_path / "pad.json"
    bad.write_text(json.dumps(data))
    result = score(bad)
    assert result.returncode == 2 and says in result.stderr, result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and str(bad) in result.stderr


def _pad_refused(data: object, says: str) -> None:
    with pytest.raises(al.ScoreFileError, match=says):
        al.read_scorings(data, BUILDINGS)


def test_a_2_player_pad_without_dirk_is_refused() -> None:
    """Seed 003, "Special rules for two players": "You play an imaginary 3rd player called Dirk, who gets six
    arbitrary buildings at the beginning of the game and after the scoring round." """
    data = json.loads(EXAMPLE.read_text())
    assert len(al.read_scorings(data, BUILDINGS)[0]) == 3
    data["players"].pop()
    _pad_refused(data, "a 2-player game has the imaginary Dirk as third player")


@pytest.mark.parametrize(
    ("scoring", "says"),
    [
        (
            0,
            r"\[0\]\.buildings: 5 in all, .* at least 6: the 6 the rule deals him at the start",
        ),
        (
            1,
            r"\[1\]\.buildings: 11 in all, .* at least 12: the 6 of scoring 1 and the 6 more the rule",
        ),
        (
            2,
            r"\[2\]\.buildings: 14 in all, .* at least 15: the 12 of scoring 2 and the 3 more the rule",
        ),
    ],
    ids=["scoring-1", "scoring-2", "scoring-3"],
)
def test_a_dirk_short_of_the_buildings_the_rule_deals_him_is_refused(scoring: int, says: str) -> None:
    """Rules page, Dirk (2 players): he "gets buildings (6 at the start and after the first scoring, 3 more
    after the second)". It scored a Dirk of 0, 30 and 6 buildings, his counts deciding the real players'
    places."""
    data = json.loads(EXAMPLE.read_text())
    dirk = data["players"][2]["scorings"]
    # The shipped pad's Dirk holds just what the rule deals him.
    assert [sum(s[2].counts) for s in al.read_scorings(data, BUILDINGS)] == [6, 12, 15]
    dirk[scoring]["buildings"]["arcades"] -= 1
    _pad_refused(data, rf"players\[2\]\.scorings{says}")


def test_a_dirk_count_going_down_between_scorings_is_refused() -> None:
    """Rules page, Dirk (2 players): buildings are dealt to him, none leaves him."""
    data = json.loads(EXAMPLE.read_text())
    dirk = data["players"][2]["scorings"]
    dirk[2]["buildings"]["tower"] = 1
    dirk[2]["buildings"]["garden"] += 1  # still 15 in all
    _pad_refused(
        data,
        r"players\[2\]\.scorings\[2\]\.buildings\.tower: 1, fewer than the 2 of scoring 2: the imaginary "
        r"third player's buildings stay",
    )


def test_a_dirk_given_buildings_holds_them_and_is_still_dealt_his_own() -> None:
    """Seed 003: players may "donate" buildings to Dirk, so he may hold more than the rule deals him; and
    after the first scoring he still "gets six arbitrary buildings", on top of those given."""
    data = json.loads(EXAMPLE.read_text())
    dirk = data["players"][2]["scorings"]
    dirk[0]["buildings"]["arcades"] += 1
    _pad_refused(
        data, r"scorings\[1\]\.buildings: 12 in all, .* at least 13: the 7 of scoring 1 and the 6 more"
    )
    for later in dirk[1:]:
        later["buildings"]["arcades"] += 1
    assert [sum(h.counts) for h in (s[2] for s in al.read_scorings(data, BUILDINGS))] == [7, 13, 16]


def test_a_plain_pad_holds_11_towers_the_12th_comes_with_the_dice_game() -> None:
    """Seed 003, "Game Material": "The number of buildings in Alhambra is 7 Pavilions, 7 Manors, 9 Mezzanines,
    9 Chambers, 11 Gardens and 11 Towers." Seed 002: "1 extra torenkaartje (Het aantal torens verhoogt met dit
    kaartje tot 12 !)", which "kan uiteraard ook worden gebruikt in het spel 'Der Palast von Alhambra'"."""
    data = json.loads(EXAMPLE.read_text())
    assert sum(h.counts[5] for h in al.read_scorings(data, BUILDINGS)[2]) == 12  # "extra_tower": true
    del data["extra_tower"]
    _pad_refused(data, "scoring 3: 12 tower buildings in all, the game holds 11")
    data["players"][0]["scorings"][2]["buildings"]["tower"] = 12
    _pad_refused(data, r"players\[0\].scorings\[2\].buildings.tower: must be a whole number 0-11")


def test_a_wall_longer_than_the_alhambras_tiles_can_carry_is_refused() -> None:
    """Seed 003, "Building Rules": "Each new building tile must be joined to your Alhambra by at least one
    non-wall side": of a building's 4 sides at most 3 carry wall, 2 unless it lies by the fountain (which has
    none), so 5 buildings carry at most 14 pieces, and no Alhambra of the game's 55 tiles 45 at scoring 1."""
    data = json.loads(EXAMPLE.read_text())
    first = data["players"][0]["scorings"][0]
    assert sum(first["buildings"].values()) == 5
    first["wall"] = 14
    assert al.read_scorings(data, BUILDINGS)[0][0].wall == 14
    first["wall"] = 45
    _pad_refused(data, r"scorings\[0\].wall: an Alhambra of the fountain and 5 buildings carries at most 14")


def test_a_layout_tile_without_walls_given_is_refused_not_read_as_no_walls() -> None:
    """Issue 30: a field that changes the score has no default. Seed 003: "Edge types must match edge types.
    Walls match walls and non-walls match non-walls." (a tile's walls decide the wall's length)."""
    data = json.loads(EXAMPLE.read_text())
    tile = data["players"][0]["scorings"][2]["layout"]["tiles"][1]
    assert tile["walls"] == "NE"
    del tile["walls"]
    _pad_refused(data, r"layout.tiles\[1\].walls: missing \(\"\" for a tile without walls\)")


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 15)), min_size=1, max_size=40))
def test_the_quick_look_at_one_tile_never_rules_out_a_tile_the_rules_allow(
    tries: list[tuple[int, int]],
) -> None:
    """`may_lie_beside` (the random players' first look at a place) against the whole check: a tile it rules
    out breaks the rules, and a tile it lets through is refused by the whole check for a hole at most."""
    placed = {(0, 0): al.Tile((0, 0), frozenset(), "fountain")}
    for where, walls in tries:
        free = sorted(
            {(r + dr, c + dc) for r, c in placed for _, dr, dc in walls_module.NEIGHBOURS} - set(placed)
        )
        at = free[where % len(free)]
        tile = al.Tile(at, frozenset(side for n, side in enumerate("NESW") if walls >> n & 1))
        quick = walls_module.may_lie_beside(placed, tile)
        try:
            walls_module.check_layout([*placed.values(), tile], (0, 0))
        except al.LayoutError as exc:
            assert not quick or "is a hole" in str(exc), str(exc)
            continue
        assert quick, f"{tile} is allowed but was ruled out"
        placed[at] = tile


@pytest.mark.parametrize(
    ("garden", "says"),
    [
        (
            [[5], [5, 12], [20, 12, 5]],
            r"buildings\.garden\.vp\[1\]: at scoring 2 a place cannot earn more than a better place "
            r"\(1st >= 2nd >= 3rd\), got \[5, 12\]",
        ),
        ([[5], [12, 5], [5, 12, 20]], r"buildings\.garden\.vp\[2\]: at scoring 3 a place cannot earn more"),
        ([[True], [12, 5], [20, 12, 5]], r"buildings\.garden\.vp: must be \[\[1st\], \[1st, 2nd\]"),
        ([[0], [5, 5], [5, 5, 0]], None),
    ],
)
def test_the_scoring_card_pays_no_place_more_than_a_better_one(
    tmp_path: Path, garden: list[list[object]], says: str | None
) -> None:
    """Rules page (alhambra-classic-scoring.md): places 1st, 2nd, 3rd pay 20, 12, 5 on gardens; ties share the
    VP of the places they occupy, so equal places (and a place worth nothing) are a card's to print."""
    data = json.loads(Path(al.__file__).with_name("buildings.json").read_text())
    data["buildings"]["garden"]["vp"] = garden
    path = tmp_path / "buildings.json"
    path.write_text(json.dumps(data))
    if says is None:
        assert al.load_buildings(path)[4].vp == tuple(tuple(row) for row in garden)
        return
    with pytest.raises(BuildingTableError, match=says):
        al.load_buildings(path)


def test_a_finished_pad_a_rule_now_refuses_says_so_where_it_is_listed() -> None:
    """A 2-player pad finished before Dirk's dealt buildings were checked (the example had 11 at scoring 2)
    left history without a word, listed as "scoring 3 of 3" as if never finished."""
    pad = json.loads(EXAMPLE.read_text())
    assert summary(pad).where == "finished"
    pad["players"][2]["scorings"][1]["buildings"]["seraglio"] = 1
    listed = summary(pad)
    assert not listed.over
    assert listed.where == "scoring 3 of 3, not scored: a count breaks a rule (open it to see which)"


def test_a_player_without_a_building_of_the_type_has_no_place_and_counts_0() -> None:
    """Rules page: the players with the most buildings get VP; one with none takes no place."""
    towers = BUILDINGS[al.TYPES.index("tower")].vp[2]
    dan = al.majorities([("Ann", 4), ("Dan", 0)], towers, 3)["Dan"]
    assert (dan.count, dan.place, dan.vp, dan.why) == (0, 0, 0, "no building: 0 VP")


@pytest.mark.parametrize("side", "NESW")
def test_a_straight_wall_on_every_side_is_one_run(side: str) -> None:
    """Rules page: 1 VP per wall piece of the longest connected outer wall, whichever side it runs along."""
    along_row = side in "NS"
    lay = tiles(*(((0, k, side) if along_row else (k, 0, side)) for k in range(3)))
    wall = al.longest_wall(lay)
    assert (wall.length, wall.runs) == (3, (3,))


@pytest.mark.parametrize("corner", ["NW", "NE", "SE", "SW"])
def test_a_wall_round_every_corner_of_a_tile_is_one_run(corner: str) -> None:
    wall = al.longest_wall(tiles((0, 0, corner)))
    assert (wall.length, wall.runs) == (2, (2,))


@pytest.mark.parametrize(
    ("change", "says"),
    [
        (lambda d: d.update(extra=1), r"buildings\.json: unknown field 'extra'"),
        (
            lambda d: d["buildings"]["garden"].update(tiles="11"),
            r"garden\.tiles: must be a whole number 1-20",
        ),
        (
            lambda d: d["buildings"]["garden"].update(tiles=True),
            r"garden\.tiles: must be a whole number 1-20",
        ),
        (lambda d: d["buildings"]["garden"].update(tiles=0), r"garden\.tiles: must be a whole number 1-20"),
        (lambda d: d["buildings"]["garden"].update(tiles=21), r"garden\.tiles: must be a whole number 1-20"),
        (lambda d: d["buildings"]["tower"].update(extra=-1), r"tower\.extra: must be a whole number 0-5"),
        (lambda d: d["buildings"]["tower"].update(extra=6), r"tower\.extra: must be a whole number 0-5"),
        (lambda d: d["buildings"]["garden"].update(vp=[[5], [12, 5]]), r"garden\.vp: must be \[\[1st\]"),
        (lambda d: d["buildings"]["garden"].update(vp=[5, [12, 5], [20, 12, 5]]), r"garden\.vp: must be"),
        (lambda d: d["buildings"]["garden"].update(vp=[[5], [12, 5], [20, 12, -1]]), r"garden\.vp: must be"),
    ],
)
def test_a_damaged_scoring_card_file_is_refused_naming_the_field(
    tmp_path: Path, change: object, says: str
) -> None:
    data = json.loads(Path(al.__file__).with_name("buildings.json").read_text())
    change(data)  # type: ignore[operator]
    path = tmp_path / "buildings.json"
    path.write_text(json.dumps(data))
    with pytest.raises(BuildingTableError, match=says):
        al.load_buildings(path)


def test_no_one_leads_a_pad_where_all_are_level(tmp_path: Path) -> None:
    """A new pad, nothing typed, said `Leading: Ann, Ben and Cleo` where the views say no one leads while all
    are level; once one has a point more, that one leads."""
    path = new_pad(tmp_path, ["Ann", "Ben", "Cleo"], datetime(2026, 12, 2, 20, 0))
    said = score(path).stdout
    assert said.rstrip().endswith("Totals after scoring 1 of 3: Ann 0, Ben 0, Cleo 0."), said
    pad = json.loads(path.read_text())
    pad["players"][1]["scorings"][0]["buildings"]["garden"] = 1
    path.write_text(json.dumps(pad))
    assert score(path).stdout.rstrip().endswith(". Leading: Ben")
