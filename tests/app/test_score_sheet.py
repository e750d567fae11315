"""The shared score sheet's name column: every name told apart and the boxes in line. Names were cut to 9
characters at every width ("Christopher A" and "Christopher B" both read "Christoph"), and a name of wide
characters (李, emoji) pushed its row's boxes under the next type's heading."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path

from app_driver import continue_first, make_app, random_game, saved_game, text_of
from rich.cells import cell_len

from companion.app import paths
from companion.app.screens.roll_and_write import RollAndWriteScreen
from companion.app.widgets.score_sheet import ScoreSheet, score_sheet_text
from companion.games import alhambra_rw as rw


def rows(names: tuple[str, ...], width: int) -> list[str]:
    state = rw.start(rw.GameStarted(rw.load_shipped_sheet("example"), names))
    return score_sheet_text(state, width).plain.splitlines()


def test_names_are_shown_whole_where_they_fit_and_told_apart_where_cut() -> None:
    names = ("Christopher A", "Christopher B", "Christina")
    for width in (80, 110):
        shown = rows(names, width)[2:5]
        assert [row[1:].split(" □")[0].rstrip() for row in shown] == list(names), shown
    cut = [row[1:].split(" □")[0].rstrip() for row in rows(names, 40)[2:5]]
    assert len(set(cut)) == 3 and cut[0].endswith("…A") and cut[1].endswith("…B"), cut


def test_the_boxes_start_in_one_column_whatever_the_names_letters() -> None:
    for width in (40, 80):
        shown = rows(("李小龍李小龍李小龍", "🎲🎲🎲🎲🎲🎲", "Ann"), width)
        starts = {cell_len(row[: row.index("□")]) for row in shown[2:5]}
        assert len(starts) == 1 and cell_len(shown[0][: shown[0].index("pavilion")]) in starts, shown


def test_a_place_taken_during_the_game_is_marked_in_the_text_too(xdg: Path) -> None:
    """A place taken was only struck through and dimmed: a terminal without strikethrough, or a plain-text
    capture, showed it open. Taken places are bracketed, as a crossed cell of the grid ([P]); the columns
    stay in line with their headings, and every place taken still fits 80 columns in one block."""
    events = random_game(1, ("Anna", "Ben", "Cleo"))
    taken = next(n for n in range(1, len(events)) if any(rw.replay(events[:n]).places_taken))
    assert rw.replay(events[:taken]).places_taken == (0, 1, 0, 0, 0, 0)
    saved_game(events[:taken], "a.jsonl")

    async def look() -> tuple[str, int]:
        async with make_app().run_test(size=(80, 24)) as pilot:
            _, screen = await continue_first(pilot, RollAndWriteScreen, paths.games_dir() / "a.jsonl")
            sheet = screen.query_one("#sheet", ScoreSheet)
            return text_of(sheet), sheet.content_region.width

    shown, width = asyncio.run(look())
    heading, vp = shown.splitlines()[:2]
    assert vp.split() == ["VP", "1/2/3", "16", "8", "1", "[17]", "9", "2", *vp.split()[8:]], vp
    assert vp.count("[") == 1, vp
    starts = [heading.index(name) for name in rw.BUILDING_TYPES]
    under = [vp[start - 1 : start + 1] for start in starts]
    assert under == [" 1", " [", " 1", " 1", " 2", " 2"], (heading, vp)
    every = replace(rw.replay(events[:taken]), places_taken=(3,) * len(rw.BUILDING_TYPES))
    assert len(score_sheet_text(every, width).plain.splitlines()) == 2 + 3, "one block: the players' rows"


def test_the_games_screen_shows_each_players_total_so_far_in_line_with_the_sheet(xdg: Path) -> None:
    """The players saw boxes and coins on Roll & Write's screen, never who is ahead (the table's view and
    the export said it): the sheet ends each row with the total the sheet is worth if the game ended now."""
    events = random_game(1, ("Anna", "Ben", "Cleo"))
    half = events[: len(events) // 2]
    saved_game(half, "a.jsonl")
    board = rw.score_so_far(rw.replay(half))

    async def look(size: tuple[int, int]) -> str:
        async with make_app().run_test(size=size) as pilot:
            _, screen = await continue_first(pilot, RollAndWriteScreen, paths.games_dir() / "a.jsonl")
            return text_of(screen.query_one("#sheet", ScoreSheet))

    for size in ((80, 24), (110, 34)):
        heading, under, *players = asyncio.run(look(size)).splitlines()[:5]
        assert heading.split()[-2:] == ["coins", "total"] and under.split()[-2:] == ["so", "far"], heading
        assert [row.split()[-1] for row in players] == [str(p.total) for p in board.players], players
        assert {len(row.rstrip()) for row in players} == {len(heading.rstrip())}, "the totals in one column"
    assert "total" not in score_sheet_text(rw.replay(half), 110).plain, "the table's view has a panel for it"
    over = rw.replay(events)
    final = score_sheet_text(over, 110, totals=True).plain.splitlines()
    assert final[1].split()[-1] == "final"
    assert [row.split()[-1] for row in final[2:5]] == [str(p.total) for p in rw.score_game(over).players]
