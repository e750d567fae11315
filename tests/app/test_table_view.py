"""The table's view: `companion view` follows the game being played as its log grows, without writing to it;
`companion serve` hands that view to browsers."""

from __future__ import annotations

import asyncio
import html
import json
import random
import re
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from app_driver import random_game, saved_game, saved_log, text_of, wrapped_under
from rich.cells import cell_len
from textual.app import App
from textual.pilot import Pilot
from textual.widgets import Static

from companion.app import paths
from companion.app.sharing import free_port
from companion.app.table_view import TableView, newest_game
from companion.app.widgets.pad_table import counts_text
from companion.app.widgets.table_panel import scores_text, worth
from companion.cli import main
from companion.games import alhambra as al
from companion.games import alhambra_dice as ad
from companion.games import alhambra_rw as rw
from companion.games.alhambra.pad import PAD_PREFIX, PAD_SUFFIX
from companion.games.alhambra.report import scorings_text
from companion.games.alhambra_dice.entry import finished
from companion.games.alhambra_dice.events import ALCAZABA, STANDARD
from companion.games.alhambra_dice.scorefile import log_text as dice_log
from companion.games.alhambra_dice.simulate import play_random_game as play_dice_game
from companion.games.alhambra_rw.log import GameLog, write_log
from companion.games.alhambra_rw.simulate import play_random_game
from companion.games.entry import load
from companion.games.eventlog import log_text
from companion.games.table import PLAYED
from companion.games.words import listed

PLAYERS = ("Ann", "Ben", "Cleo", "Dora")


@pytest.fixture
def game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, list[rw.Event]]:
    """A 4-player game 60 events in, in the user's games folder, and the moves still to come."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    folder = tmp_path / "table-companion" / "games"
    folder.mkdir(parents=True)
    events = play_random_game(rw.GameStarted(rw.load_shipped_sheet("example"), PLAYERS), random.Random(3))[1]
    path = folder / "20261124-200000-ann-ben-cleo-dora.jsonl"
    write_log(path, events[:60])
    return path, events


def test_the_view_shows_every_grid_and_follows_the_moves_without_writing(
    game: tuple[Path, list[rw.Event]],
) -> None:
    path, events = game
    seen: dict[str, Any] = {}

    async def watch(pilot: Pilot[Any]) -> None:
        app = pilot.app
        assert isinstance(app, TableView)
        await pilot.pause(0.2)
        assert app.state is not None
        seen["round"] = app.state.round
        seen["grids"] = [str(w.border_title) for w in app.query(".grid")]
        seen["screen"] = app.export_screenshot()
        log = GameLog(path, rw.event_to_json)  # the game goes on at the table, to its end, as the app logs it
        with log:
            for event in events[60:]:
                log.append(event)
        for _ in range(40):
            await pilot.pause(0.1)
            if app.state.is_over:
                break
        seen["over"] = app.state.is_over
        seen["final"] = app.export_screenshot()
        await pilot.press("q")

    assert main(["view"], pilot=watch) == 0
    assert seen["round"] == rw.replay(events[:60]).round
    assert seen["grids"] == [f"{name}'s grid" for name in PLAYERS]
    assert "Worth&#160;so&#160;far" in seen["screen"]
    assert seen["over"] and "Final&#160;scoring" in seen["final"]
    whole = path.with_name("whole-game.txt")
    write_log(whole, events)
    assert path.read_bytes() == whole.read_bytes(), "the log holds the moves made, nothing the view wrote"


def test_a_missing_log_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["view", str(tmp_path / "nothing.jsonl")]) == 2
    assert "no such game log" in capsys.readouterr().err


EXAMPLES = Path(__file__).parents[2] / "companion" / "games"


@pytest.mark.parametrize(
    ("name", "said"),
    [
        # A photo named where a log was meant: said by its first line (it named a "lost event" on line 2).
        ("photo.jpg", "photo.jpg: line 1, column 1: not UTF-8 text (byte 0xff); save it as UTF-8"),
        # An end state: said to be one (it was "not valid JSON", of a valid file).
        ("end.json", "end.json: no game log but one JSON value (an end state? `companion score` scores it)"),
        # A game the table does not know: its value said, as `companion score` says it (it blamed the field).
        ("nope.jsonl", "nope.jsonl: game: unknown game 'nope' (known: "),
    ],
)
def test_a_file_that_is_no_game_log_is_said_to_be_what_it_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, said: str
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    path = tmp_path / name
    if name == "photo.jpg":
        path.write_bytes(b"\xff\xd8\xff\xe0\x00\x10JFIF\n\n\x00\x01\n\xff\xd9")
    elif name == "nope.jsonl":
        path.write_text('{"event":"game_started","game":"nope","players":["Ann","Ben"]}\n')
    else:
        path.write_bytes((EXAMPLES / "alhambra_rw" / "examples" / "example-game.json").read_bytes())
    seen: dict[str, str] = {}

    async def look(pilot: Pilot[Any]) -> None:
        await pilot.pause(0.2)
        seen["status"] = str(pilot.app.query_one("#status").render())
        await pilot.press("q")

    assert main(["view", str(path)], pilot=look) == 0
    assert seen["status"].startswith(f"cannot show {name}: {tmp_path}/{said}"), seen["status"]


def test_serve_answers_a_browser_on_the_port(
    game: tuple[Path, list[rw.Event]], served: Callable[[list[str], int], tuple[str, str]]
) -> None:
    port = free_port(0)
    companion = str(Path(sys.executable).parent / "companion")
    page, printed = served([companion, "serve", "--host", "127.0.0.1", "--port", str(port)], port)
    assert "Table companion" in page and f"ws://127.0.0.1:{port}/ws/" in page
    assert f"http://127.0.0.1:{port}/?token=" in printed


NAME = "20261123-201500-chr-chr-cleo.jsonl"


def on_screen(app: App[None]) -> str:
    """The text the screen shows now (only what is in view: nothing scrolled away)."""
    return html.unescape(app.export_screenshot()).replace("\xa0", " ")


def view_at(size: tuple[int, int], log: Path | None = None) -> Callable[[], Awaitable[tuple[str, TableView]]]:
    """The view of the newest game (or of `log`) at `size`: the text on its screen once it has read it."""

    async def look() -> tuple[str, TableView]:
        app = TableView(paths.games_dir(), log)
        async with app.run_test(size=size) as pilot:
            await pilot.pause(0.2)
            return on_screen(app), app

    return look


@pytest.mark.parametrize("variant", [STANDARD, ALCAZABA])
@pytest.mark.parametrize("size", [(40, 20), (80, 24)])
def test_a_finished_dice_games_winner_is_on_the_first_screen(
    xdg: Path, variant: str, size: tuple[int, int]
) -> None:
    """The view of a finished Alhambra dice game said "game over" and, under the board (with Alcazaba under
    every player's Alhambra too), "points so far" with no winner: on a phone, never in view."""
    names = ("Christopher A", "Christopher B", "Cleo")
    events = play_dice_game(ad.GameStarted(names, variant), random.Random(3))[1]
    saved_log(dice_log(events), NAME)
    ended = finished(events)
    assert ended is not None
    results, winners = ended
    shown, _ = asyncio.run(view_at(size)())
    assert "Final scoring" in shown and f"Winner: {' and '.join(winners)}" in shown, shown
    for result in results:
        assert f"{result.name}: {result.total}" in shown, shown
    assert "points so far" not in shown
    if size[0] >= 80:  # a line a player: each total with its scorings, as the end screen's table gives them
        for result in results:
            found = re.search(rf"{re.escape(result.name)}: {result.total} \(([^)]*)\)", shown)
            assert found, shown
            parts = [part.split() for part in found[1].split(" + ")]
            assert [heading for heading, _ in parts] == (
                ["A", "B", "C"] if variant == STANDARD else ["1", "2", "3"]
            )
            assert sum(int(points) for _, points in parts) == result.total


@pytest.mark.parametrize("size", [(40, 20), (80, 24)])
def test_a_finished_roll_and_writes_final_scoring_is_on_the_first_screen(
    xdg: Path, size: tuple[int, int]
) -> None:
    # It followed the whole score sheet: on a phone, below the first screen.
    events = random_game(2, ("Anna", "Ben", "Cleo"))
    saved_game(events, NAME)
    shown, _ = asyncio.run(view_at(size)())
    assert "Final scoring" in shown and "★" in shown, shown


@pytest.mark.parametrize("game_id", sorted(PLAYED))
def test_every_games_view_says_its_latest_move(xdg: Path, game_id: str) -> None:
    """Roll & Write's and Carcassonne's views never showed the dice just rolled (their top line says only
    what comes next: "then cross a building or take coins", "dice left 8"): every game's view says its
    latest move as the game's log words it, on one line."""
    game = PLAYED[game_id]
    assert game.random_game is not None and game.rules is not None
    events = game.random_game(3, random.Random(3))
    words = load(game.words)
    steps = list(game.rules.steps(events))
    at = next(n for n in range(20, len(steps)) if " rolled " in words(*steps[n])[0])
    saved_log(log_text(events[: at + 1], game.rules.log.encode), NAME)
    said = " / ".join(line.strip() for line in words(*steps[at]))

    async def latest(width: int) -> tuple[str, int]:
        async with TableView(paths.games_dir()).run_test(size=(width, 20)) as pilot:
            await pilot.pause(0.2)
            line = pilot.app.query_one("#latest", Static)
            return str(line.render()), line.size.height

    assert asyncio.run(latest(110)) == (f"last move: {said}", 1)
    assert asyncio.run(latest(40))[1] == 1, "one row on a phone, cut at its width"


POINTS: dict[str, Callable[[Any], dict[str, int]]] = {
    "alhambra-roll-and-write": lambda s: {p.name: p.total for p in rw.score_so_far(s).players},
    "alhambra-dice": lambda s: dict(zip(s.names, ad.score_state(s).totals, strict=True)),
    "carcassonne-dice": lambda s: dict(zip(s.names, s.scores, strict=True)),
}
"""Each logged game's points so far by player (none of these games has an imaginary player)."""


def view_text(width: int) -> list[str]:
    """Every line of the view's panel, each panel drawn `width` wide."""

    async def look() -> list[str]:
        async with TableView(paths.games_dir()).run_test(size=(width, 34)) as pilot:
            await pilot.pause(0.2)
            panels = pilot.app.query("#body Static").results(Static)
            return [line.strip() for panel in panels for line in text_of(panel, width).splitlines()]

    return asyncio.run(look())


@pytest.mark.parametrize("over", [False, True])
@pytest.mark.parametrize("game_id", sorted(POINTS))
def test_every_games_view_names_who_leads_and_who_won_alike(xdg: Path, game_id: str, over: bool) -> None:
    """Only the pad's view named who led; at the end Roll & Write's marked its winner with a star alone (its
    name cut on a phone) where the others said "Winner: X". Every view says it in the same words."""
    game = PLAYED[game_id]
    assert game.random_game is not None and game.rules is not None and game.records is not None
    events = game.random_game(3, random.Random(3))
    played = events if over else events[: len(events) * 2 // 3]
    saved_log(log_text(played, game.rules.log.encode), NAME)
    if over:
        ended = game.records.finished(events)
        assert ended is not None
        winners = ended[1]
        said = f"{'Winners' if len(winners) > 1 else 'Winner'}: {listed(winners)}"
    else:
        points = POINTS[game_id](game.rules.replay(played))
        best = max(points.values())
        assert best > 0, points
        said = f"Leading: {listed(n for n, p in points.items() if p == best)}"
    for width in (40, 110):
        lines = view_text(width)
        assert sum(line.startswith(said) for line in lines) == 1, (width, said, lines)
        assert not any(line.startswith("Winner" if not over else "Leading") for line in lines), lines


def alhambra_pad(pad: dict[str, Any]) -> None:
    folder = paths.games_dir()
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{PAD_PREFIX}20261123-201500{PAD_SUFFIX}").write_text(json.dumps(pad))


PAD = json.loads((EXAMPLES / "alhambra" / "examples" / "two-players-and-dirk.json").read_text())


@pytest.mark.parametrize("size", [(40, 20), (80, 24)])
def test_the_pads_totals_and_winner_come_first(xdg: Path, size: tuple[int, int]) -> None:
    """The pad's totals and its winner were the last line of a breakdown some 185 lines long."""
    alhambra_pad(PAD)
    shown, _ = asyncio.run(view_at(size)())
    assert "Final scoring" in shown and "Winner: Ann" in shown, shown
    assert "Ann: 129" in shown and "Dirk (imaginary): 82" in shown, shown


def test_the_pad_leads_before_its_last_scoring(xdg: Path) -> None:
    two = {**PAD, "players": [{**p, "scorings": p["scorings"][:2]} for p in PAD["players"]]}
    alhambra_pad(two)
    shown, _ = asyncio.run(view_at((40, 20))())
    assert "Totals after scoring 2 of 3" in shown and "Leading: " in shown, shown


@pytest.mark.parametrize("width", [45, 110])
def test_the_pads_scorings_wrap_each_reason_under_the_reasons(xdg: Path, width: int) -> None:
    """The pad's "Scorings so far" was its plain text: at a phone's width each long reason's rest ran back to
    the box's edge, under the buildings and names. It wraps as every other breakdown does: under the reasons,
    or on a phone two past its row's start."""
    alhambra_pad(PAD)
    text = scorings_text(al.score_game(al.read_scorings(PAD, al.load_buildings())))

    async def look() -> tuple[Static, int]:
        async with TableView(paths.games_dir()).run_test(size=(width, 40)) as pilot:
            await pilot.pause(0.2)
            panel = pilot.app.query_one("#breakdown", Static)
            return panel, panel.content_size.width

    panel, inside = asyncio.run(look())
    wrapped = 0
    for line, rest in wrapped_under(text, text_of(panel, inside).splitlines()):
        start = len(line) - len(line.lstrip())
        reason = re.match(r"\s*\S.*?\d  (?=\S)", line)
        under = start if reason is None else reason.end() if inside - reason.end() >= 24 else start + 2
        assert set(rest) <= {under}, f"{line!r} went on at {rest} at {inside} columns, not at {under}"
        wrapped += bool(rest) and reason is not None
    assert wrapped or width > 45, "a reason wrapped"


@pytest.mark.parametrize("width", [30, 33, 34, 40, 80])
def test_the_pads_counts_fit_the_width_and_keep_names_apart(width: int) -> None:
    """At 40 columns with the scrollbar (34 left) the heading's `wall` wrapped onto a line of its own, and
    every name was cut to 7 letters: "Christopher A" and "Christopher B" read the same."""
    names = ["Christopher A", "Christopher B", "Dirk"]
    pad = {**PAD, "players": [{**p, "name": n} for p, n in zip(PAD["players"], names, strict=True)]}
    lines = counts_text(pad, width).plain.splitlines()
    assert all(cell_len(line) <= width for line in lines), lines
    heading, *rows = lines
    assert len(heading.split()) == 8, heading
    shown = [row.rsplit(maxsplit=7)[0] for row in rows]  # each name, before its seven counts
    assert len(set(shown)) == 3 and all(c.isdigit() or c == "-" for row in rows for c in row.split()[-7:]), (
        rows
    )
    assert shown == names if width >= 34 else all("…" in n for n in shown[:2]), shown


@pytest.mark.parametrize(
    ("width", "names"), [(40, ["Christ…A", "Chri…B ★"]), (80, ["Christopher A", "Christopher B ★"])]
)
def test_roll_and_writes_final_scoring_keeps_names_apart(xdg: Path, width: int, names: list[str]) -> None:
    """The final scoring cut every name to 8 letters, the winner's to 6, at any width: "Christopher A" and
    "Christopher B" read the same. Now as long as the width lets them be, cut keeping the last letter."""
    events = random_game(2, ("Christopher A", "Christopher B", "Cleo"))
    assert rw.score_game(rw.replay(events)).winners == ("Christopher B",)
    saved_game(events, NAME)

    async def scores() -> list[str]:
        async with TableView(paths.games_dir()).run_test(size=(width, 30)) as pilot:
            await pilot.pause(0.2)
            panel = pilot.app.query_one("#scores", Static)
            return text_of(panel, panel.content_size.width).splitlines()

    rows = asyncio.run(scores())[1:]
    assert [row[: len(name)] for row, name in zip(rows, names, strict=False)] == names, rows


def test_the_view_marks_the_imaginary_players_in_the_scores() -> None:
    # The sheet above marked them; the scores below read "Marc 0" as a player who lost.
    setup = rw.GameStarted(rw.load_shipped_sheet("example"), ("Ann",), ("Marc", "Otto"), "versus-imaginary")
    state = rw.replay(play_random_game(setup, random.Random(3))[1])
    rows = scores_text(worth(state)).plain.splitlines()[1:4]
    assert [row.split()[:2] for row in rows][1:] == [["Marc", "◇"], ["Otto", "◇"]]
    assert rows[0].split()[1].isdecimal(), "Ann is no imaginary player"


@pytest.mark.parametrize("gone", ["deleted", "emptied"])
def test_a_followed_log_gone_is_named_and_its_board_marked_out_of_date(xdg: Path, gone: str) -> None:
    """The log followed deleted, the view said "no game yet in <games folder>" (it follows the file, not the
    folder) above the last board as if it were current; emptied, it said so above the board, as current."""
    events = play_dice_game(ad.GameStarted(("Ann", "Ben")), random.Random(3))[1]
    path = saved_log(dice_log(events[:30]), NAME)
    seen: dict[str, Any] = {}

    async def watch(pilot: Pilot[Any]) -> None:
        await pilot.pause(0.2)
        seen["before"] = pilot.app.screen.has_class("-stale")
        if gone == "deleted":
            path.unlink()
        else:
            path.write_bytes(b"")
        await pilot.pause(0.8)
        seen["status"] = str(pilot.app.query_one("#status", Static).render())
        seen["stale"] = pilot.app.screen.has_class("-stale")
        path.write_text(dice_log(events[:40]))
        await pilot.pause(0.8)
        seen["back"] = (pilot.app.screen.has_class("-stale"), str(pilot.app.query_one("#status").render()))
        await pilot.press("q")

    assert main(["view", str(path)], pilot=watch) == 0
    assert not seen["before"] and seen["stale"], seen
    said = f"{NAME} is gone (deleted or moved)" if gone == "deleted" else f"cannot show {NAME}: "
    assert seen["status"].startswith(said) and "out of date" in seen["status"], seen["status"]
    assert str(paths.games_dir()) + ":" not in seen["status"]
    assert seen["back"][0] is False and "out of date" not in seen["back"][1], seen["back"]


def test_the_newest_game_passes_a_link_to_nothing_by(xdg: Path) -> None:
    """A broken symlink named *.jsonl in the games folder crashed `companion view` (its `stat` failed)."""
    path = saved_game(random_game(2, ("Ann", "Ben", "Cleo")), NAME)
    (path.parent / "zzz.jsonl").symlink_to(path.parent / "nowhere.jsonl")
    assert newest_game(path.parent) == path


@pytest.mark.parametrize("web", [False, True])
def test_a_phones_view_has_no_key_that_ends_it(xdg: Path, monkeypatch: pytest.MonkeyPatch, web: bool) -> None:
    """On a phone (the view in a browser) a tap on the footer's "^q quit", or a q typed, ended that phone's
    view ("Session ended."): there it has no quit key, nor a footer to tap; in a terminal both stay."""
    saved_game(random_game(2, ("Ann", "Ben", "Cleo")), NAME)
    monkeypatch.setattr(TableView, "is_web", property(lambda self: web))
    seen: dict[str, Any] = {}

    async def look() -> None:
        app = TableView(paths.games_dir())
        async with app.run_test(size=(45, 20)) as pilot:
            await pilot.pause(0.2)
            seen["shown"] = on_screen(app)
            for key in ("q", "ctrl+q"):
                await pilot.press(key)
                await pilot.pause()
                seen[key] = app.is_running

    asyncio.run(look())
    assert ("quit" in seen["shown"]) is not web, seen["shown"]
    assert seen["q"] is web and seen["ctrl+q"] is web
