"""A finished game's exported scoring once an undo takes the game back into play: in every game the
scoring exported at its end (`GAME.score.md`, `GAME.score.json`) is removed, as its winners are no longer
the game's, and the undo says so; the camera's frames (`GAME.frames.zip`), which claim no result, stay. An
export that is written only in part says which files were written and why the next one was not."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

import pytest
from app_driver import make_app, random_game, saved_game, saved_log
from textual.pilot import Pilot
from textual.widgets import Static

from companion.app.screens.alhambra_pad import AlhambraPadScreen
from companion.app.screens.end import EndScreen
from companion.app.screens.event_game import EventGameScreen
from companion.app.screens.roll_and_write import RollAndWriteScreen
from companion.games import alhambra_dice as ad
from companion.games import carcassonne_dice as cd
from companion.games.carcassonne_dice.scorefile import log_text
from companion.games.carcassonne_dice.simulate import play_random_game
from companion.live.frames import frames_dir

SIZE = (100, 32)
REMOVED = "removed: the game is not over"


def exports(log: Path, stem: str) -> list[Path]:
    return [log.with_name(f"{stem}.score.md"), log.with_name(f"{stem}.score.json")]


async def exported_at_its_end(pilot: Pilot[None]) -> None:
    """The finished game listed first opened on its end screen, and its scoring exported (ctrl+e)."""
    await pilot.press("enter")
    await pilot.pause()
    assert isinstance(pilot.app.screen, EndScreen)
    await pilot.press("ctrl+e")
    await pilot.pause()


def undone_game(log: Path, undo: str) -> tuple[list[bool], list[bool], str]:
    """A finished game opened on its end screen, exported, back to the game and its last move undone: whether
    each export was there after the export, and after the undo; what the undo said."""
    files = exports(log, log.name.removesuffix(".jsonl"))
    seen: dict[str, Any] = {}

    async def play() -> None:
        async with make_app().run_test(size=SIZE) as pilot:
            await exported_at_its_end(pilot)
            seen["exported"] = [path.is_file() for path in files]
            await pilot.press("b")
            await pilot.pause()
            await pilot.press(undo)
            await pilot.pause()
            screen = pilot.app.screen
            assert isinstance(screen, RollAndWriteScreen | EventGameScreen)
            assert not screen.session.state.is_over
            seen["said"] = screen.message

    asyncio.run(play())
    return seen["exported"], [path.exists() for path in files], seen["said"]


def test_roll_and_write_undone_from_its_end_removes_its_exported_scoring(xdg: Path) -> None:
    log = saved_game(random_game(2, ("Anna", "Ben", "Cleo")), "done.jsonl")
    exported, after, said = undone_game(log, "u")
    assert exported == [True, True] and after == [False, False]
    assert said.endswith(f"; its exported scoring (done.score.md and done.score.json) {REMOVED}"), said


def test_alhambra_dice_undone_from_its_end_removes_its_exported_scoring(xdg: Path) -> None:
    example = Path(ad.__file__).parent / "examples" / "two-players-and-dirk.jsonl"
    log = saved_log(example.read_text(), "20261123-201500-ann-ben.jsonl")
    exported, after, said = undone_game(log, "ctrl+z")
    assert exported == [True, True] and after == [False, False]
    assert said.startswith("undone: ") and REMOVED in said, said


def test_carcassonne_undone_from_its_end_removes_its_exported_scoring_and_keeps_its_frames(xdg: Path) -> None:
    events = play_random_game(cd.GameStarted(("Ann", "Ben")), random.Random(3))[1]
    log = saved_log(log_text(events), "20261123-201500-ann-ben.jsonl")
    frames_dir(log).mkdir()
    (frames_dir(log) / "0001.jpg").write_bytes(b"\xff\xd8 a roll the camera read")
    exported, after, said = undone_game(log, "ctrl+z")
    assert exported == [True, True] and after == [False, False]
    assert REMOVED in said, said
    assert log.with_name("20261123-201500-ann-ben.frames.zip").is_file(), "the frames claim no result"


def saved_at(game: str, played: float, name: str) -> Path:
    """A game of Roll & Write or of the Alhambra dice game saved with `played` of its moves made."""
    if game == "roll-and-write":
        events = random_game(2, ("Anna", "Ben", "Cleo"))
        return saved_game(events[: round(len(events) * played)], name)
    lines = (Path(ad.__file__).parent / "examples" / "two-players-and-dirk.jsonl").read_text().splitlines()
    return saved_log("\n".join(lines[: round(len(lines) * played)]) + "\n", name)


def exported_from_its_screen(keys: list[str]) -> str:
    """The saved game listed first continued (a finished one opens on its end screen), `keys` pressed, then
    ctrl+e on the game's screen: what the export said."""
    said: list[str] = []

    async def play() -> None:
        async with make_app().run_test(size=SIZE) as pilot:
            for key in ["enter", *keys, "ctrl+e"]:
                await pilot.press(key)
                await pilot.pause()
            screen = pilot.app.screen
            assert isinstance(screen, RollAndWriteScreen | EventGameScreen)
            said.append(screen.message)

    asyncio.run(play())
    return said[0]


@pytest.mark.parametrize("game", ["roll-and-write", "alhambra-dice"])
def test_a_finished_games_screen_exports_its_final_scoring_and_says_so(xdg: Path, game: str) -> None:
    """Exported from the game's screen once it is over: Roll & Write said "the scoring so far", the dice games
    "the scoring"; both the same words now, and which scoring it is."""
    log = saved_at(game, 1, "done.jsonl")
    said = exported_from_its_screen(["b"])
    files = exports(log, "done")
    assert said == f"exported the final scoring to {files[0]} and {files[1]}"
    assert all(path.is_file() for path in files)


@pytest.mark.parametrize("game", ["roll-and-write", "alhambra-dice"])
def test_a_game_exported_before_its_end_names_no_winner(xdg: Path, game: str) -> None:
    """Roll & Write's export in play named the player ahead "Winner" (Markdown and JSON), where the dice games
    say there is no winner yet."""
    log = saved_at(game, 0.5, "half.jsonl")
    said = exported_from_its_screen([])
    markdown, scoring = exports(log, "half")
    assert said == f"exported the scoring so far to {markdown} and {scoring}"
    exported = json.loads(scoring.read_text())
    assert not exported["finished"] and exported["winners"] == [], exported["winners"]
    assert "**no winner yet**" in markdown.read_text() and "Winner" not in markdown.read_text()


@pytest.mark.parametrize(
    ("keys", "said"),
    [
        (["ctrl+z"], ("undone: scoring 3 started", REMOVED)),
        # Still over, the pad scores otherwise: its export went on naming the old totals and winner, unsaid.
        (["3"], ("Ann's ", "removed: the counts changed since")),
    ],
    ids=["undone-out-of-its-third-scoring", "a-count-of-its-third-scoring-changed"],
)
def test_a_finished_pad_changed_removes_its_exported_scoring(
    xdg: Path, keys: list[str], said: tuple[str, str]
) -> None:
    seen: dict[str, Any] = {}

    async def play() -> None:
        async with make_app().run_test(size=(110, 34)) as pilot:
            # Three players: no imaginary Dirk, whose buildings the rule deals at every scoring (typed in the
            # third, a change after "scoring 3 started").
            await pilot.press(*"Ann", "tab", *"Ben", "tab", *"Cid", "f7")
            await pilot.pause()
            pad = pilot.app.screen
            assert isinstance(pad, AlhambraPadScreen)
            await pilot.press("ctrl+n", "ctrl+n", "ctrl+e")
            await pilot.pause()
            files = exports(pad.path, pad.path.name.removesuffix(".pad.json"))
            seen["exported"] = [path.is_file() for path in files]
            await pilot.press(*keys)  # "3": the third scoring's first count, Ann's, typed over
            await pilot.pause()
            seen["after"] = [path.exists() for path in files]
            seen["notes"] = [n.message for n in pilot.app._notifications]

    asyncio.run(play())
    assert seen["exported"] == [True, True] and seen["after"] == [False, False]
    assert any(note.startswith(said[0]) and said[1] in note for note in seen["notes"]), seen["notes"]


def test_an_export_written_in_part_says_what_was_written_and_what_not(xdg: Path) -> None:
    log = saved_game(random_game(2, ("Anna", "Ben", "Cleo")), "done.jsonl")
    log.with_name("done.score.json").mkdir()  # a folder in the way of the JSON

    async def export() -> str:
        async with make_app().run_test(size=SIZE) as pilot:
            await exported_at_its_end(pilot)
            return str(pilot.app.screen.query_one("#message", Static).render())

    said = asyncio.run(export())
    markdown, json_path = exports(log, "done")
    assert markdown.is_file()
    assert said == f"written: {markdown}; cannot write {json_path}: is a folder", said
