"""The `companion` command at its edges: the app's options given before a command, Ctrl+C, an output that
cannot be written or is closed, no terminal to show the app in or one that cannot draw it, a colour system
Textual does not know, a byte typed that is no UTF-8, SIGTERM or SIGHUP to a game being played, and a user's
folder holding files named as the program's packages. The installed command runs as a subprocess (under a
pseudo-terminal where it needs one); the app's options are checked in the app its pilot drives."""

from __future__ import annotations

import asyncio
import fcntl
import os
import pty
import random
import signal
import struct
import subprocess
import sys
import termios
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from textual.pilot import Pilot

from companion.app.app import CompanionApp
from companion.app.sharing import ServedView, free_port
from companion.cli import main as companion_main
from companion.games import alhambra_rw as rw
from companion.games.alhambra_rw.log import write_log
from companion.games.alhambra_rw.simulate import play_random_game

ROOT = Path(__file__).parents[2]
COMPANION = str(Path(sys.executable).parent / "companion")
EXAMPLE = str(ROOT / "companion/games/alhambra_dice/examples/example-game.jsonl")
"""A game log whose `score --json` is some 16 KB: more than a small pipe holds."""
MISSING_CAMERA = "97"
"""A camera number no test machine has."""
LEAVE_THE_APPS_SCREEN = b"\x1b[?1049l"

needs_dev_full = pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full on this system")


# ---------------------------------------------------------------------------- options before a command
def test_the_apps_options_before_play_are_the_apps(home: Path) -> None:
    """`companion --help` shows them before COMMAND, but `companion --seed 5 --camera 0 play` had no seed
    and no camera, and `--hold 5` after it was refused as given without --camera."""
    seen: dict[str, object] = {}

    async def look(pilot: Pilot[Any]) -> None:
        app = pilot.app
        assert isinstance(app, CompanionApp)
        seen.update(camera=app.camera, keep_frames=app.keep_frames, roll=app.rng.random())
        await pilot.press("ctrl+q")

    argv = ["--seed", "5", "--camera", MISSING_CAMERA, "--no-frames", "play", "--hold", "5"]
    assert companion_main(argv, pilot=look) == 0
    assert seen["camera"] is not None, "the camera given before `play` was dropped"
    assert seen["keep_frames"] is False
    assert seen["roll"] == random.Random(5).random()


@pytest.mark.parametrize(
    ("before", "command"),
    [
        (["--seed", "5"], ["score", EXAMPLE]),
        (["--camera", "0"], ["history"]),
        (["--no-frames"], ["calibrate", "show"]),
    ],
    ids=["seed-score", "camera-history", "no-frames-calibrate"],
)
def test_an_apps_option_before_another_command_is_refused(
    home: Path, before: list[str], command: list[str]
) -> None:
    """They were taken and ignored without a word."""
    result = subprocess.run([COMPANION, *before, *command], capture_output=True, text=True, timeout=60)
    assert result.returncode == 2 and result.stdout == "", result.stdout
    said = result.stderr.splitlines()[-1]
    assert said.startswith(f"companion: error: {before[0]} before `{command[0]}` is an option of the app")


# --------------------------------------------------------------------------------------------- Ctrl+C
@pytest.mark.skipif(not hasattr(fcntl, "F_SETPIPE_SZ"), reason="a pipe's size is set on Linux only")
def test_ctrl_c_while_printing_is_one_line_and_status_130(home: Path) -> None:
    """It printed a KeyboardInterrupt's traceback. Its output goes to a pipe that holds one page and is not
    read: once the pipe is full, the command waits writing the rest, and Ctrl+C comes then."""
    child = subprocess.Popen(
        [COMPANION, "score", "--json", EXAMPLE], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    try:
        assert child.stdout is not None
        held = fcntl.fcntl(child.stdout.fileno(), fcntl.F_SETPIPE_SZ, os.sysconf("SC_PAGE_SIZE"))
        waiting = bytearray(4)
        for _ in range(600):
            fcntl.ioctl(child.stdout.fileno(), termios.FIONREAD, waiting)
            if int.from_bytes(waiting, sys.byteorder) >= held:
                break
            time.sleep(0.1)
        else:
            raise AssertionError("the command never filled its output")
        child.send_signal(signal.SIGINT)
        _, err = child.communicate(timeout=60)
    finally:
        child.kill()
    assert err.decode() == "companion score: stopped\n"
    assert child.returncode == 130


def test_a_headless_demo_stopped_by_ctrl_c_says_so_and_leaves_no_log(home: Path) -> None:
    child = subprocess.Popen(
        [COMPANION, "demo", "--headless"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        assert child.stderr is not None
        first = child.stderr.readline()  # the demo has taken its log's name and is at work
        assert "teaching" in first, first + child.communicate(timeout=60)[1]
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=60)
    finally:
        child.kill()
    assert err == "companion demo: stopped\n" and out == ""
    assert child.returncode == 130
    demos = home / "data" / "table-companion" / "demos"
    assert not list(demos.iterdir()), "the stopped demo's log was left behind"


# ------------------------------------------------------------------------------------------ full output
@needs_dev_full
@pytest.mark.parametrize(
    "command",
    [["score", EXAMPLE], ["score", "--json", EXAMPLE], ["history"], ["stats"]],
    ids=["score", "score-json", "history", "stats"],
)
def test_an_output_that_cannot_be_written_is_one_line(home: Path, command: list[str]) -> None:
    """`> /dev/full` printed the traceback of an OSError: [Errno 28] No space left on device."""
    with open("/dev/full", "w") as full:
        result = subprocess.run(
            [COMPANION, *command], stdout=full, stderr=subprocess.PIPE, text=True, timeout=60
        )
    assert result.stderr == f"companion {command[0]}: cannot write the standard output: the disk is full\n"
    assert result.returncode == 2


@needs_dev_full
def test_a_headless_demo_to_a_full_output_says_so_and_keeps_its_log(home: Path) -> None:
    """The demo played its whole game and then ended in the traceback of the breakdown it could not print."""
    with open("/dev/full", "w") as full:
        result = subprocess.run(
            [COMPANION, "demo", "--headless", "--solo", "--seed", "3"],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            timeout=300,
        )
    last = result.stderr.splitlines()[-1]
    assert last == "companion demo: cannot write the standard output: the disk is full"
    assert result.returncode == 2
    assert len(list((home / "data" / "table-companion" / "demos").glob("*.jsonl"))) == 1


# ------------------------------------------------------------------------------------ closed streams
def with_closed(stream: str, command: list[str], timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """`companion COMMAND` started with `stream` closed (`>&-`, `<&-`): Python has none for it (None)."""
    shell = f'"$0" "$@" {stream}'
    return subprocess.run(
        ["sh", "-c", shell, COMPANION, *command], capture_output=True, text=True, timeout=timeout
    )


@pytest.mark.parametrize(
    "command",
    [
        ["score", EXAMPLE],
        ["score", "--json", EXAMPLE],
        ["history"],
        ["stats"],
        ["stats", "--json"],
        ["calibrate", "show"],
        ["demo", "--headless"],
    ],
    ids=["score", "score-json", "history", "stats", "stats-json", "calibrate-show", "demo-headless"],
)
def test_a_closed_output_is_one_line(home: Path, command: list[str]) -> None:
    """`>&-` ended each in the traceback of an AttributeError ('NoneType' object has no attribute 'flush'),
    the headless demo after its whole game (some 70 s): it is refused before it plays."""
    result = with_closed(">&-", command)
    assert result.stderr == f"companion {command[0]}: cannot write the standard output: it is closed\n"
    assert result.returncode == 2
    assert not (home / "data" / "table-companion" / "demos").exists(), "the demo was played"


@pytest.mark.parametrize("command", [[], ["view"]], ids=["play", "view"])
def test_the_app_with_its_input_closed_says_it_has_no_terminal(home: Path, command: list[str]) -> None:
    """`companion <&-` ended in the traceback of an AttributeError ('NoneType' object has no attribute
    'isatty')."""
    result = with_closed("<&-", command)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1, result.stderr
    assert "needs a terminal: the standard input is not one" in result.stderr


def test_the_demo_with_its_input_closed_plays_headless(home: Path) -> None:
    shell = 'exec "$0" "$@" <&-'
    with subprocess.Popen(
        ["sh", "-c", shell, COMPANION, "demo"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    ) as child:
        try:
            assert child.stderr is not None
            first = child.stderr.readline()
        finally:
            child.kill()
    assert first == "companion demo: no terminal to show the app in: playing headless\n"


# ---------------------------------------------------------------------------------------- no terminal
@pytest.mark.parametrize(
    ("command", "instead"), [([], "companion score LOG"), (["view"], "companion serve")], ids=["play", "view"]
)
def test_the_app_without_a_terminal_says_so_at_once(home: Path, command: list[str], instead: str) -> None:
    """It drew its escape codes into standard error and waited for keys until it was killed."""
    result = subprocess.run(
        [COMPANION, *command],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and "\x1b" not in result.stderr, result.stderr[:300]
    assert "needs a terminal: the standard input is not one" in result.stderr and instead in result.stderr


@contextmanager
def in_a_terminal(
    command: list[str], cwd: Path, stderr: int | None = None, environment: dict[str, str] | None = None
) -> Iterator[tuple[subprocess.Popen[bytes], int, Callable[[], bytes]]]:
    """`command` run with a pseudo-terminal (100 × 32) as its standard input and output, and as its
    standard error unless `stderr` is given, its `environment` over ours: the child, the terminal's keyboard
    end, and what the terminal has been sent so far (read all along: a terminal that is not read stops the
    app drawing)."""
    keyboard, screen = pty.openpty()
    fcntl.ioctl(screen, termios.TIOCSWINSZ, struct.pack("HHHH", 32, 100, 0, 0))
    child = subprocess.Popen(
        command,
        stdin=screen,
        stdout=screen,
        stderr=screen if stderr is None else stderr,
        env={**os.environ, "TERM": "xterm-256color", **(environment or {})},
        cwd=cwd,
        start_new_session=True,
    )
    os.close(screen)
    drawn = bytearray()

    def read() -> None:
        while True:
            try:
                chunk = os.read(keyboard, 65536)
            except OSError:  # the child has ended and closed the terminal
                return
            if not chunk:
                return
            drawn.extend(chunk)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        yield child, keyboard, lambda: bytes(drawn)
    finally:
        child.kill()
        child.wait(timeout=30)
        reader.join(timeout=10)
        os.close(keyboard)


def until(done: Callable[[], object], seconds: float, what: str) -> None:
    for _ in range(round(seconds / 0.1)):
        if done():
            return
        time.sleep(0.1)
    raise AssertionError(f"waited {seconds:.0f} s for {what}")


def test_the_app_with_its_standard_error_thrown_away_says_so_on_the_terminal(home: Path) -> None:
    """`companion 2>/dev/null` drew nothing (Textual draws on standard error) and waited for keys."""
    with in_a_terminal([COMPANION], home, stderr=subprocess.DEVNULL) as (child, _, drawn):
        assert child.wait(timeout=60) == 2
        until(lambda: b"\n" in drawn(), 10, "the line on the terminal")
    said = drawn().decode()
    assert "\x1b" not in said, said[:300]
    assert said.startswith("companion: the app needs a terminal: the standard error, where it draws, is not")


CANNOT_DRAW = {
    "dumb": ({"TERM": "dumb"}, "needs a terminal that can draw (TERM=dumb)"),
    "unknown": ({"TERM": "unknown"}, "needs a terminal that can draw (TERM=unknown)"),
    "latin-1": (
        {"PYTHONIOENCODING": "latin-1"},
        "draws in Unicode: run it in a UTF-8 terminal (e.g. LANG=C.UTF-8; this one writes iso8859-1)",
    ),
}
"""Terminals the app cannot draw in: what tells them, and what is said."""


@pytest.mark.parametrize("terminal", CANNOT_DRAW)
@pytest.mark.parametrize(("command", "what"), [([], "the app"), (["view"], "the view")], ids=["play", "view"])
def test_a_terminal_that_cannot_draw_the_app_is_refused_at_once(
    home: Path, command: list[str], what: str, terminal: str
) -> None:
    """In Emacs' shell (TERM=dumb) the app's escape codes are text; in a terminal that is not UTF-8 every
    border, ■ and □ was drawn as "?", a building crossed as a free one."""
    environment, said = CANNOT_DRAW[terminal]
    with in_a_terminal([COMPANION, *command], home, environment=environment) as (child, _, drawn):
        assert child.wait(timeout=60) == 2
        until(lambda: b"\n" in drawn(), 10, "the line on the terminal")
    line = drawn().decode("latin-1")
    assert "\x1b" not in line, line[:300]
    assert line.rstrip("\r\n") == " ".join(["companion", *command]) + f": {what} {said}"


@pytest.mark.parametrize(
    "locale",
    [{"LANG": "C"}, {"LC_ALL": "C"}, {"LC_ALL": "POSIX"}],
    ids=["LANG=C", "LC_ALL=C", "LC_ALL=POSIX"],
)
def test_the_app_is_drawn_in_the_c_locale(home: Path, locale: dict[str, str]) -> None:
    """Python takes the C locale for UTF-8 (PEP 538, PEP 540): the app is not refused there."""
    bare = {"LANG": "", "LC_ALL": "", "LC_CTYPE": "", "PYTHONIOENCODING": "", **locale}
    with in_a_terminal([COMPANION], home, environment=bare) as (child, keyboard, drawn):
        until(lambda: b"player 1" in drawn(), 60, "the start screen's form")
        os.write(keyboard, b"\x11")  # ctrl+q
        assert child.wait(timeout=20) == 0
    assert "▼".encode() in drawn()


UNKNOWN_COLOURS = (
    "TEXTUAL_COLOR_SYSTEM=truecolour is no colour system Textual knows: auto, standard, 256, truecolor"
    " or windows"
)


@pytest.mark.parametrize("command", [[], ["view"]], ids=["play", "view"])
def test_a_colour_system_textual_does_not_know_is_refused(home: Path, command: list[str]) -> None:
    """The app and the view ended in the traceback of a KeyError (a phone's view is started in truecolor by
    textual-serve whatever the server's is)."""
    result = subprocess.run(
        [COMPANION, *command],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        env={**os.environ, "TEXTUAL_COLOR_SYSTEM": "truecolour"},
        timeout=60,
    )
    assert result.stderr == " ".join(["companion", *command]) + f": {UNKNOWN_COLOURS}\n"
    assert result.returncode == 2


def test_a_demo_in_the_app_refuses_a_colour_system_textual_does_not_know(
    home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Headless, it plays: it draws nothing."""
    from textual import constants

    monkeypatch.setattr(constants, "COLOR_SYSTEM", "truecolour")

    async def never(pilot: Pilot[Any]) -> None:
        raise AssertionError("the app was started")

    assert companion_main(["demo"], pilot=never) == 2
    assert capsys.readouterr().err == f"companion demo: {UNKNOWN_COLOURS}\n"


# ------------------------------------------------------------------------------ what the terminal sends
@pytest.mark.parametrize(
    ("command", "shown", "quit_key"),
    [([], b"player 1", b"\x11"), (["view"], b"no game", b"q")],
    ids=["play", "view"],
)
def test_a_byte_that_is_no_utf8_is_read_as_a_replacement(
    home: Path, command: list[str], shown: bytes, quit_key: bytes
) -> None:
    """ü typed in a terminal set to Latin-1 (the byte 0xFC) ended the app in Textual's traceback of a
    UnicodeDecodeError, and the command in status 0."""
    with in_a_terminal([COMPANION, *command], home) as (child, keyboard, drawn):
        until(lambda: shown in drawn(), 60, "the app's first screen")
        before = len(drawn())
        os.write(keyboard, b"J\xfcrgen")
        if not command:
            until(lambda: "J\ufffdrgen".encode() in drawn()[before:], 30, "the name typed in")
        else:
            time.sleep(1)
        assert child.poll() is None, drawn()[-2000:].decode(errors="replace")
        os.write(keyboard, quit_key)
        assert child.wait(timeout=30) == 0
    assert b"UnicodeDecodeError" not in drawn()


@pytest.mark.parametrize("command", [[], ["view"]], ids=["play", "view"])
def test_an_app_ended_in_a_panic_ends_in_status_1(home: Path, command: list[str]) -> None:
    """Textual's panic (an error in its input thread, where a key's byte could not be read) showed the
    traceback, and the command ended in status 0 all the same."""

    async def panic(pilot: Pilot[Any]) -> None:
        pilot.app.panic("the input thread failed")

    assert companion_main(command, pilot=panic) == 1


# ------------------------------------------------------------------------------------ SIGTERM, SIGHUP
@pytest.mark.parametrize("ending", [signal.SIGTERM, signal.SIGHUP], ids=["SIGTERM", "SIGHUP"])
def test_a_game_ended_by_a_signal_gives_the_terminal_back(home: Path, ending: signal.Signals) -> None:
    """SIGTERM (or SIGHUP, the terminal still open) left the terminal on the app's screen, reporting the
    mouse, its cursor hidden; the game's moves were kept all the same, and are still."""
    games = home / "data" / "table-companion" / "games"
    with in_a_terminal([COMPANION], home) as (child, keyboard, drawn):
        until(lambda: b"player 1" in drawn(), 60, "the start screen's form")
        before = len(drawn())
        os.write(keyboard, b"Ann")
        until(lambda: b"Ann" in drawn()[before:], 30, "the name typed in")
        os.write(keyboard, b"\x1b[15~")  # F5: the game starts, its log in the games folder
        until(lambda: b"Score sheet" in drawn(), 30, "the game's screen")
        (log,) = games.glob("*.jsonl")
        os.write(keyboard, b"y3 b5\r")
        until(lambda: '"event":"roll"' in log.read_text(), 30, "the roll in the log")
        child.send_signal(ending)
        assert child.wait(timeout=30) == 128 + ending
        until(lambda: LEAVE_THE_APPS_SCREEN in drawn(), 10, "the app's screen left")
    shown = drawn()
    after = shown[shown.rindex(b"\x1b[?1049h") :]
    assert LEAVE_THE_APPS_SCREEN in after, "still on the app's screen"
    given_back = after[after.index(LEAVE_THE_APPS_SCREEN) :]
    assert b"\x1b[?25h" in given_back and b"\x1b[?1000l" in given_back, "cursor hidden or mouse reported"
    assert '"yellow":[3],"blue":[5]' in log.read_text()


def test_the_app_stopped_and_continued_still_quits(home: Path) -> None:
    """Stopped (SIGSTOP: a debugger, the shell stopping a program that wrote from the background) and
    continued, the app took the terminal again each time, one more input thread each: ctrl+q gave the screen
    back and the process never ended (5 of 9 quits after one to three stops; the threads, two more each
    time, tell every time)."""
    with in_a_terminal([COMPANION], home) as (child, keyboard, drawn):
        until(lambda: b"player 1" in drawn(), 60, "the start screen's form")
        time.sleep(1)
        threads = Path(f"/proc/{child.pid}/task")
        running = len(list(threads.iterdir()))
        for _ in range(3):
            child.send_signal(signal.SIGSTOP)
            time.sleep(0.3)
            child.send_signal(signal.SIGCONT)
            time.sleep(0.5)
        assert len(list(threads.iterdir())) == running
        os.write(keyboard, b"\x11")  # ctrl+q
        assert child.wait(timeout=20) == 0


def test_a_sheet_being_typed_outlives_the_terminal_closed(home: Path) -> None:
    """The terminal closed over the sheet editor (SIGHUP) threw the typed cells away; they are kept as a draft
    at every change, which the next F2 opens on (tests/app/test_app_sheet_editor.py)."""
    draft = home / "config" / "table-companion" / "sheets" / "being-typed.draft"
    with in_a_terminal([COMPANION], home) as (child, keyboard, drawn):
        until(lambda: b"player 1" in drawn(), 60, "the start screen's form")
        os.write(keyboard, b"\x1bOQ")  # F2
        until(lambda: b"Sheet editor" in drawn(), 30, "the sheet editor")
        os.write(keyboard, b"ttt")
        until(lambda: draft.exists() and "TTT" in draft.read_text(encoding="utf-8"), 30, "the draft kept")
        child.send_signal(signal.SIGHUP)
        assert child.wait(timeout=30) == 128 + signal.SIGHUP
    assert draft.read_text(encoding="utf-8").startswith('{"grid": ["TTT')


# ------------------------------------------------------------------ a folder with the packages' names
SHADOWS = ("calibration.py", "jsonfile.py", "models.py", "vision.py")
"""Files a user's folder may hold with the names of the program's own top-level packages."""


def folder_of_shadows(home: Path) -> Path:
    folder = home / "project"
    folder.mkdir()
    for name in SHADOWS:
        (folder / name).write_text("# mine\n")
    return folder


def game_being_played(home: Path) -> Path:
    setup = rw.GameStarted(rw.load_shipped_sheet("example"), ("Ann", "Ben", "Cleo"))
    log = home / "playing.jsonl"
    write_log(log, play_random_game(setup, random.Random(2))[1][:20])
    return log


def first_screen(port: int, token: str) -> int:
    """How many bytes the view's first drawing has, as a phone receives it (0: the view closed first)."""

    async def watch() -> int:
        for _ in range(200):  # until the server listens
            try:
                async with aiohttp.ClientSession() as session:
                    url = f"ws://127.0.0.1:{port}/ws/{token}?width=80&height=24"
                    async with asyncio.timeout(60), session.ws_connect(url) as socket:
                        async for message in socket:
                            if message.type == aiohttp.WSMsgType.BINARY and len(message.data) > 100:
                                return len(message.data)
                        return 0
            except aiohttp.ClientConnectionError:
                await asyncio.sleep(0.1)
        raise AssertionError(f"nothing listens on {port}")

    return asyncio.run(watch())


def test_a_served_view_is_drawn_from_a_folder_holding_files_named_as_the_packages(home: Path) -> None:
    """Each view, started as `python -m companion view` in the user's folder, imported its `calibration.py`
    for the program's package and ended (ModuleNotFoundError): the phone got 0 bytes."""
    port, token = free_port(0), "abc123"
    command = [COMPANION, "serve", "--host", "127.0.0.1", "--port", str(port), "--token", token]
    server = subprocess.Popen(
        [*command, str(game_being_played(home))],
        cwd=folder_of_shadows(home),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        drawn = first_screen(port, token)
    finally:
        server.terminate()
        _, err = server.communicate(timeout=30)
    assert drawn > 100, err[-2000:]
    assert "ModuleNotFoundError" not in err, err[-2000:]


def test_f6s_server_serves_from_a_folder_holding_files_named_as_the_packages(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The app's F6 started `python -m companion serve` in the user's folder: its `jsonfile.py` stood in
    for the program's package and the server ended before it listened."""
    monkeypatch.chdir(folder_of_shadows(home))
    served = ServedView(free_port(0), "abc123")
    try:
        served.serve(game_being_played(home))
        drawn = first_screen(served.port, served.token)
    finally:
        served.stop()
    assert drawn > 100, served.why_ended()
