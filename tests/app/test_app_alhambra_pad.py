"""The original Alhambra's scoring pad in the app: F7 with the players' names opens it (Dirk joins two
players), typed counts and walls keep the breakdown up to date and are saved at once, the pad is continued
by F7 again, exported, and `companion score` reads it the same."""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from app_driver import make_app, text_of
from textual import events
from textual.widgets import Input, OptionList, Static

from companion.app import paths
from companion.app.screens.alhambra_pad import AlhambraPadScreen
from companion.cli import main as companion_main
from companion.games.alhambra.buildings import TYPES
from companion.games.alhambra.pad import PadError, new_pad
from companion.saved_games import saved_files


async def new_pad_for_ann_and_ben(pilot: Any) -> AlhambraPadScreen:
    """F7 on the start screen with two names typed: the new pad, Dirk joining them."""
    await pilot.press(*"Ann", "tab", *"Ben", "f7")
    await pilot.pause()
    pad = pilot.app.screen
    assert isinstance(pad, AlhambraPadScreen)
    return pad


async def type_into(pilot: Any, field: str, value: str) -> None:
    pad = pilot.app.screen
    box = pad.query_one(f"#{field}", Input)
    box.value = value
    await pilot.pause()


async def deal_to_dirk(pilot: Any, *counts: int) -> None:
    """Dirk's row typed, a count of each type: the rule deals him 6 buildings at the start, 6 more after
    scoring 1 and 3 after scoring 2."""
    for kind, count in zip(TYPES, counts, strict=True):
        await type_into(pilot, f"p2-{kind}", str(count))


def test_a_pad_is_typed_scored_saved_continued_and_exported(xdg: Path, capsys: Any) -> None:
    seen: dict[str, Any] = {}

    async def fill() -> None:
        async with make_app().run_test(size=(110, 34)) as pilot:
            pad = await new_pad_for_ann_and_ben(pilot)
            seen["players"] = [p["name"] for p in pad.pad["players"]]
            await deal_to_dirk(pilot, 1, 1, 1, 1, 1, 1)
            for field, value in (("p0-tower", "2"), ("p1-tower", "2"), ("p0-wall", "4")):
                await type_into(pilot, field, value)
            seen["first"] = text_of(pad.query_one("#result", Static))
            await pilot.press("ctrl+n")
            seen["dealt"] = list(pilot.app._notifications)[-1].message
            await deal_to_dirk(pilot, 4, 4, 1, 1, 1, 1)
            await type_into(pilot, "p1-garden", "3")
            await pilot.press("ctrl+e")
            seen["path"] = pad.path

    asyncio.run(fill())
    assert seen["players"] == ["Ann", "Ben", "Dirk"]
    assert "2 buildings, tied with Ben for 1st and 2nd: (6 + 0) / 2 = 3 VP" in seen["first"]
    assert seen["dealt"] == "scoring 2: Dirk gets 6 more buildings, type them into his row"
    path: Path = seen["path"]
    assert path.parent == paths.games_dir() and path.name.endswith(".pad.json")
    pad = json.loads(path.read_text())
    assert [len(p["scorings"]) for p in pad["players"]] == [2, 2, 2]
    assert pad["players"][0]["scorings"][1]["buildings"]["tower"] == 2, (
        "the next scoring starts from the last"
    )
    assert pad["players"][1]["scorings"][1]["buildings"]["garden"] == 3
    stem = path.name.removesuffix(".pad.json")
    exported = json.loads(path.with_name(f"{stem}.score.json").read_text())
    capsys.readouterr()
    assert companion_main(["score", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == exported["scoring"], "the keys every game exports"
    totals = [
        {"name": p["name"], "total": p["total"], "imaginary": p.get("dirk", False)}
        for p in exported["scoring"]["players"]
    ]
    assert exported["totals"] == totals and [t["name"] for t in totals] == ["Ann", "Ben", "Dirk"]
    assert not exported["finished"] and exported["winners"] == [], "two scorings of three: no winner yet"
    scoring = exported["scoring"]
    assert scoring["winners"] == ["Ben"] and scoring["players"][1]["scorings"][1]["vp"] == 12 + 9
    markdown = path.with_name(f"{stem}.score.md").read_text()
    ben = scoring["players"][1]
    in_each = " | ".join(str(s["vp"]) for s in ben["scorings"])
    assert "| player | 1 | 2 | total |" in markdown, "a column per scoring held"
    assert f"| Ben | {in_each} | {ben['total']} |" in markdown and "**no winner yet**" in markdown
    assert "| Dirk (imaginary) |" in markdown

    async def continue_it() -> tuple[int, str]:
        async with make_app().run_test(size=(110, 34)) as pilot:
            await pilot.press("f7")
            await pilot.pause()
            pad = pilot.app.screen
            assert isinstance(pad, AlhambraPadScreen) and pad.path == path
            return pad.at, pad.query_one("#p1-garden", Input).value

    assert asyncio.run(continue_it()) == (1, "3")


DAMAGED = {
    "not JSON": '{"game": "alhambra", "players": [',
    "a building missing": json.dumps(
        {
            "game": "alhambra",
            "players": [{"name": "Ann", "scorings": [{"buildings": {"tower": 1}, "wall": 0}]}],
        }
    ),
    "nested too deep": "[" * 5000 + "]" * 5000,
    "a number of 5,000 digits": '{"players": ' + "9" * 5000 + "}",
    "players of different scorings": json.dumps(
        {
            "game": "alhambra",
            "players": [
                {"name": n, "scorings": [{"buildings": dict.fromkeys(TYPES, 0), "wall": 0}] * k}
                for n, k in (("Ann", 1), ("Ben", 2))
            ],
        }
    ),
}


def test_a_digit_typed_after_a_lone_0_replaces_it_and_the_best_lead_until_the_third_scoring(
    xdg: Path,
) -> None:
    seen: dict[str, Any] = {}

    async def fill() -> None:
        async with make_app().run_test(size=(110, 34)) as pilot:
            pad = await new_pad_for_ann_and_ben(pilot)
            tower = pad.query_one("#p0-tower", Input)
            tower.focus()
            await pilot.pause()
            tower.cursor_position = len(tower.value)  # the cursor after the 0, as a click there leaves it
            await pilot.press("3")
            seen["typed"] = (tower.value, pad.pad["players"][0]["scorings"][0]["buildings"]["tower"])
            for n, dealt in ((1, (1, 1, 1, 1, 1, 1)), (2, (2, 2, 2, 2, 2, 2))):
                seen[f"short {n}"] = str(pad.query_one("#totals", Static).render())
                await deal_to_dirk(pilot, *dealt)
                seen[n] = str(pad.query_one("#totals", Static).render())
                await pilot.press("ctrl+n")
                seen[f"said {n}"] = list(pilot.app._notifications)[-1].message
            await deal_to_dirk(pilot, 3, 3, 3, 2, 2, 2)
            seen[3] = str(pad.query_one("#totals", Static).render())

    asyncio.run(fill())
    assert seen["typed"] == ("3", 3)
    # Rules page, Dirk (2 players): the pad said nothing of his buildings and scored him none.
    assert seen["short 1"] == (
        "not scored yet: Dirk's buildings in scoring 1: 0 in all, the imaginary third player holds at least "
        "6: the 6 the rule deals him at the start"
    ), seen["short 1"]
    assert seen["short 2"] == (
        "not scored yet: Dirk's buildings in scoring 2: 6 in all, the imaginary third player holds at least "
        "12: the 6 of scoring 1 and the 6 more the rule deals him after scoring 1"
    ), seen["short 2"]
    assert seen["said 1"] == "scoring 2: Dirk gets 6 more buildings, type them into his row"
    assert seen["said 2"] == "scoring 3: Dirk gets 3 more buildings, type them into his row"
    assert seen[1] == "Totals after scoring 1 of 3: Ann 6, Ben 0, Dirk (imaginary) 15. Leading: Ann", seen[1]
    assert seen[2].startswith("Totals after scoring 2 of 3: ") and seen[2].endswith("Leading: Ann")
    assert seen[3].startswith("Totals: ") and seen[3].endswith("Winner: Ann"), "3 scorings: a winner"


def test_down_and_enter_go_down_a_column_as_on_paper_and_up_comes_back(xdg: Path) -> None:
    """A scoring is counted one building type at a time round the table: ↓ or Enter after a count goes to
    the next player's same count, from the last player on to the next type's first (it stayed, and the next
    count typed was written after the last: 3 then 5 made 35), ↑ back; Dirk has no wall, so the wall column
    ends at Ben, the last count of all."""
    seen: dict[str, Any] = {}

    async def fill() -> None:
        async with make_app().run_test(size=(110, 34)) as pilot:
            pad = await new_pad_for_ann_and_ben(pilot)
            pad.query_one("#p0-garden", Input).focus()
            await pilot.press("2", "enter", "3", "down", "1")
            seen["gardens"] = [p["scorings"][0]["buildings"]["garden"] for p in pad.pad["players"]]
            await pilot.press("enter")
            seen["last"] = pilot.app.focused.id if pilot.app.focused else None
            await pilot.press("4")
            seen["towers"] = [p["scorings"][0]["buildings"]["tower"] for p in pad.pad["players"]]
            await pilot.press("up", "up", "up")
            seen["back"] = pilot.app.focused.id if pilot.app.focused else None
            pad.query_one("#p1-wall", Input).focus()
            await pilot.press("down")
            seen["wall"] = pilot.app.focused.id if pilot.app.focused else None

    asyncio.run(fill())
    assert seen["gardens"] == [2, 3, 1]
    assert seen["last"] == "p0-tower", "Enter on the last player goes on to the next type"
    assert seen["towers"] == [4, 0, 0] and seen["gardens"] == [2, 3, 1]
    assert seen["back"] == "p0-garden"
    assert seen["wall"] == "p1-wall", "Dirk's row has no wall to go to"


def test_the_next_scoring_is_typed_from_its_first_count_and_the_last_count_is_retyped_whole(
    xdg: Path,
) -> None:
    """After ctrl+n the cursor stayed in the last cell after its copied value: the whole next scoring was
    typed onto its end ("7321231114…: must be a whole number"). Enter on the last count left its value
    unselected too: a count typed again was written after it."""
    seen: dict[str, Any] = {}

    async def fill() -> None:
        async with make_app().run_test(size=(110, 34)) as pilot:
            pad = await new_pad_for_ann_and_ben(pilot)
            wall = pad.query_one("#p1-wall", Input)
            wall.focus()
            await pilot.press("7", "enter", "9")
            seen["wall"] = pad.pad["players"][1]["scorings"][0]["wall"]
            await pilot.press("ctrl+n")
            seen["focused"] = pilot.app.focused.id if pilot.app.focused else None
            await pilot.press("3", "enter", "2")
            seen["pavilions"] = [p["scorings"][1]["buildings"]["pavilion"] for p in pad.pad["players"]]
            seen["second wall"] = pad.pad["players"][1]["scorings"][1]["wall"]

    asyncio.run(fill())
    assert seen["wall"] == 9, "the last count typed again replaces it"
    assert seen["focused"] == "p0-pavilion"
    assert seen["pavilions"] == [3, 2, 0] and seen["second wall"] == 9


def test_the_totals_stay_in_view_at_80x24_with_five_players(xdg: Path) -> None:
    """Five players' breakdown is longer than an 80×24 terminal shows: the totals line stays above it."""
    seen: dict[str, Any] = {}

    async def fill() -> None:
        async with make_app().run_test(size=(80, 24)) as pilot:
            await pilot.press(*"Ann", "tab", *"Ben", "tab", *"Cid", "tab", *"Dora", "tab", *"Eve", "f7")
            await pilot.pause()
            await type_into(pilot, "p4-tower", "3")
            pad = pilot.app.screen
            totals = pad.query_one("#totals", Static)
            seen["shown"] = totals in pad._compositor.visible_widgets
            seen["totals"] = str(totals.render())
            await type_into(pilot, "p4-tower", "-1")
            seen["refused"] = str(totals.render()), totals in pad._compositor.visible_widgets
            await type_into(pilot, "p1-wall", "")
            seen["empty"] = str(totals.render())

    asyncio.run(fill())
    assert seen["shown"], "the totals line is below the fold"
    assert seen["totals"] == "Totals after scoring 1 of 3: Ann 0, Ben 0, Cid 0, Dora 0, Eve 6. Leading: Eve"
    refused, shown = seen["refused"]
    # Said in the pad's words: whose count, in which scoring (it named the file's field, players[4]...).
    assert shown
    assert refused == "not scored yet: Eve's tower in scoring 1: must be a whole number 0-11, got -1"
    assert seen["empty"] == "not scored yet: Ben's wall in scoring 1 is empty: type a count (0 for none)"


@pytest.mark.parametrize("width", [50, 60, 66, 74, 75, 80])
def test_every_field_lies_within_the_terminals_width(xdg: Path, width: int) -> None:
    """From 60 to 69 columns the rows kept one line: the tower and wall fields lay past the right edge, and
    a wall count was typed blind."""
    right_edges: list[int] = []

    async def fill() -> None:
        async with make_app().run_test(size=(width, 30)) as pilot:
            pad = await new_pad_for_ann_and_ben(pilot)
            right_edges.extend(field.region.right for field in pad.query(Input))

    asyncio.run(fill())
    assert right_edges and max(right_edges) <= width


def test_a_damaged_pad_is_named_and_the_app_goes_on(xdg: Path) -> None:
    """F7 continuing a damaged pad says why it cannot open it, on the start screen, in one line."""
    said: dict[str, str] = {}

    async def open_each() -> None:
        async with make_app().run_test(size=(110, 34)) as pilot:
            for what, text in DAMAGED.items():
                folder = paths.games_dir()
                folder.mkdir(parents=True, exist_ok=True)
                (folder / f"alhambra-2026{len(said):04d}-000000.pad.json").write_text(text)
                await pilot.press("f7")
                await pilot.pause()
                assert not isinstance(pilot.app.screen, AlhambraPadScreen), what
                said[what] = str(pilot.app.screen.query_one("#message", Static).render())

    asyncio.run(open_each())
    assert len(said) == len(DAMAGED)
    for what, message in said.items():
        assert message.startswith("cannot open the Alhambra scoring pad: "), (what, message)
        assert "\n" not in message and len(message) < 300, (what, message)
    assert "'players[0].scorings[0].buildings' must give" in said["a building missing"]
    assert "nested over" in said["nested too deep"]


def test_one_name_is_refused_and_never_opens_another_tables_pad(xdg: Path) -> None:
    """F7 with fewer than two names fell back to the newest pad: one name typed opened an old pad of others
    without a word. None typed still continues the last pad, as the README says."""
    seen: dict[str, Any] = {}

    new_pad(paths.games_dir(), ["Ann", "Ben"], datetime(2026, 11, 28, 21, 0))

    async def run() -> None:
        async with make_app().run_test(size=(110, 34)) as pilot:
            start = pilot.app.screen
            start.query_one("#name1", Input).value = "Solo"
            await pilot.pause()
            await pilot.press("f7")
            await pilot.pause()
            seen["one"] = pilot.app.screen is start, str(start.query_one("#message", Static).render())
            start.query_one("#name1", Input).value = ""
            await pilot.pause()
            await pilot.press("f7")
            await pilot.pause()
            seen["none"] = pilot.app.screen

    asyncio.run(run())
    assert seen["one"] == (
        True,
        "Alhambra scoring pad: a game has 2 to 6 players (Dirk joins two), not 1",
    )
    assert isinstance(seen["none"], AlhambraPadScreen)
    assert [p["name"] for p in seen["none"].pad["players"]] == ["Ann", "Ben", "Dirk"]


def test_a_pad_that_cannot_be_saved_says_so_and_keeps_the_typing(xdg: Path) -> None:
    seen: dict[str, Any] = {}

    async def fill() -> None:
        async with make_app().run_test(size=(110, 34)) as pilot:
            pad = await new_pad_for_ann_and_ben(pilot)
            # The side file the pad is written through cannot be made: a save fails as on a full disk.
            pad.path.with_name(pad.path.name + ".part").mkdir()
            await type_into(pilot, "p0-tower", "2")
            await pilot.pause()
            seen["screen"] = pilot.app.screen
            seen["notes"] = [n.message for n in pilot.app._notifications]
            seen["tower"] = pad.pad["players"][0]["scorings"][0]["buildings"]["tower"]

    asyncio.run(fill())
    assert isinstance(seen["screen"], AlhambraPadScreen)
    assert any("cannot save the pad" in note for note in seen["notes"]), seen["notes"]
    assert seen["tower"] == 2


def test_an_export_that_cannot_be_written_says_so_and_leaves_no_half_file(xdg: Path) -> None:
    seen: dict[str, Any] = {}

    async def export() -> None:
        async with make_app().run_test(size=(80, 24)) as pilot:
            pad = await new_pad_for_ann_and_ben(pilot)
            await deal_to_dirk(pilot, 1, 1, 1, 1, 1, 1)
            await type_into(pilot, "p0-tower", "2")
            # The side file the breakdown is written through cannot be made: a write fails as on a full disk.
            stem = pad.path.name.removesuffix(".pad.json")
            pad.path.with_name(f"{stem}.score.md.part").mkdir()
            await pilot.press("ctrl+e")
            await pilot.pause()
            seen["screen"] = pilot.app.screen
            seen["notes"] = [n.message for n in pilot.app._notifications]
            seen["written"] = sorted(f.name for f in pad.path.parent.glob(f"{stem}.score.*"))

    asyncio.run(export())
    assert isinstance(seen["screen"], AlhambraPadScreen), "the pad stays open"
    assert any(
        note.startswith("cannot write ") and note.endswith("; nothing written") for note in seen["notes"]
    ), seen["notes"]
    assert all(name.endswith(".part") for name in seen["written"]), seen["written"]


def test_a_pad_is_a_saved_game_continued_from_the_list_and_in_history_once_finished(xdg: Path) -> None:
    """The pad is a game like the others: listed with the logs (how far it has come), continued by choosing
    it, and counted in history and per-player statistics once its three scorings are typed."""
    seen: dict[str, Any] = {}

    async def play() -> None:
        async with make_app().run_test(size=(110, 34)) as pilot:
            pad = await new_pad_for_ann_and_ben(pilot)
            await deal_to_dirk(pilot, 1, 1, 1, 1, 1, 1)
            await type_into(pilot, "p0-tower", "2")
            await pilot.press("ctrl+n")
            await deal_to_dirk(pilot, 2, 2, 2, 2, 2, 2)
            await pilot.press("ctrl+n")
            await deal_to_dirk(pilot, 3, 3, 3, 2, 2, 2)
            await type_into(pilot, "p1-garden", "4")
            seen["path"] = pad.path
        async with make_app().run_test(size=(110, 34)) as pilot:
            options = pilot.app.screen.query_one("#saved", OptionList)
            # The finished pad is listed apart, under the heading of the finished games, and chosen first.
            seen["heading"] = str(options.get_option_at_index(0).prompt)
            seen["listed"] = str(options.get_option_at_index(1).prompt)
            await pilot.press("enter")
            await pilot.pause()
            seen["continued"] = pilot.app.screen

    asyncio.run(play())
    assert seen["heading"].startswith("── Finished")
    assert seen["listed"].startswith("Alhambra · Ann, Ben, Dirk ◇ · finished · "), seen["listed"]
    continued = seen["continued"]
    assert isinstance(continued, AlhambraPadScreen) and continued.path == seen["path"]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert companion_main(["history", "--json"]) == 0
    [game] = json.loads(out.getvalue())
    assert game["game"] == "alhambra" and game["log"] == str(seen["path"])
    totals = {p["name"]: p["total"] for p in game["players"]}
    scored = json.loads(_score_json(seen["path"]))
    assert totals == {p["name"]: p["total"] for p in scored["players"]}
    assert game["players"][0]["vp"].keys() == {"buildings", "walls"}
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert companion_main(["stats", "--json"]) == 0
    stats = [s for s in json.loads(out.getvalue()) if s["game"] == "alhambra"]
    assert sorted(s["name"] for s in stats) == ["Ann", "Ben"], "Dirk has no seat at the table"


def test_a_pad_being_typed_is_listed_with_its_scoring_and_not_in_history(xdg: Path) -> None:
    def first_listed(pilot: Any) -> str:
        options = pilot.app.screen.query_one("#saved", OptionList)
        return str(options.get_option_at_index(0).prompt)

    async def start() -> tuple[str, str]:
        async with make_app().run_test(size=(110, 34)) as pilot:
            await new_pad_for_ann_and_ben(pilot)
            await type_into(pilot, "p0-pavilion", "2")  # a pad left blank is not kept
            await pilot.press("escape")
            await pilot.pause()
            back = first_listed(pilot)
        async with make_app().run_test(size=(110, 34)) as pilot:
            return back, first_listed(pilot)

    back, next_time = asyncio.run(start())
    assert back.startswith("Alhambra · Ann, Ben, Dirk ◇ · scoring 1 of 3 · "), "back from the pad: " + back
    assert next_time == back
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert companion_main(["history", "--json"]) == 0
    assert json.loads(out.getvalue()) == []


def _score_json(path: Path) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert companion_main(["score", str(path), "--json"]) == 0
    return out.getvalue()


def test_ctrl_t_plays_the_dice_games_extra_tower_and_the_refusal_names_it(xdg: Path, capsys: Any) -> None:
    """12 towers were refused with the file's field to edit by hand ('"extra_tower": true'): the pad's own
    key says the dice game's extra tower joins the game, is saved in the pad and scored by `companion score`;
    pressed again, 12 towers are refused once more."""
    seen: dict[str, Any] = {}

    def shown(pad: AlhambraPadScreen) -> tuple[str, str]:
        return text_of(pad.query_one("#title", Static)), text_of(pad.query_one("#totals", Static))

    async def fill() -> None:
        async with make_app().run_test(size=(110, 34)) as pilot:
            pad = await new_pad_for_ann_and_ben(pilot)
            await deal_to_dirk(pilot, 1, 1, 1, 1, 1, 1)
            for field, value in (("p0-tower", "6"), ("p1-tower", "5")):
                await type_into(pilot, field, value)
            seen["refused"] = shown(pad)
            seen["footer"] = [str(key.key_display) for key in pad.query("FooterKey")]  # type: ignore[attr-defined]
            await pilot.press("ctrl+t")
            seen["with"] = shown(pad)
            seen["saved"] = json.loads(pad.path.read_text())
            seen["path"] = pad.path
            await pilot.press("ctrl+t")
            seen["without"] = shown(pad)
            await pilot.press("ctrl+t")  # played with it after all: the pad is left saved so

    asyncio.run(fill())
    title, totals = seen["refused"]
    assert totals == (
        "not scored yet: scoring 1: 12 tower buildings in all, the game holds 11 (ctrl+t: with the dice "
        "game's extra tower)"
    ), totals
    assert "^t" in seen["footer"]
    title, totals = seen["with"]
    assert "with the dice game's extra tower" in title and totals.startswith("Totals after scoring 1 of 3"), (
        totals
    )
    assert seen["saved"]["extra_tower"] is True
    assert seen["without"][1] == seen["refused"][1] and "extra tower" not in seen["without"][0]
    capsys.readouterr()
    assert companion_main(["score", str(seen["path"])]) == 0, "the pad saved as played, 12 towers"


def test_a_pad_only_looked_at_is_left_as_it_was(xdg: Path) -> None:
    # Opening a pad saved every field `show` filled in: its date became today's, and the README's pad, its
    # wall given as tiles, got `"wall": 0` beside them, which no scorer reads (gone from history unsaid).
    example = Path(__file__).parents[2] / "companion/games/alhambra/examples/two-players-and-dirk.json"
    pad = paths.games_dir() / "alhambra-20261114-100000.pad.json"
    pad.parent.mkdir(parents=True)
    pad.write_bytes(example.read_bytes())
    before = pad.stat().st_mtime_ns

    async def look() -> str:
        async with make_app().run_test(size=(110, 34)) as pilot:
            await pilot.press("enter")
            await pilot.pause()
            assert isinstance(pilot.app.screen, AlhambraPadScreen)
            return pilot.app.screen.query_one("#p0-wall", Input).value  # the last scoring's: Ann's tiles

    wall = asyncio.run(look())
    assert pad.read_bytes() == example.read_bytes() and pad.stat().st_mtime_ns == before
    assert wall not in ("", "0"), "a wall given as tiles shows its length"
    assert json.loads(_score_json(pad))["players"][0]["total"] > 0


def test_a_new_pad_refuses_a_second_dirk_and_never_writes_over_another(xdg: Path) -> None:
    # A player named Dirk beside the imaginary one made a pad that could never be scored; a second pad begun
    # in the same second took the first one's file.
    folder, now = paths.games_dir(), datetime(2026, 11, 23, 20, 15)
    with pytest.raises(PadError, match="the imaginary Dirk plays the third seat: another name"):
        new_pad(folder, ["Dirk", "Ben"], now)
    first = new_pad(folder, ["Dora", "Emil"], now)
    second = new_pad(folder, ["Hans", "Ida"], now)
    assert first != second and second.name == "alhambra-20261123-201500-2.pad.json"
    assert [p["name"] for p in json.loads(first.read_text())["players"]] == ["Dora", "Emil", "Dirk"]
    assert [path.name for path in saved_files(folder)] == sorted([first.name, second.name])


def test_ctrl_z_takes_back_the_pads_last_change_on_disk_too_and_ctrl_y_redoes_it(xdg: Path) -> None:
    """The pad had no undo: a ctrl+n too many made a finished game in history that nothing in the app could
    take back, and ctrl+z and ctrl+y did and said nothing. A count's typing is one change, however many
    digits; the pad is saved at each undo and redo as at every change."""
    seen: dict[str, Any] = {}

    def state(pad: AlhambraPadScreen) -> tuple[int, int, bool, str, str]:
        saved = json.loads(pad.path.read_text())
        garden = saved["players"][0]["scorings"][0]["buildings"]["garden"]
        last_said = list(pad.app._notifications)[-1].message
        shown = pad.query_one("#p0-garden", Input).value if pad.at == 0 else "-"
        return len(saved["players"][0]["scorings"]), garden, saved.get("extra_tower", False), shown, last_said

    async def fill() -> None:
        async with make_app().run_test(size=(110, 34)) as pilot:
            pad = await new_pad_for_ann_and_ben(pilot)
            seen["footer"] = [str(key.key_display) for key in pad.query("FooterKey")]  # type: ignore[attr-defined]
            pad.query_one("#p0-garden", Input).focus()
            await pilot.press("1", "2", "ctrl+n", "ctrl+n", "ctrl+n", "ctrl+t")
            for n in range(5):
                await pilot.press("ctrl+z")
                seen[f"undo {n}"] = state(pad)
            for n in range(2):
                await pilot.press("ctrl+y")
                seen[f"redo {n}"] = state(pad)
            await type_into(pilot, "p1-garden", "5")
            await pilot.press("ctrl+y")
            seen["redo after a change"] = state(pad)

    asyncio.run(fill())
    assert "^z" in seen["footer"] and "^y" in seen["footer"]
    undone = " (ctrl+y redoes it)"
    assert seen["undo 0"] == (3, 12, False, "-", f"undone: with the dice game's extra tower{undone}")
    assert seen["undo 1"] == (2, 12, False, "-", f"undone: scoring 3 started{undone}")
    assert seen["undo 2"] == (1, 12, False, "12", f"undone: scoring 2 started{undone}")
    assert seen["undo 3"] == (1, 0, False, "0", f"undone: Ann's garden in scoring 1{undone}")
    assert seen["undo 4"] == (1, 0, False, "0", "nothing to undo")
    assert seen["redo 0"] == (1, 12, False, "12", "redone: Ann's garden in scoring 1")
    assert seen["redo 1"] == (2, 12, False, "-", "redone: scoring 2 started")
    assert seen["redo after a change"][0] == 2 and seen["redo after a change"][-1] == "nothing to redo"
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert companion_main(["history", "--json"]) == 0
    assert json.loads(out.getvalue()) == [], "two scorings: not a finished game"


def test_undo_and_redo_pressed_quickly_save_nothing_of_their_own(xdg: Path) -> None:
    """Keys come faster than the fields say they changed: a field's change shown by an undo was taken as
    typed once a redo had shown another (a step of its own, undone first, that took nothing back)."""
    seen: dict[str, Any] = {}

    async def fill() -> None:
        async with make_app().run_test(size=(110, 34)) as pilot:
            pad = await new_pad_for_ann_and_ben(pilot)
            await pilot.press("ctrl+n", "3")
            for key in ("ctrl+z", "ctrl+z", "ctrl+y", "ctrl+y"):  # at once, as a terminal sends them
                pilot.app.post_message(events.Key(key, None))
            await pilot.pause(0.3)
            await pilot.press("ctrl+z")
            seen["undone"] = [s["buildings"]["pavilion"] for s in pad.pad["players"][0]["scorings"]]

    asyncio.run(fill())
    assert seen["undone"] == [0, 0]


def test_a_question_mark_typed_in_a_count_opens_the_help_as_on_every_games_screen(xdg: Path) -> None:
    """`?` opens the help "in a game" (the README, F1's first line): on the pad its count fields took the key
    and nothing happened; the count typed stays."""
    seen: dict[str, Any] = {}

    async def ask() -> None:
        async with make_app().run_test(size=(110, 34)) as pilot:
            pad = await new_pad_for_ann_and_ben(pilot)
            pad.query_one("#p0-garden", Input).focus()
            await pilot.press("2", "question_mark")
            await pilot.pause()
            seen["help"] = type(pilot.app.screen).__name__
            await pilot.press("escape")
            await pilot.pause()
            seen["count"] = pad.query_one("#p0-garden", Input).value

    asyncio.run(ask())
    assert seen == {"help": "HelpScreen", "count": "2"}
