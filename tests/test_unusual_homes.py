"""The companion where the user's folders are unusual: a state folder that cannot be written, links to
nothing among the games and sheets, a games folder that cannot be read, relative XDG variables, a terminal
that cannot show every character; and an app that ends in an error, and the installed package's files."""

from __future__ import annotations

import fnmatch
import json
import os
import random
import shutil
import subprocess
import sys
import tomllib
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from companion import history as history_module
from companion import history_bench
from companion import saved_games as saved_games_module
from companion.app import paths
from companion.app.screens.start import StartScreen
from companion.cli import main as companion_main
from companion.games.alhambra_rw import GameStarted, load_shipped_sheet
from companion.games.alhambra_rw.log import write_log
from companion.games.alhambra_rw.simulate import play_random_game
from companion.history import history
from companion.log_index import read_through
from companion.saved_games import saved_games
from vision.native_output import native_output_to

PROJECT = Path(__file__).parent.parent
COMPANION = str(Path(sys.executable).parent / "companion")
FINISHED = PROJECT / "companion" / "games" / "alhambra_rw" / "examples" / "example-game.jsonl"


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The user's XDG folders under tmp (the state folder too), for this process and those it starts."""
    for variable, folder in (("XDG_DATA_HOME", "data"), ("XDG_CONFIG_HOME", "config")):
        monkeypatch.setenv(variable, str(tmp_path / folder))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    yield tmp_path


async def quit_at_start(pilot: Pilot[Any]) -> None:
    await pilot.pause()
    assert isinstance(pilot.app.screen, StartScreen)
    await pilot.press("ctrl+q")


def start_screen_seen(argv: Sequence[str] = ()) -> tuple[int, dict[str, Any]]:
    """`companion` run to its start screen and quit; its exit status and what the start screen holds."""
    seen: dict[str, Any] = {}

    async def look(pilot: Pilot[Any]) -> None:
        await pilot.pause()
        screen = pilot.app.screen
        assert isinstance(screen, StartScreen)
        seen["saved"] = screen.saved
        seen["unreadable_sheets"] = screen.unreadable_sheets
        await pilot.press("ctrl+q")

    return companion_main(list(argv), pilot=look), seen


# ------------------------------------------------------------------- a state folder that cannot be written
def test_a_log_that_cannot_be_written_is_said_once_and_native_output_goes_nowhere(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    state = tmp_path / "state"
    state.write_text("a file, not a folder")
    with native_output_to(state / "table-companion" / "companion.log", "companion"):
        os.write(2, b"[ WARN:0@1.0] global cap_v4l.cpp\n")
        print("the program's own line", file=sys.stderr)
    err = capfd.readouterr().err
    assert "WARN" not in err
    assert "the program's own line" in err
    assert err.count("companion: cannot write the log") == 1
    assert "Not a directory" in err
    assert state.read_text() == "a file, not a folder"


def test_the_app_starts_with_a_state_folder_that_is_a_file(
    home: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    state = home / "state-file"
    state.write_text("")
    monkeypatch.setenv("XDG_STATE_HOME", str(state))
    assert companion_main([], pilot=quit_at_start) == 0
    err = capfd.readouterr().err
    assert err.count("cannot write the log") == 1
    assert "Traceback" not in err


# ---------------------------------------------------------------------------------- links to nothing
def test_a_link_to_nothing_among_the_games_is_listed_as_damaged(home: Path) -> None:
    games = paths.games_dir()
    games.mkdir(parents=True)
    shutil.copyfile(FINISHED, games / "finished.jsonl")
    (games / "broken.jsonl").symlink_to(home / "nowhere.jsonl")
    code, seen = start_screen_seen()
    assert code == 0
    listed = {game.path.name: game for game in seen["saved"]}
    assert listed.keys() == {"finished.jsonl", "broken.jsonl"}
    assert listed["broken.jsonl"].summary is None
    assert "No such file or directory" in listed["broken.jsonl"].problem
    assert listed["finished.jsonl"].summary is not None


def test_a_game_gone_since_the_folder_was_listed_is_left_out(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Deleted between the folder's listing and the look at its time (another window deleted it)."""
    games = paths.games_dir()
    games.mkdir(parents=True)
    for name in ("kept.jsonl", "gone.jsonl"):
        shutil.copyfile(FINISHED, games / name)

    def read_then_delete(folder: Path, kind: str, logs: Sequence[Path], read: Any) -> list[dict[str, Any]]:
        backs = read_through(folder, kind, logs, read)
        (games / "gone.jsonl").unlink(missing_ok=True)
        return backs

    for module in (saved_games_module, history_module):
        monkeypatch.setattr(module, "read_through", read_then_delete)
    assert [game.path.name for game in saved_games(games)] == ["kept.jsonl"]
    shutil.copyfile(FINISHED, games / "gone.jsonl")
    assert [game.path.name for game in history(games).games] == ["kept.jsonl"]


def test_a_link_to_nothing_among_the_sheets_is_offered_as_unreadable(home: Path) -> None:
    sheets = paths.sheets_dir()
    sheets.mkdir(parents=True)
    (sheets / "broken.json").symlink_to(home / "nowhere.json")
    code, seen = start_screen_seen()
    assert code == 0
    assert list(seen["unreadable_sheets"]) == [str(sheets / "broken.json")]
    assert "No such file or directory" in seen["unreadable_sheets"][str(sheets / "broken.json")]


# ------------------------------------------------------------------------ a games folder not readable
@pytest.mark.parametrize("denied", [True, False], ids=["permission-denied", "a-file"])
@pytest.mark.parametrize("command", ["history", "stats"])
def test_a_games_folder_that_cannot_be_read_is_said_not_taken_for_no_games(
    home: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    command: str,
    denied: bool,
) -> None:
    games = paths.games_dir()
    if denied:
        games.mkdir(parents=True)
        shutil.copyfile(FINISHED, games / "finished.jsonl")
        # Permissions do not hold for root (the suite may run as root): the folder's listing is refused.
        scandir = os.scandir

        def refused(path: Any = ".") -> Any:
            if Path(path) == games:
                raise PermissionError(13, "Permission denied", str(path))
            return scandir(path)

        monkeypatch.setattr(os, "scandir", refused)
        why = "Permission denied"
    else:
        games.parent.mkdir(parents=True)
        games.write_text("")
        why = "Not a directory"
    assert companion_main([command]) == 2
    out, err = capsys.readouterr()
    assert "no finished games" not in out
    assert err == f"companion {command}: cannot read {games}: {why}\n"


# --------------------------------------------------------------------------------- relative XDG paths
@pytest.mark.parametrize(
    ("variable", "folder", "default"),
    [
        ("XDG_CONFIG_HOME", paths.config_dir, ".config"),
        ("XDG_DATA_HOME", paths.data_dir, ".local/share"),
        ("XDG_STATE_HOME", lambda: paths.log_path().parent, ".local/state"),
    ],
)
def test_a_relative_xdg_folder_is_taken_as_unset(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, variable: str, folder: Any, default: str
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv(variable, "relative")
    assert folder() == tmp_path / "home" / default / "table-companion"
    monkeypatch.setenv(variable, str(tmp_path / "absolute"))
    assert folder() == tmp_path / "absolute" / "table-companion"


# ---------------------------------------------------------------------------- an app ended in an error
def test_an_app_ended_in_an_error_ends_the_command_with_an_error(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(folder: Path) -> list[Any]:
        raise RuntimeError("a defect of the app's")

    monkeypatch.setattr("companion.app.screens.start.saved_games", broken)
    assert companion_main([], pilot=quit_at_start) == 1


# ------------------------------------------------------------------------- the installed package's files
def test_every_example_game_log_is_installed_with_the_package() -> None:
    """What setuptools installs: each file in a package folder (a folder without `__init__.py` is a
    namespace package) whose name matches the package data's patterns."""
    setuptools = tomllib.loads((PROJECT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    packages, patterns = setuptools["packages"]["find"]["include"], setuptools["package-data"]["*"]
    logs = {*history_bench.EXAMPLES, *(PROJECT / "companion").rglob("examples/*.jsonl")}
    assert len(logs) >= len(history_bench.EXAMPLES)
    for log in logs:
        package = ".".join(log.parent.relative_to(PROJECT).parts)
        assert any(fnmatch.fnmatchcase(package, included) for included in packages), package
        assert any(fnmatch.fnmatchcase(log.name, pattern) for pattern in patterns), log


# ------------------------------------------------------------- a terminal that cannot show every character
def run(argv: Sequence[str], home: Path) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "PYTHONIOENCODING": "ascii", "HOME": str(home)}
    return subprocess.run(
        [COMPANION, *argv], capture_output=True, text=True, encoding="ascii", env=environment, timeout=60
    )


def test_help_in_a_terminal_that_cannot_show_every_character(home: Path) -> None:
    done = run(["--help"], home)
    assert done.returncode == 0, done.stderr
    assert "Alhambra ? the dice game" in done.stdout


def test_a_score_in_a_terminal_that_cannot_show_every_character(home: Path) -> None:
    log = home / "li.jsonl"
    setup = GameStarted(load_shipped_sheet("example"), ("李", "Ann", "Ben"))
    write_log(log, play_random_game(setup, random.Random(5))[1])
    text = run(["score", str(log)], home)
    assert text.returncode == 0, text.stderr
    assert "Ann" in text.stdout
    assert "?" in text.stdout
    as_json = run(["score", str(log), "--json"], home)
    assert as_json.returncode == 0, as_json.stderr
    assert "李" in [player["name"] for player in json.loads(as_json.stdout)["players"]]


def test_the_vision_commands_read_a_photo_named_in_a_script_the_terminal_cannot_show(home: Path) -> None:
    photo = home / "李.jpg"
    crops = Path(__file__).parent / "data/casino-crops/3"
    shutil.copy(crops / "DJI_20241005231528_0118_D_detection_1.jpg", photo)
    environment = {**os.environ, "PYTHONIOENCODING": "ascii"}
    done = subprocess.run(
        [sys.executable, "-m", "vision", "read", str(photo)],
        capture_output=True,
        text=True,
        encoding="ascii",
        env=environment,
        timeout=120,
    )
    assert done.returncode == 0 and done.stdout.startswith(f"{home}/?.jpg: "), done.stderr


# ------------------------------------------------------------------ a data folder that cannot be made
def as_another_user(argv: Sequence[str]) -> list[str]:
    """`argv` run as a user the system has no entry for (so no home), whose folders' permissions hold: the
    suite may run as root, for whom they do not."""
    unshare = ["unshare", "--user", "--map-user=12345", "--map-group=12345"]
    if shutil.which("unshare") is None or subprocess.run([*unshare, "true"], check=False).returncode:
        pytest.skip("no user namespaces here to run the command as another user")
    return [*unshare, *argv]


def in_the_way(home: Path, blocker: str) -> tuple[Path, str]:
    """A data folder that cannot hold the companion's folders, and what the command says stands in the way."""
    data = home / blocker
    if blocker == "a-file":
        data.write_text("a file, not a folder")
        return data, f"{data} is a file, not a folder"
    if blocker == "a-link-to-nowhere":
        data.symlink_to(home / "nowhere")
        return data, f"{data} is a link to nowhere ({home / 'nowhere'})"
    data.mkdir(mode=0o555)
    return data, f"no permission to write in {data}"


@pytest.mark.parametrize("blocker", ["a-file", "a-link-to-nowhere", "no-permission"])
@pytest.mark.parametrize(
    ("argv", "folder"),
    [pytest.param(["view"], "games", id="view"), pytest.param(["demo", "--headless"], "demos", id="demo")],
)
def test_a_data_folder_that_cannot_be_made_is_said_in_one_line_not_waited_in(
    home: Path, blocker: str, argv: list[str], folder: str
) -> None:
    data, why = in_the_way(home, blocker)
    command = as_another_user([COMPANION, *argv]) if blocker == "no-permission" else [COMPANION, *argv]
    done = subprocess.run(
        command,
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        env={**os.environ, "XDG_DATA_HOME": str(data)},
        timeout=30,  # the view waited for ever for a game in a folder that can never be
    )
    made = data / "table-companion" / folder
    assert (done.returncode, done.stderr) == (
        2,
        f"companion {argv[0]}: cannot make the {folder} folder {made}: {why}\n",
    )
    assert done.stdout == ""


@pytest.mark.parametrize("command", ["history", "view"])
def test_no_home_is_said_with_the_variables_to_set(command: str) -> None:
    environment = {name: value for name, value in os.environ.items() if name not in {"HOME", "XDG_DATA_HOME"}}
    done = subprocess.run(
        as_another_user([COMPANION, command]),
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        env=environment,
        timeout=30,
    )
    assert (done.returncode, done.stderr) == (
        2,
        f"companion {command}: no home folder to keep the games in: set HOME or XDG_DATA_HOME to a folder's"
        " full path\n",
    )
