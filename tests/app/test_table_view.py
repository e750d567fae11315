"""The table's view: `companion view` follows the game being played as its log grows, without writing to it;
`companion serve` hands that view to browsers."""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from companion.app.sharing import free_port
from companion.app.table_view import TableView
from companion.cli import main
from companion.games import alhambra_rw as rw
from companion.games.alhambra_rw.log import GameLog, write_log
from companion.games.alhambra_rw.simulate import play_random_game

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
