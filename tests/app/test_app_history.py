"""Past games in the app: F4 on the start screen lists the finished games, plots the highlighted one's score
round by round, and replays it move by move."""

from __future__ import annotations

import asyncio
import random
import re
from pathlib import Path
from typing import Any

import pytest
from app_driver import make_app, random_game, saved_game, saved_log, text_of
from rich.cells import cell_len
from rich.text import Text
from textual.app import App, ComposeResult
from textual.widget import Widget
from textual.widgets import OptionList, Static
from textual_plotext import PlotextPlot

from companion.app.screens import history as history_screen
from companion.app.screens.history import HistoryScreen, ScorePlot, integer_ticks, legend_names
from companion.app.screens.replay import ReplayScreen
from companion.app.widgets.alhambra_board import AlhambraTable
from companion.app.widgets.carcassonne_pad import CarcassonneTable
from companion.app.widgets.table_panel import TablePanel
from companion.games import alhambra as al
from companion.games import alhambra_dice as ad
from companion.games import alhambra_rw as rw
from companion.games import carcassonne_dice as cd
from companion.games.alhambra_dice.scorefile import log_text as alhambra_dice_log
from companion.games.alhambra_dice.simulate import play_random_game as play_random_alhambra_dice
from companion.games.alhambra_rw.simulate import play_random_game
from companion.games.carcassonne_dice.scorefile import log_text as carcassonne_log
from companion.games.carcassonne_dice.simulate import play_random_game as play_random_carcassonne
from companion.history import FinishedGame, Progress, totals_by_round


def test_totals_by_round_are_the_sheets_worth_as_each_round_began() -> None:
    events = random_game(4, ("Anna", "Ben"), ("Dirk",))
    names, totals = totals_by_round(events)
    assert names == ("Anna", "Ben") and len(totals) == rw.replay(events).rounds + 1
    final = rw.score_game(rw.replay(events))
    assert totals[-1] == tuple(p.total for p in final.players if not p.imaginary)


def test_past_games_are_listed_plotted_and_replayed(xdg: Path) -> None:
    events = random_game(2, ("Anna", "Ben", "Cleo"))
    saved_game(events, "done.jsonl")
    saved_game(events[:30], "playing.jsonl")
    seen: dict[str, Any] = {}

    async def look() -> None:
        async with make_app().run_test(size=(100, 32)) as pilot:
            await pilot.press("f4")
            await pilot.pause()
            screen = pilot.app.screen
            assert isinstance(screen, HistoryScreen)
            seen["games"] = screen.query_one("#games", OptionList).option_count
            seen["label"] = str(screen.query_one("#games", OptionList).get_option_at_index(0).prompt)
            seen["result"] = str(screen.query_one("#result", Static).render())
            seen["plotted"] = screen.plotted
            seen["plot"] = re.sub(
                r"\x1b\[[\d;]*m", "", screen.query_one(PlotextPlot).plt.build()
            )  # no colours
            await pilot.press("r", "right", "right", "right")
            replay = pilot.app.screen
            assert isinstance(replay, ReplayScreen)
            seen["status"] = str(replay.query_one("#status", Static).render())
            seen["shown"] = replay.states[replay.at]
            await pilot.press("end")
            seen["last"] = str(replay.query_one(TablePanel).query_one("#scores").border_title)
            await pilot.press("escape", "escape")
            seen["back"] = type(pilot.app.screen).__name__

    asyncio.run(look())
    assert seen["games"] == 1, "the game still being played is not a past game"
    assert " · Alhambra Roll & Write · Anna " in seen["label"], "the game by its title, not its files' id"
    assert "done.jsonl: won by" in seen["result"]
    assert (seen["plotted"].names, seen["plotted"].totals) == totals_by_round(events)
    # The axes count whole rounds and points: no tick like 5.5 or 79.7.
    assert " 10 " in seen["plot"] and "40┤" in seen["plot"] and not re.search(r"\d\.\d", seen["plot"]), seen[
        "plot"
    ]
    # Each tick on the score's axis, 0 too: plotext's axis spanned the points alone, and drew a tick below
    # them among the rounds' numbers.
    points = [total for totals in seen["plotted"].totals for total in totals]
    ticks = integer_ticks(min(0, *points), max(points))
    assert all(re.search(rf"(^| ){tick}┤", seen["plot"], re.M) for tick in ticks), (ticks, seen["plot"])
    assert seen["status"].startswith(f"move 3 of {len(events) - 1}: ")
    assert seen["shown"] == rw.replay(events[:4])
    assert seen["last"] == "Final scoring" and seen["back"] == "StartScreen"


def test_the_replay_steps_by_its_keys_at_80x24(xdg: Path) -> None:
    """At 80×24 PageDown, PageUp, Home and End scrolled a panel instead of moving through the game."""
    events = random_game(2, ("Anna", "Ben", "Cleo"))
    saved_game(events, "done.jsonl")
    seen: list[int] = []

    async def look() -> None:
        async with make_app().run_test(size=(80, 24)) as pilot:
            await pilot.press("f4")
            await pilot.pause()
            await pilot.press("r", "right")
            replay = pilot.app.screen
            assert isinstance(replay, ReplayScreen)
            for key in ("pagedown", "pageup", "end", "home"):
                await pilot.press(key)
                seen.append(replay.at)

    asyncio.run(look())
    assert seen == [11, 1, len(events) - 1, 0]


@pytest.mark.parametrize("game", ["alhambra-dice", "carcassonne-dice"])
def test_the_dice_games_are_replayed_move_by_move_too(xdg: Path, game: str) -> None:
    """F4's `r` did nothing for the dice games (the footer offered it all the same): each is replayed on its
    table view, every move in the words of its game log, the camera's frame where a roll kept one."""
    if game == "alhambra-dice":
        events: list[Any] = play_random_alhambra_dice(ad.GameStarted(("Ann", "Ben")), random.Random(3))[1]
        saved_log(alhambra_dice_log(events), "done.jsonl")
        view: type[Widget] = AlhambraTable
    else:
        events = play_random_carcassonne(cd.GameStarted(("Ann", "Ben")), random.Random(3))[1]
        saved_log(carcassonne_log(events), "done.jsonl")
        view = CarcassonneTable
    seen: dict[str, Any] = {}

    async def look() -> None:
        async with make_app().run_test(size=(110, 34)) as pilot:
            await pilot.press("f4")
            await pilot.pause()
            seen["result"] = str(pilot.app.screen.query_one("#result", Static).render())
            await pilot.press("r", "right")
            replay = pilot.app.screen
            assert isinstance(replay, ReplayScreen)
            seen["first"] = (str(replay.query_one("#status", Static).render()), replay.states[replay.at])
            await pilot.press("end")
            seen["last"] = (str(replay.query_one("#status", Static).render()), len(replay.query(view)))

    asyncio.run(look())
    assert "replay" not in seen["result"], seen["result"]
    status, state = seen["first"]
    assert status.startswith(f"move 1 of {len(events) - 1}: ") and state is not None, status
    status, views = seen["last"]
    assert status.startswith(f"move {len(events) - 1} of {len(events) - 1}: ") and views == 1, status


def test_the_footer_offers_the_replay_only_for_a_game_it_replays(xdg: Path) -> None:
    """F4's footer offered `r` on a scoring pad too, where it only said there is no replay."""
    saved_game(random_game(2, ("Anna", "Ben", "Cleo")), "done.jsonl")
    pad = (Path(al.__file__).parent / "examples" / "two-players-and-dirk.json").read_text()
    saved_log(pad, "alhambra-20261202-190000.pad.json")
    offered: dict[str, bool] = {}

    async def look() -> None:
        async with make_app().run_test(size=(110, 34)) as pilot:
            await pilot.press("f4")
            await pilot.pause()
            screen = pilot.app.screen
            assert isinstance(screen, HistoryScreen) and len(screen.games) == 2
            for at in (0, 1):
                screen.query_one("#games", OptionList).highlighted = at
                await pilot.pause()
                offered[screen.games[at].game] = "replay" in {
                    b.binding.action for b in screen.active_bindings.values() if b.enabled
                } and bool(screen.check_action("replay", ()))

    asyncio.run(look())
    assert offered == {"alhambra-roll-and-write": True, "alhambra": False}, offered


def test_no_finished_game_says_so_without_an_empty_plot(xdg: Path) -> None:
    """F4 before any game was over drew an empty plot frame beside an empty list, the reason a line under
    them."""
    saved_game(random_game(2, ("Anna", "Ben", "Cleo"))[:30], "playing.jsonl")

    async def look() -> tuple[bool, str]:
        async with make_app().run_test(size=(100, 32)) as pilot:
            await pilot.press("f4")
            await pilot.pause()
            screen = pilot.app.screen
            return screen.query_one(PlotextPlot).display, str(screen.query_one("#result", Static).render())

    plotted, said = asyncio.run(look())
    assert not plotted and said.startswith("No finished games yet: a game is listed here once it is over")


def test_a_solo_game_against_the_imaginary_players_shows_them_as_rivals(xdg: Path) -> None:
    """Playing against the imaginary players, they are the ones to beat: F4 listed and plotted the player
    alone ("Anna 71 · won by Marc", Marc's total nowhere), and the replay's worth so far had totals more
    than their rows' sums (the extra points in no column)."""
    setup = rw.GameStarted(rw.load_shipped_sheet("example"), ("Anna",), ("Marc", "Nora"), rw.VERSUS_IMAGINARY)
    events = play_random_game(setup, random.Random(5))[1]
    saved_game(events, "solo.jsonl")
    final = rw.score_game(rw.replay(events))

    async def look() -> tuple[str, tuple[str, ...], str]:
        async with make_app().run_test(size=(100, 32)) as pilot:
            await pilot.press("f4")
            await pilot.pause()
            screen = pilot.app.screen
            assert isinstance(screen, HistoryScreen)
            label = str(screen.query_one("#games", OptionList).get_option_at_index(0).prompt)
            names = screen.plotted.names
            await pilot.press("r", "end")
            replay = pilot.app.screen
            assert isinstance(replay, ReplayScreen)
            return label, names, text_of(replay.query_one(TablePanel).query_one("#scores", Static))

    label, names, scores = asyncio.run(look())
    marc = next(p for p in final.players if p.name == "Marc")
    assert f"Anna {final.players[0].total}, Marc ◇ {marc.total}, Nora ◇ " in label, label
    assert names == ("Anna", "Marc ◇", "Nora ◇")
    assert f"imaginary players +{marc.extra} extra each" in scores and marc.extra > 0, scores


def plot_text(screen: HistoryScreen) -> str:
    """The plot as drawn last, without its colours."""
    return re.sub(r"\x1b\[[\d;]*m", "", screen.query_one(ScorePlot).plt.build())


def f4_plot(size: tuple[int, int]) -> str:
    """F4's plot of the games saved, on a terminal of `size`."""

    async def look() -> str:
        async with make_app().run_test(size=size) as pilot:
            await pilot.press("f4")
            await pilot.pause()
            screen = pilot.app.screen
            assert isinstance(screen, HistoryScreen)
            return plot_text(screen)

    return asyncio.run(look())


def test_a_plot_of_no_totals_is_drawn_empty() -> None:
    """A game listed from a read-back with no player's totals to plot (a pad a rule checked since refuses):
    F4 ended the app with a traceback."""

    class Plotted(App[None]):
        def compose(self) -> ComposeResult:
            yield ScorePlot(id="plot")

    async def look() -> str:
        async with Plotted().run_test(size=(80, 24)) as pilot:
            plot = pilot.app.query_one(ScorePlot)
            plot.show(Progress((), [()], "scoring"))
            await pilot.pause()
            return str(plot.plt.build())

    assert "each player's score" in asyncio.run(look())


def test_the_plot_counts_steps_from_the_start(xdg: Path) -> None:
    """The first point is the start (all 0), yet was step 1: 3 scorings read `scoring 1 2 3 4`. The start is
    0 and the last tick the last scoring."""
    _, events = play_random_alhambra_dice(ad.GameStarted(("Ann", "Ben")), random.Random(3))
    saved_log(alhambra_dice_log(events), "dice.jsonl")

    async def look() -> str:
        async with make_app().run_test(size=(100, 32)) as pilot:
            await pilot.press("f4")
            await pilot.pause()
            screen = pilot.app.screen
            assert isinstance(screen, HistoryScreen) and len(screen.plotted.totals) == 4
            return plot_text(screen)

    plot = asyncio.run(look())
    x_axis = plot.splitlines()[-2:]
    assert x_axis[0].split() == ["0", "1", "2", "3"], plot
    assert x_axis[1].strip() == "scoring (0 = the start)", plot


@pytest.mark.parametrize("size", [(80, 24), (40, 30)])
def test_the_plot_keeps_its_legend_with_the_longest_names(xdg: Path, size: tuple[int, int]) -> None:
    """With a 40-character name (the longest allowed) the legend was left out at 80×24 and 40×30: the names
    are cut to fit, each still told apart."""
    long = "A" * 39
    setup = rw.GameStarted(rw.load_shipped_sheet("example"), (f"{long}x", f"{long}y", "Cleo"), ())
    saved_game(play_random_game(setup, random.Random(2))[1], "done.jsonl")

    plot = f4_plot(size)
    for name in (r"A+…A*x", r"A+…A*y", "Cleo"):
        assert re.search(rf"(\S)\1 {name} ", plot), (name, plot)


def test_each_players_line_has_its_own_marker_shown_in_the_legend(xdg: Path) -> None:
    """Every line was drawn ▞▞, the players told apart by colour alone: red and green for a colour-blind
    player, two greys alike under NO_COLOR."""
    names = ("Anna", "Ben", "Cleo", "Dora", "Emil")
    saved_game(random_game(4, names), "done.jsonl")

    plot = f4_plot((100, 32))
    legend = {name: re.search(rf"(\S)\1 {name} ", plot) for name in names}
    markers = [found.group(1) if found else "" for found in legend.values()]
    assert all(markers) and len(set(markers)) == len(names), (markers, plot)
    # Inside the frame, right of the score's ticks, without the legend: the lines alone.
    canvas = re.findall(r"^[^┤│]*[┤│](.*)$", re.sub(rf"(\S)\1 ({'|'.join(names)}) ", "", plot), re.M)
    assert all(marker in "".join(canvas) for marker in markers), (markers, plot)


def test_legend_names_are_cut_to_their_columns_and_told_apart() -> None:
    alike = ("x" * 20 + "a" + "x" * 19, "x" * 20 + "b" + "x" * 19)
    assert legend_names(("Ann", "Ben"), 3) == ("Ann", "Ben")
    assert legend_names(("Anna" + "x" * 36, "Anne" + "x" * 36), 10) == ("Annax…xxxx", "Annex…xxxx")
    assert legend_names(alike, 10) == ("1. xx…xxxx", "2. xx…xxxx")
    assert legend_names(("日本語" * 7,), 10) == ("日本…本語",), "a wide character is 2 columns"


def test_a_legend_of_wide_names_keeps_the_plots_rows_in_their_columns(xdg: Path) -> None:
    """plotext gives a legend's character one column: 李小龍's row ran 3 columns past the frame, its points
    pushed onto the next row. An accent typed apart (e + ◌̈) took a column and showed none."""
    names = ("Jürgen", "李小龍", "Zoe\u0308🎲")
    saved_game(random_game(4, names), "done.jsonl")

    async def look() -> tuple[int, list[str]]:
        async with make_app().run_test(size=(110, 34)) as pilot:
            await pilot.press("f4")
            await pilot.pause()
            plot = pilot.app.screen.query_one(ScorePlot)
            drawn = plot.render()
            assert isinstance(drawn, Text)
            return plot.size.width, [line.plain for line in drawn.split("\n")]

    width, rows = asyncio.run(look())
    plot = "\n".join(rows)
    assert all(cell_len(row) == width for row in rows), plot
    for name in ("Jürgen", "李小龍", "Zoë🎲"):
        assert re.search(rf"^ *│ (\S)\1 {name} .*│$", plot, re.M), (name, plot)
    frame = [row for row in rows if row.rstrip().endswith(("│", "┐", "┘"))]
    assert len({cell_len(row.rstrip()) for row in frame}) == 1, plot


def test_moving_through_the_games_plots_the_one_the_highlight_rests_on(
    xdg: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each highlight read and replayed its game's log again for the plot: with 300 games ↓ took a sixth of a
    second a press, and a key held down stuttered. Moving on, only the game the highlight rests on is read."""
    for n in range(8):
        saved_game(random_game(n, (f"Player{n}", "Ben", "Cleo")), f"2025010{n + 1}-120000.jsonl")
    monkeypatch.setattr(history_screen, "REST_SECONDS", 1.0)  # longer than a press of a loaded machine
    read: list[str] = []
    progress = FinishedGame.progress

    def counted(game: FinishedGame) -> Progress:
        read.append(game.path.name)
        return progress(game)

    monkeypatch.setattr(FinishedGame, "progress", counted)

    async def look() -> tuple[list[str], int | None, tuple[str, ...], str]:
        async with make_app().run_test(size=(100, 32)) as pilot:
            await pilot.press("f4")
            await pilot.pause()
            screen = pilot.app.screen
            assert isinstance(screen, HistoryScreen)
            await pilot.press(*["down"] * 6)
            moving = list(read)
            await pilot.pause(1.5)
            highlighted = screen.query_one("#games", OptionList).highlighted
            result = str(screen.query_one("#result", Static).render())
            return moving, highlighted, screen.plotted.names, result

    moving, highlighted, plotted, result = asyncio.run(look())
    assert moving == ["20250108-120000.jsonl"], "the game first highlighted alone, none moved through"
    assert highlighted == 6 and read == [*moving, "20250102-120000.jsonl"], read
    assert plotted[0] == "Player1" and result.startswith("20250102-120000.jsonl: won by "), result
