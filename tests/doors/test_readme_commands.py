"""Every command the README shows, run the way a user types it.

The installed `companion` and `python -m ...` run as subprocesses; the app runs through the real
`companion.cli.main()` with Textual's pilot pressing the keys. Each test names the README lines it runs
(`@runs`), and the first test fails when the README shows a command that no test here runs: when a README
command changes, the test that runs it changes with it. Placeholders a user fills in (FACES_DIR, photo.jpg,
camera 0) become inputs the tests make from shipped photos or the renderer.
"""

from __future__ import annotations

import json
import os
import random
import re
import shlex
import subprocess
import sys
import threading
from collections.abc import Callable, Coroutine, Mapping
from itertools import islice
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from table_photos import D6_TRAY, THROWN, video_of, yellow_and_blue_photos
from textual.pilot import Pilot

from calibration.table_area import AreaReader, TableArea
from companion.app.app import CompanionApp
from companion.app.paths import log_path
from companion.app.screens.carcassonne_dice import CarcassonneDiceScreen
from companion.app.screens.roll_and_write import RollAndWriteScreen
from companion.app.screens.start import StartScreen
from companion.app.sharing import free_port
from companion.app.widgets.camera_panel import CameraPanel
from companion.app.widgets.turn_panel import TurnPanel
from companion.cli import camera_setup
from companion.cli import main as companion_main
from companion.games import alhambra_rw as rw
from companion.games import carcassonne_dice as carcassonne
from companion.games.alhambra_dice.entry import RULES as ALHAMBRA_DICE
from companion.games.alhambra_rw.log import write_log
from companion.games.alhambra_rw.simulate import play_random_game
from companion.games.carcassonne_dice import GameStarted as CarcassonneStarted
from companion.games.carcassonne_dice.entry import RULES as CARCASSONNE_DICE
from companion.games.carcassonne_dice.scorefile import log_text
from companion.games.carcassonne_dice.simulate import play_random_game as play_random_carcassonne
from companion.games.eventlog import load_log
from companion.games.session import Rules
from companion.live.carcassonne_demo import play as carcassonne_play
from companion.live.carcassonne_demo import taught_dice
from companion.live.frames import frame_names, frames_dir
from vision.reader import DiceReader
from vision.simulated_table.city import BuiltDie, city_scene
from vision.simulated_table.scene import random_scene
from vision.simulated_table.symbol_art import (
    ALHAMBRA,
    CARCASSONNE,
    SymbolPainter,
    symbol_table,
    teaching_photos,
)

ROOT = Path(__file__).parents[2]
README = ROOT / "README.md"
BIN = Path(sys.executable).parent
MISSING_CAMERA = "97"
"""A camera number no test machine has: what `--camera 0` does where no camera is plugged in."""
DEAD_URL = "http://127.0.0.1:9/video"
"""A stream on this machine's discard port: nothing listens, so the connection is refused at once."""

RUN: dict[str, str] = {}
"""README command -> the test that runs it."""
NOT_RUN = {"make test": "it is the command that runs this module"}


def runs(*commands: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    def register(test: Callable[..., Any]) -> Callable[..., Any]:
        for command in commands:
            RUN[command] = test.__name__
        return test

    return register


def readme_commands() -> list[str]:
    """The command lines of the README's `sh` blocks, comments cut, `.venv/bin/` dropped."""
    blocks = re.findall(r"^```sh\n(.*?)^```", README.read_text(encoding="utf-8"), re.M | re.S)
    lines = (line.split(" #")[0].strip() for block in blocks for line in block.splitlines())
    return [" ".join(line.removeprefix(".venv/bin/").split()) for line in lines if line]


def typed(command: str, fill: Mapping[str, str | Path] | None = None) -> list[str]:
    """The README line as the installed command, with the user's placeholders filled in."""
    words = [str((fill or {}).get(word, word)) for word in shlex.split(command)]
    if words[0] == "companion":
        words[0] = str(BIN / "companion")
    elif words[0] == "python":
        words[0] = sys.executable
    return words


def run(
    command: str, fill: Mapping[str, str | Path] | None = None, stdin: str = ""
) -> subprocess.CompletedProcess[str]:
    """Run a README line in the project's folder (relative paths in the README are from there)."""
    assert command in RUN, f"{command!r} is not a README command registered with @runs"
    return subprocess.run(
        typed(command, fill),
        cwd=ROOT,
        capture_output=True,
        text=True,
        input=stdin,
        timeout=240,
        env=os.environ,
    )


def one_error_line(result: subprocess.CompletedProcess[str], code: int, *words: str) -> None:
    assert result.returncode == code, result.stderr
    assert "Traceback" not in result.stderr and len(result.stderr.strip().splitlines()) == 1, result.stderr
    for word in words:
        assert word in result.stderr


def test_every_command_the_readme_shows_is_run_here() -> None:
    shown = readme_commands()
    assert shown, "no sh blocks found in the README"
    not_run = [c for c in shown if c not in RUN and c not in NOT_RUN]
    assert not not_run, f"README commands that no test runs: {not_run}"
    gone = sorted(set(RUN) - set(shown))
    assert not gone, f"tests run commands the README no longer shows: {gone}"


# ------------------------------------------------------------------------------------------ quick start
@runs("make run")
def test_make_run_plays_a_whole_demo_game_without_a_terminal(home: Path) -> None:
    # As typed in a shell: not as a sub-make of `make test`, which would add make's directory lines.
    shell = {k: v for k, v in os.environ.items() if k not in ("MAKELEVEL", "MAKEFLAGS", "MFLAGS")}
    result = subprocess.run(
        ["make", "run"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=400,
        stdin=subprocess.DEVNULL,
        env=shell,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert "playing headless" in result.stderr and "round 18 of 18: " in result.stderr
    report = json.loads(result.stdout[result.stdout.index("{") :])
    assert report["finished"] and report["readings"] > 60
    assert report["readings_matched"] >= report["readings"] - 1
    # The last round's throws were in no progress line: the last said fewer than the JSON.
    said = f"game over: {report['readings_matched']} of {report['readings']} throws read right"
    assert said in result.stderr, result.stderr[-500:]


def test_make_run_with_a_terminal_plays_in_the_app_on_the_rendered_table(home: Path) -> None:
    """`make run` is `companion demo`; with a terminal (here the pilot's) it is the app, the demo's players
    throwing onto the rendered table and the camera reading the throws into the sheet and the log on disk."""
    read_on_disk: list[int] = []

    async def script(pilot: Pilot[Any]) -> None:
        app = pilot.app
        assert isinstance(app, CompanionApp)
        await until(pilot, lambda: app.roll_and_write_screen() is not None, 60, "the game screen")
        screen = game(pilot)
        read = lambda: [r for r in rolls(screen) if r.source == "camera"]  # noqa: E731
        await until(pilot, lambda: len(read()) >= 2, 120, "two throws read by the camera")
        on_disk = screen.session.path.read_text(encoding="utf-8").splitlines()
        read_on_disk.append(sum(json.loads(line).get("source") == "camera" for line in on_disk))
        await pilot.press("ctrl+q")

    assert play(["demo", "--seed", "0"], script) == 0
    assert read_on_disk and read_on_disk[0] >= 2, "the app never ran, or its log holds no camera throw"


@runs(". .venv/bin/activate")
def test_the_activated_environment_has_the_commands(home: Path) -> None:
    shell = ". .venv/bin/activate && companion --help && python -m vision --help"
    result = subprocess.run(["bash", "-c", shell], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert "--camera" in result.stdout and "--hold" in result.stdout and "enroll" in result.stdout


# ---------------------------------------------------------------------------------------------- scoring
@runs(
    "companion score companion/games/alhambra_rw/examples/example-game.json",
    "companion score companion/games/alhambra_rw/examples/example-game.jsonl --json",
)
def test_scoring_the_shipped_examples(home: Path, tmp_path: Path) -> None:
    text = run("companion score companion/games/alhambra_rw/examples/example-game.json")
    assert text.returncode == 0 and "winner" in text.stdout.lower(), text.stderr
    board = json.loads(
        run("companion score companion/games/alhambra_rw/examples/example-game.jsonl --json").stdout
    )
    assert board["winners"] and all("total" in p for p in board["players"])
    bad = tmp_path / "cut.json"
    bad.write_text('{"sheet": "example", "players": [')
    fill = {"companion/games/alhambra_rw/examples/example-game.json": bad}
    one_error_line(
        run("companion score companion/games/alhambra_rw/examples/example-game.json", fill), 2, str(bad)
    )


@runs("companion history", "companion stats --json")
def test_past_games_are_listed_and_summed_up(home: Path) -> None:
    folder = home / "data" / "table-companion" / "games"
    folder.mkdir(parents=True)
    setup = rw.GameStarted(rw.load_shipped_sheet("example"), ("Ann", "Ben", "Cleo"))
    events = play_random_game(setup, random.Random(5))[1]
    write_log(folder / "finished.jsonl", events)
    board = rw.score_game(rw.replay(events))
    carcassonne, built = play_random_carcassonne(CarcassonneStarted(("Ann", "Dora")), random.Random(5))
    (folder / "city.jsonl").write_text(log_text(built))
    listed = run("companion history")
    assert listed.returncode == 0 and f"won by {' and '.join(board.winners)}" in listed.stdout
    assert f"Carcassonne – the dice game  Ann {carcassonne.state.scores[0]}, Dora" in listed.stdout
    stats = json.loads(run("companion stats --json").stdout)
    assert {(s["game"], s["name"]): s["games"] for s in stats} == {
        ("alhambra-roll-and-write", "Ann"): 1,
        ("alhambra-roll-and-write", "Ben"): 1,
        ("alhambra-roll-and-write", "Cleo"): 1,
        ("carcassonne-dice", "Ann"): 1,
        ("carcassonne-dice", "Dora"): 1,
    }
    assert sum(s["wins"] for s in stats) == len(board.winners) + 1


@runs("companion view", "companion serve --port 8000")
def test_the_whole_tables_view_and_its_server(
    home: Path, served: Callable[[list[str], int], tuple[str, str]]
) -> None:
    folder = home / "data" / "table-companion" / "games"
    folder.mkdir(parents=True)
    setup = rw.GameStarted(rw.load_shipped_sheet("example"), ("Ann", "Ben", "Cleo"))
    write_log(folder / "playing.jsonl", play_random_game(setup, random.Random(6))[1][:50])
    seen: list[str] = []

    async def look(pilot: Pilot[Any]) -> None:
        await pilot.pause(0.2)
        seen.extend(str(w.border_title) for w in pilot.app.query(".grid"))
        await pilot.press("q")

    assert companion_main(typed("companion view")[1:], pilot=look) == 0
    assert seen == ["Ann's grid", "Ben's grid", "Cleo's grid"]
    port = free_port(0)
    page, _ = served(typed("companion serve --port 8000", {"8000": str(port)}), port)
    assert "Table companion" in page


@runs("companion score companion/games/carcassonne_dice/examples/wiki-example.json")
def test_scoring_a_built_carcassonne_city(home: Path) -> None:
    result = run("companion score companion/games/carcassonne_dice/examples/wiki-example.json")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("Carcassonne dice game: 0 points (largest completed city: 2 dice")
    assert "the west edge is open" in result.stdout


@runs(
    "companion city city.jpg --profile carc.json",
    "companion demo --game carcassonne-dice --headless --seed 4",
)
def test_a_photo_of_a_built_city_and_a_whole_carcassonne_demo_game(home: Path, tmp_path: Path) -> None:
    photo, profile = tmp_path / "city.png", tmp_path / "carc.json"
    taught_dice(0).save(profile)
    ring = [BuiltDie((0, 0), "city2", 180), BuiltDie((0, 1), "city2", 90), BuiltDie((1, 0), "city2", 270)]
    ring.append(BuiltDie((1, 1), "city2", 0))
    cv2.imwrite(str(photo), city_scene(SymbolPainter(CARCASSONNE), ring, np.random.default_rng(1)).image)
    shown = run("companion city city.jpg --profile carc.json", {"city.jpg": photo, "carc.json": profile})
    assert shown.returncode == 0, shown.stderr
    assert "Carcassonne dice game: 3 points (largest completed city: 4 dice = 3 points)" in shown.stdout
    demo = run("companion demo --game carcassonne-dice --headless --seed 4")
    assert demo.returncode == 0, demo.stderr[-2000:]
    report = json.loads(demo.stdout)
    assert report["finished"] and report["readings"] == report["rolls_read"] + report["cities_read"]
    assert report["readings_matched"] >= 0.8 * report["readings"]
    rescored = subprocess.run(
        [BIN / "companion", "score", report["log"], "--json"], capture_output=True, text=True, timeout=60
    )
    assert json.loads(rescored.stdout)["players"] == report["scoring"]["players"]
    assert Path(report["log"]).parent == home / "data" / "table-companion" / "demos"
    assert f"kept apart from the real games: {report['log']}" in demo.stderr
    assert_frames_beside(Path(report["log"]), CARCASSONNE_DICE)
    assert_no_real_games(home)


@runs("companion demo --game carcassonne-dice")
def test_the_carcassonne_demo_with_a_terminal_plays_on_the_score_pad(home: Path) -> None:
    """With a terminal (the pilot's) the demo game goes onto the app's score pad: each roll and each turn's
    city rendered, read by the real reader and entered through the engine into the log on disk; quitting
    stops the players' thread."""
    seen: dict[str, Any] = {}

    async def script(pilot: Pilot[Any]) -> None:
        await until(
            pilot,
            lambda: isinstance(pilot.app.screen, CarcassonneDiceScreen) and pilot.app.screen.state.turn >= 2,
            120,
            "the first turn played on the pad",
        )
        screen = pilot.app.screen
        assert isinstance(screen, CarcassonneDiceScreen)
        seen.update(events=list(screen.session.events), path=screen.session.path, said=screen.message)
        await pilot.press("ctrl+q")

    assert play(typed("companion demo --game carcassonne-dice")[1:], script) == 0
    assert not [t for t in threading.enumerate() if t.name == "carcassonne-demo"], "the players still play"
    events: list[carcassonne.Event] = seen["events"]
    assert isinstance(events[0], carcassonne.GameStarted) and any(
        isinstance(e, carcassonne.TurnEnded) for e in events
    )
    # The pad holds the demo's own game, event for event, as far as it went; each roll with its picture.
    assert [step.event for step in islice(carcassonne_play(0), len(events) - 1)] == events[1:]
    assert_frames_beside(Path(seen["path"]), CARCASSONNE_DICE)
    on_disk = Path(seen["path"]).read_text(encoding="utf-8").splitlines()
    assert (
        len(on_disk) >= len(events)
        and Path(seen["path"]).parent == home / "data" / "table-companion" / "demos"
    )
    assert seen["said"].startswith("the camera read")
    assert_no_real_games(home)


def assert_frames_beside(log: Path, rules: Rules[Any, Any, Any]) -> None:
    """The demo's rolls keep the pictures they were read in beside its log, each named by its roll."""
    named = frame_names(list(load_log(log, rules.log).events), rules.log.encode)
    assert named and all((frames_dir(log) / frame).is_file() for _, frame in named), named


def assert_no_real_games(home: Path) -> None:
    """A demo's game is kept apart: the real games folder gets no log, and history and stats (which read
    it) list no game and no player of the demo."""
    assert not list((home / "data" / "table-companion" / "games").glob("*.jsonl"))
    for command in ("history", "stats"):
        listed = subprocess.run(
            [str(BIN / "companion"), command, "--json"], capture_output=True, text=True, timeout=60
        )
        assert listed.returncode == 0, listed.stderr
        assert json.loads(listed.stdout) == [], listed.stdout


def assert_shown(output: str, command_file: str) -> None:
    """Every line of the output the README shows after the command (`...` for lines left out) is printed."""
    shown = README.read_text(encoding="utf-8").split(f"{command_file}\n```\n\n```text\n")[1]
    for line in shown.split("```")[0].splitlines():
        assert line == "..." or line in output.splitlines(), f"the README shows {line!r}"


@runs("companion score companion/games/alhambra/examples/two-players-and-dirk.json")
def test_scoring_the_original_alhambra(home: Path) -> None:
    result = run("companion score companion/games/alhambra/examples/two-players-and-dirk.json")
    assert result.returncode == 0, result.stderr
    assert_shown(result.stdout, "companion/games/alhambra/examples/two-players-and-dirk.json")


@runs("companion score companion/games/alhambra_dice/examples/end-state.json")
def test_scoring_the_alhambra_dice_game(home: Path) -> None:
    result = run("companion score companion/games/alhambra_dice/examples/end-state.json")
    assert result.returncode == 0, result.stderr
    assert_shown(result.stdout, "companion/games/alhambra_dice/examples/end-state.json")


@runs("companion demo --game alhambra-dice --headless --seed 1")
def test_the_alhambra_dice_demo_saves_a_log_that_scores_as_it_printed(home: Path) -> None:
    # A whole game read frame by frame on a busy 2-core machine: given as long as `make run`'s test.
    result = subprocess.run(
        typed("companion demo --game alhambra-dice --headless --seed 1"),
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=400,
        env=os.environ,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    report = json.loads(result.stdout)
    assert report["finished"] and report["scoring"]["game"] == "alhambra-dice"
    assert report["readings_matched"] >= 0.97 * report["readings"] > 100
    said = f"game over: {report['readings_matched']} of {report['readings']} rolls read right"
    assert said in result.stderr
    (log,) = (home / "data" / "table-companion" / "demos").glob("*.jsonl")
    assert f"the demo's log, kept apart from the real games: {log}" in result.stderr
    assert_frames_beside(log, ALHAMBRA_DICE)
    assert_no_real_games(home)
    scored = subprocess.run(
        [str(BIN / "companion"), "score", str(log), "--json"], capture_output=True, text=True, timeout=60
    )
    assert scored.returncode == 0, scored.stderr
    assert json.loads(scored.stdout)["totals"] == report["scoring"]["totals"]
    assert json.loads(scored.stdout) == report["scoring"]


# ----------------------------------------------------------------------------------- the app and camera
Script = Callable[[Pilot[Any]], Coroutine[Any, Any, None]]


async def until(pilot: Pilot[Any], done: Callable[[], bool], seconds: float, what: str) -> None:
    """Wait for `done`: the camera's thread reads on the machine's spare time, which a loaded CI machine has
    little of (10 s for a photo's dice ran out there, with other work on both cores)."""
    for _ in range(round(seconds / 0.1)):
        if done():
            return
        await pilot.pause(0.1)
    raise AssertionError(f"waited {seconds:.0f} s for {what}")


def game(pilot: Pilot[Any]) -> RollAndWriteScreen:
    app = pilot.app
    assert isinstance(app, CompanionApp)
    screen = app.roll_and_write_screen()
    assert screen is not None, f"no game screen; the screen is {app.screen!r}"
    return screen


async def start_three_player_game(pilot: Pilot[Any]) -> RollAndWriteScreen:
    await pilot.press(*"Ann", "tab", *"Ben", "tab", *"Cleo", "f5")
    await until(pilot, lambda: isinstance(pilot.app.screen, RollAndWriteScreen), 30, "the game screen")
    return game(pilot)


def now_panel(screen: RollAndWriteScreen) -> str:
    return str(screen.query_one(TurnPanel).render())


def panel_state(screen: RollAndWriteScreen) -> str:
    return screen.query_one(CameraPanel).status.state


def rolls(screen: RollAndWriteScreen) -> list[rw.Roll]:
    return [e for e in screen.session.events if isinstance(e, rw.Roll)]


def play(argv: list[str], script: Script) -> int:
    return companion_main(argv, pilot=script)


@runs("companion", "companion --camera photos/ --hold 5")
def test_photos_as_the_camera_are_held_offered_and_taken_with_k(home: Path, tmp_path: Path) -> None:
    photos = tmp_path / "photos"
    yellow_and_blue_photos(photos)
    seen: dict[str, object] = {}

    async def script(pilot: Pilot[Any]) -> None:
        # The first photo settles before the names are typed: the dice lying there are offered, not taken.
        app = pilot.app
        assert isinstance(app, CompanionApp)
        await until(pilot, lambda: app.table_reading is not None, 30, "the first photo settled")
        screen = await start_three_player_game(pilot)
        await until(pilot, lambda: screen.pending is not None, 30, "the photo's dice offered")
        seen["offer"] = now_panel(screen)
        assert not rolls(screen)
        await pilot.press("k")
        # On a busy machine the offer comes late and the second photo may be read by now: it is checked below.
        seen["first"] = rolls(screen)[:1]
        # The second photo is another throw: read surely and fitting, it goes in for the next player.
        await until(pilot, lambda: len(rolls(screen)) == 2, 30, "the second photo's dice")
        seen["second"] = rolls(screen)[1]
        seen["log"] = screen.session.path
        await pilot.press("ctrl+q")

    assert play(typed("companion --camera photos/ --hold 5", {"photos/": photos})[1:], script) == 0
    assert "lying on the table" in str(seen["offer"]) and "k accepts y6 b4" in str(seen["offer"])
    (first,) = seen["first"]
    assert first == rw.Roll("Ann", *THROWN)
    # An event's source and note are no part of its equality: checked apart.
    assert first.source == "camera" and first.note.startswith("camera read y6 b4; accepted: ")
    assert first.note.endswith("lying on the table before the game asked for dice")
    second = seen["second"]
    assert isinstance(second, rw.Roll) and (second.player, second.yellow, second.blue, second.source) == (
        "Ben",
        *THROWN,
        "camera",
    )
    on_disk = rw.load_log(Path(str(seen["log"])))
    assert [e.source for e in on_disk.events if isinstance(e, rw.Roll)] == ["camera", "camera"]
    # `companion` alone is the app without a camera: the start screen, then quit.
    assert play([], quit_at_once) == 0


async def quit_at_once(pilot: Pilot[Any]) -> None:
    await pilot.pause()
    assert isinstance(pilot.app.screen, StartScreen)
    await pilot.press("ctrl+q")


@runs("companion --camera throw.mp4")
def test_a_video_file_as_the_camera_is_read_then_ends(home: Path, tmp_path: Path) -> None:
    video = video_of(yellow_and_blue_photos(tmp_path / "photos")[0], tmp_path / "throw.avi", seconds=2.0)
    seen: dict[str, object] = {}

    async def script(pilot: Pilot[Any]) -> None:
        screen = await start_three_player_game(pilot)
        await until(pilot, lambda: screen.pending is not None or bool(rolls(screen)), 30, "the video's dice")
        if screen.pending is not None:
            await pilot.press("k")
        seen["roll"] = rolls(screen)[0]
        await until(pilot, lambda: panel_state(screen) == "stream ended", 30, "the end of the video")
        await pilot.press("ctrl+q")

    assert play(typed("companion --camera throw.mp4", {"throw.mp4": video})[1:], script) == 0
    roll = seen["roll"]
    assert isinstance(roll, rw.Roll) and (roll.yellow, roll.blue, roll.source) == (*THROWN, "camera")


def camera_that_does_not_answer(argv: list[str], says: str, native: str | None) -> None:
    """The panel says so, the game goes on by keys, ctrl+q quits; OpenCV's and FFmpeg's own warnings go to
    the app's log file, not over the screen (`native`: a part of them, where they say something)."""
    seen: dict[str, object] = {}

    async def script(pilot: Pilot[Any]) -> None:
        screen = await start_three_player_game(pilot)
        await until(pilot, lambda: panel_state(screen) == "camera lost", 15, "the camera lost")
        seen["detail"] = screen.query_one(CameraPanel).status.detail
        await pilot.press("y", "2", "b", "6", "enter")
        seen["roll"] = rolls(screen)
        await pilot.press("ctrl+q")

    assert play(argv, script) == 0
    assert says in str(seen["detail"])
    assert seen["roll"] == [rw.Roll("Ann", (2,), (6,))]
    assert native is None or native in log_path().read_text(errors="replace")


@runs("companion --camera 0")
def test_a_missing_camera_number_is_shown_and_the_game_goes_on(
    home: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    camera_that_does_not_answer(
        typed("companion --camera 0", {"0": MISSING_CAMERA})[1:], "did not open", "VIDEOIO"
    )
    assert "VIDEOIO" not in capfd.readouterr().err


@runs("companion --camera /dev/v4l/by-id/usb-Logitech_C920-video-index0")
def test_a_camera_named_by_its_device_is_a_camera_not_a_missing_file(home: Path) -> None:
    """It was refused as "neither an image, a video … nor a folder"; a camera's number changes when it is
    plugged into another port, its name under /dev/v4l/by-id does not."""
    command = "companion --camera /dev/v4l/by-id/usb-Logitech_C920-video-index0"
    camera_that_does_not_answer(typed(command, {})[1:], "did not open: is it plugged in", None)


@runs("companion --camera http://192.168.1.20:8080/video")
def test_a_dead_stream_url_is_shown_and_the_game_goes_on(
    home: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    argv = typed(
        "companion --camera http://192.168.1.20:8080/video", {"http://192.168.1.20:8080/video": DEAD_URL}
    )
    camera_that_does_not_answer(argv[1:], "did not open", "Connection refused")
    assert "Connection refused" not in capfd.readouterr().err


def test_a_damaged_remembered_calibration_stops_the_camera_with_one_line(
    home: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    profile = home / "config" / "table-companion" / "colour-profile.json"
    profile.parent.mkdir(parents=True)
    profile.write_text("{")
    assert companion_main(["--camera", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert str(profile) in err and "companion calibrate" in err and len(err.strip().splitlines()) == 1


# --------------------------------------------------------------------------------------------- calibrate
def colour_photos(folder: Path) -> Path:
    """COLOURS_DIR: rendered tables of only yellow dice, and of only blue ones."""
    for colour in ("yellow", "blue"):
        (folder / colour).mkdir(parents=True)
        scene = random_scene(np.random.default_rng(len(colour)), 480, 640, n_dice=5, colors=[colour])
        cv2.imwrite(str(folder / colour / "a.png"), scene.image)
    return folder


@runs(
    "companion calibrate colours --camera 0",
    "companion calibrate colours COLOURS_DIR",
    "companion calibrate area 0.1 0.2 0.9 0.8",
    "companion calibrate show",
)
def test_calibrating_a_table_is_remembered_and_used_by_the_camera(home: Path, tmp_path: Path) -> None:
    one_error_line(
        run("companion calibrate colours --camera 0", {"0": MISSING_CAMERA}),
        2,
        f"camera {MISSING_CAMERA} did not open",
    )
    colours = colour_photos(tmp_path / "colours")
    taught = run("companion calibrate colours COLOURS_DIR", {"COLOURS_DIR": colours})
    assert taught.returncode == 0 and "colour profile saved" in taught.stdout, taught.stderr
    area = run("companion calibrate area 0.1 0.2 0.9 0.8")
    assert area.returncode == 0 and "dice zone saved" in area.stdout
    shown = run("companion calibrate show").stdout
    assert "none" not in shown and "left 0.1, top 0.2, right 0.9, bottom 0.8 of the frame" in shown
    # In words, not the profile's Python repr: each colour with the dice it was taught from.
    assert re.search(r"yellow \(Lab \d+ -?\d+ -?\d+, taught from \d+ dice\)", shown), shown
    assert "blue (Lab " in shown and "ColourStats(" not in shown and "TableArea(" not in shown
    # `--camera` reads through what is remembered: the dice zone and the taught colours.
    reader = camera_setup(str(tmp_path)).reader
    assert isinstance(reader, AreaReader) and reader.area == TableArea(0.1, 0.2, 0.9, 0.8)
    assert isinstance(reader.reader, DiceReader) and reader.reader.pips.colour_profile is not None


# ----------------------------------------------------------------------------------------- reading dice
@runs(
    "python -m vision read --json photo.jpg photos/",
    "python -m vision colour --out colours.json COLOURS_DIR",
    "python -m vision read --colours colours.json photo.jpg",
    "python -m vision eval SET_DIR",
    "python -m vision bench",
)
def test_reading_pip_dice_from_the_command_line(home: Path, tmp_path: Path) -> None:
    photo = D6_TRAY / "images" / "IMG_20191209_100649.jpg"
    photos = tmp_path / "photos"
    yellow_and_blue_photos(photos)
    lines = run(
        "python -m vision read --json photo.jpg photos/", {"photo.jpg": photo, "photos/": photos}
    ).stdout.splitlines()
    readings = [json.loads(line) for line in lines]
    assert [r["image"] for r in readings] == [
        str(photo),
        str(photos / "throw-1.jpg"),
        str(photos / "throw-2.jpg"),
    ]
    assert sorted((d["color"], d["value"]) for d in readings[1]["dice"]) == [("blue", 4), ("yellow", 6)]
    colours = tmp_path / "colours.json"
    taught = run(
        "python -m vision colour --out colours.json COLOURS_DIR",
        {"colours.json": colours, "COLOURS_DIR": colour_photos(tmp_path / "c")},
    )
    assert taught.returncode == 0 and "yellow (" in taught.stdout, taught.stderr
    read = run(
        "python -m vision read --colours colours.json photo.jpg",
        {"colours.json": colours, "photo.jpg": photos / "throw-1.jpg"},
    )
    assert read.returncode == 0 and "yellow 6" in read.stdout and "blue 4" in read.stdout, read.stderr
    scores = run("python -m vision eval SET_DIR", {"SET_DIR": D6_TRAY})
    assert scores.returncode == 0 and "die accuracy" in scores.stdout
    bench = run("python -m vision bench")
    assert bench.returncode == 0 and bench.stdout.count("ms/frame") == 2


@runs(
    "python -m vision enroll --out alhambra.json FACES_DIR",
    "python -m vision enroll --out carc.json --edges city1=top FACES_DIR",
    "python -m vision read --profile alhambra.json --json photo.jpg photos/",
    "python -m vision bench --profile alhambra.json",
    "python -m calibration.faces --camera 0 --preset alhambra --out alhambra.json",
)
def test_teaching_and_reading_symbol_dice_from_the_command_line(home: Path, tmp_path: Path) -> None:
    rng = np.random.default_rng(3)
    faces = {}
    for icons in (ALHAMBRA, CARCASSONNE):
        faces[icons.name] = tmp_path / icons.name
        for label, images in teaching_photos(SymbolPainter(icons), rng, per_face=3).items():
            (faces[icons.name] / label).mkdir(parents=True)
            for j, image in enumerate(images):
                cv2.imwrite(str(faces[icons.name] / label / f"{j:02d}.png"), image)
    profile = tmp_path / "alhambra.json"
    taught = run(
        "python -m vision enroll --out alhambra.json FACES_DIR",
        {"alhambra.json": profile, "FACES_DIR": faces["alhambra"]},
    )
    assert taught.returncode == 0 and profile.is_file(), taught.stderr
    carc = tmp_path / "carc.json"
    taught = run(
        "python -m vision enroll --out carc.json --edges city1=top FACES_DIR",
        {"carc.json": carc, "FACES_DIR": faces["carcassonne"]},
    )
    assert taught.returncode == 0 and json.loads(carc.read_text()), taught.stderr
    table_rng = np.random.default_rng(4)
    scene = symbol_table(SymbolPainter(ALHAMBRA), table_rng, n_dice=6, colors=("white",), plain=True)
    photo, photos = tmp_path / "table.png", tmp_path / "frames"
    cv2.imwrite(str(photo), scene.image)
    photos.mkdir()
    cv2.imwrite(str(photos / "a.png"), scene.image)
    read = run(
        "python -m vision read --profile alhambra.json --json photo.jpg photos/",
        {"alhambra.json": profile, "photo.jpg": photo, "photos/": photos},
    )
    assert read.returncode == 0, read.stderr
    first, again = (json.loads(line) for line in read.stdout.splitlines())
    truth = sorted(d.label for d in scene.dice)
    assert sorted(d["face"] for d in first["dice"]) == truth and again["dice"] == first["dice"]
    assert all(d["kind"] == "symbol" and d["rotation"] in (0, 90, 180, 270) for d in first["dice"])
    bench = run("python -m vision bench --profile alhambra.json", {"alhambra.json": profile})
    assert bench.returncode == 0 and "ms/frame" in bench.stdout, bench.stderr
    no_camera = run(
        "python -m calibration.faces --camera 0 --preset alhambra --out alhambra.json",
        {"0": MISSING_CAMERA, "alhambra.json": tmp_path / "live.json"},
    )
    one_error_line(no_camera, 2, MISSING_CAMERA, "does not open")


def test_the_help_names_every_game_and_the_hold_a_photo_gets_by_default() -> None:
    from companion.games.table import GAMES
    from vision.sources import HOLD_SECONDS

    result = subprocess.run([str(BIN / "companion"), "--help"], capture_output=True, text=True, timeout=60)
    said = " ".join(result.stdout.split())
    assert f"(default {HOLD_SECONDS:g})" in said
    assert all(entry.title in said for entry in GAMES.values()), "it named only Alhambra Roll & Write"


def test_output_cut_short_by_a_pipe_is_no_error(home: Path) -> None:
    # `companion score FILE | true`: the reader is gone before the breakdown is written (as after `head`).
    example = "companion/games/alhambra_rw/examples/example-game.jsonl"
    command = f"{shlex.quote(str(BIN / 'companion'))} score --json {example} | true"
    result = subprocess.run(["bash", "-c", command], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert result.stderr == "", result.stderr
