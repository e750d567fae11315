"""The `companion` command: a dispatcher of subcommands (argparse).

Each subcommand is a function `run(args) -> exit code` registered in `build_parser`; add one by adding a
subparser there.
"""

from __future__ import annotations

import argparse
import asyncio
import codecs
import os
import re
import signal
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from rich.cells import cell_len, set_cell_size

from companion.games.entry import load
from companion.games.table import FIRST_GAME, GAMES, PLAYED
from companion.scorefiles import ScoreFileError, score_path
from jsonfile import (
    CLOSED_OUTPUT,
    OutputError,
    complain,
    count,
    duration,
    output_to_nowhere,
    print_json,
    printable,
    printing,
    replace_what_cannot_be_shown,
)

if TYPE_CHECKING:  # the app's modules load Textual, OpenCV and the models: only when the app runs
    from textual.app import App
    from textual.app import AutopilotCallbackType as AutoPilot

    from companion.app.app import CameraSetup
    from companion.history import History, PlayerStats
    from vision.settle import SettleSettings
    from vision.symbols.profile import SymbolProfile

EXIT_BAD_INPUT = 2
EXIT_STOPPED = 130
"""Stopped by Ctrl+C: the status a shell gives a command that SIGINT ended."""
PILOT_SIZE = (100, 32)
"""The terminal size a test's pilot drives the app at."""
APP_OPTIONS: dict[str, object] = {
    "seed": None,
    "camera": None,
    "symbols": None,
    "hold": None,
    "no_frames": False,
}
"""The app's options (`companion play`'s), each with its value when not given; `companion` takes them before
a command too (`companion --camera 0 play`), read into `BEFORE` + the name."""
BEFORE = "before_command_"
"""Where `companion` reads an app option given before the command, for `parse` to hand to the command."""


def run_score(args: argparse.Namespace) -> int:
    """`companion score FILE [--json]`: score a game log, an end state or a turn (the file's "game" picks
    the game) and print the breakdown."""
    from companion.app.paths import FolderError, sheets_dir

    try:
        folder: Path | None = sheets_dir()
    except FolderError:  # no home: an end state names a shipped sheet, or gives its own inline
        folder = None
    try:
        scored = score_path(args.file, folder)
    except ScoreFileError as exc:
        complain("companion score", str(exc))
        return EXIT_BAD_INPUT
    if scored.warning:
        complain("companion score", f"warning: {scored.warning}")
    with printing():
        if args.json:
            print_json(scored.json)
        else:
            print(scored.text)
    return 0


def run_rename(args: argparse.Namespace) -> int:
    """`companion rename FILE OLD NEW`: a player's name put right in one saved game, of any game."""
    from companion.rename import RenameError, rename

    try:
        renamed = rename(args.file, args.old, args.new)
    except RenameError as exc:
        complain("companion rename", str(exc))
        return EXIT_BAD_INPUT
    with printing():
        print(printable(renamed.line()))
    return 0


def run_city(args: argparse.Namespace) -> int:
    """`companion city PHOTO --profile PROFILE [--knight] [--json]`: read a photo of a built Carcassonne city
    with the taught dice profile, and print the city as read with its score and the reasons."""
    from companion.games.carcassonne_dice import score_layout
    from companion.live.city import not_a_city_profile, read_city_photo, settled_text
    from vision.grid import GridError
    from vision.images import ImageError
    from vision.symbols.profile import ProfileError, load_profile

    try:
        profile = load_profile(args.profile)
        if why := not_a_city_profile(profile):
            raise ProfileError(f"{args.profile}: {why}")
        reading = read_city_photo(args.photo, profile)
    except (ProfileError, ImageError, GridError) as exc:
        complain("companion city", str(exc))
        return EXIT_BAD_INPUT
    scored = score_layout(reading.layout, args.knight)
    with printing():
        if args.json:
            report = {
                "turn": reading.turn_json(args.knight),
                "score": scored.to_json(),
                "knights": reading.knights,
                "catapults": reading.catapults,
                "asked": list(reading.asked),
            }
            print_json(report)
        else:
            print(settled_text(str(args.photo), reading, scored))
    return 0


class CalibrationError(ValueError):
    """A remembered calibration file that cannot be used."""


def camera_setup(
    spec: str,
    hold: float | None = None,
    symbols: SymbolProfile | None = None,
    settling: SettleSettings | None = None,
) -> CameraSetup:
    """The live reader for a camera SPEC, with this table's remembered calibration (colour profile, area);
    photos given as the camera are each held `hold` seconds (None: `vision.sources.HOLD_SECONDS`). With a
    taught `symbols` profile it reads the symbol dice too; `settling` says how throws settle."""
    from calibration.table_area import AreaReader, TableAreaError, load_area
    from companion.app import paths
    from companion.app.app import CameraSetup
    from companion.live.feed import LIVE_FPS, FeedSettings
    from vision.colour_profile import ColourProfile, ColourProfileError, load_profile
    from vision.pips import PipReader
    from vision.reader import DiceReader
    from vision.sources import VIDEO_SUFFIXES, open_source

    try:
        profile_path, area_path = paths.colour_profile_path(), paths.table_area_path()
        profile = load_profile(profile_path) if profile_path.is_file() else None
        area = load_area(area_path) if area_path.is_file() else None
    except (ColourProfileError, TableAreaError) as exc:
        raise CalibrationError(str(exc)) from None
    pips = PipReader(colour_profile=profile)
    dice = DiceReader(pips, symbols)

    def use_profile(taught: ColourProfile) -> None:
        pips.colour_profile = taught

    reader = AreaReader(dice, area) if area is not None else dice
    # A video file is played once; a camera or a stream that ends is opened again.
    is_video = Path(spec).suffix.lower() in VIDEO_SUFFIXES and Path(spec).is_file()
    return CameraSetup(
        lambda: open_source(spec, hold=hold),
        reader,
        use_profile,
        FeedSettings(reopen_when_ended=not is_video, max_fps=None if is_video else LIVE_FPS),
        settling,
        symbols,
        area,
    )


def check_camera_file(spec: str, hold: float | None = None) -> None:
    """Raises `SourceError` when a camera SPEC naming a file or a folder gives no frame: an empty or broken
    video, a file of another kind, a folder without one usable photo. The app would say "camera lost" and try
    it again forever; a camera's number or a stream's address may yet be plugged in or started, and is left to
    the app's retries. OpenCV's and FFmpeg's complaints go to the log, as the app's do."""
    from companion.app.paths import log_path
    from vision.native_output import native_output_to
    from vision.sources import names_a_camera, open_source

    if names_a_camera(spec):
        return
    with native_output_to(log_path(), "companion"):
        source = open_source(spec, hold=hold)
        try:
            next(iter(source), None)
        finally:
            source.close()


def run_app(app: App[None], pilot: AutoPilot | None) -> int:
    """Run the app on this terminal, native libraries' warnings going to the log file; a test's `pilot`
    drives the same app headless instead. The app's exit status: 1 when it ended in an error (Textual has
    shown the traceback); 128 + the signal's number when SIGTERM or SIGHUP ended it."""
    from companion.app.paths import log_path
    from vision.native_output import native_output_to

    with native_output_to(log_path(), "companion"):
        if pilot is not None:
            app.run(headless=True, size=PILOT_SIZE, auto_pilot=pilot)
        elif sys.platform == "win32":
            app.run()
        else:
            with asyncio.Runner() as runner:
                # Textual leaves both to Python, which ended at once: the terminal stayed on the app's
                # screen, the mouse reported and the cursor hidden. Asked to quit, the app restores it as
                # on ctrl+q, and its threads are stopped.
                for ending in (signal.SIGTERM, signal.SIGHUP):
                    runner.get_loop().add_signal_handler(ending, app.exit, None, 128 + ending)
                app.run(loop=runner.get_loop())
    return app.return_code or 0


def run_play(args: argparse.Namespace) -> int:
    """`companion [play] [--seed N] [--camera SPEC [--hold SECONDS] [--symbols PROFILE]]`: the Textual app
    (imported here: `companion score` stays light). With a camera, a source that does not open is reported
    in the app, which keeps retrying; a file or folder that gives no frame is refused before it starts."""
    import random

    from companion.app.app import CompanionApp
    from companion.live.match import FACE_SETTLING
    from vision.sources import SourceError
    from vision.symbols.profile import ProfileError, load_profile

    if args.camera is None and (args.symbols is not None or args.hold is not None):
        # Without a camera they were ignored without a word: the dice were never read.
        complain("companion", "--symbols and --hold are for reading the dice with --camera SPEC: give it too")
        return EXIT_BAD_INPUT
    try:
        symbols = None if args.symbols is None else load_profile(args.symbols)
    except ProfileError as exc:
        complain("companion", f"{exc} (teach it with `python -m calibration.faces`)")
        return EXIT_BAD_INPUT
    try:
        # With symbol dice, a throw settles on their faces (Alhambra dice: the game counts faces alone).
        settling = None if symbols is None else FACE_SETTLING
        camera = None if args.camera is None else camera_setup(args.camera, args.hold, symbols, settling)
        if args.camera is not None:
            check_camera_file(args.camera, args.hold)
    except CalibrationError as exc:
        complain("companion", f"{exc} (teach it again with `companion calibrate`)")
        return EXIT_BAD_INPUT
    except ProfileError as exc:
        complain("companion", f"{args.symbols}: {exc}")
        return EXIT_BAD_INPUT
    except SourceError as exc:
        complain("companion", str(exc))
        return EXIT_BAD_INPUT
    if why := _unknown_colour_system():
        complain("companion", why)
        return EXIT_BAD_INPUT
    if args.pilot is None and (why := _no_terminal()):
        _say_without_terminal(
            "companion", f"the app needs a terminal: {why} (`companion score LOG` scores a game)"
        )
        return EXIT_BAD_INPUT
    if args.pilot is None and (why := _cannot_draw("the app")):
        complain("companion", why)
        return EXIT_BAD_INPUT
    app = CompanionApp(rng=random.Random(args.seed), camera=camera, keep_frames=not args.no_frames)
    try:
        return run_app(app, args.pilot)
    finally:
        app.stop_camera()


def run_demo(args: argparse.Namespace) -> int:
    """`companion demo [--game GAME] [--headless] [--solo] [--seed N]`: a whole game on the rendered table."""
    if args.game != FIRST_GAME.id and args.solo:
        print("companion demo: --solo is a Roll & Write variant; this game's demo has 3 players",
              file=sys.stderr)  # fmt: skip
        return EXIT_BAD_INPUT
    if sys.stdout is None:  # `>&-`: refused now, not after minutes of play with the breakdown to print
        complain("companion demo", CLOSED_OUTPUT)
        return EXIT_BAD_INPUT
    if not args.headless and args.pilot is None:
        if _no_terminal() or not sys.stdout.isatty():
            print("companion demo: no terminal to show the app in: playing headless", file=sys.stderr)
            args.headless = True
        elif why := _cannot_draw("the app"):
            complain("companion demo", f"{why}: playing headless")
            args.headless = True
    if not args.headless and (why := _unknown_colour_system()):
        complain("companion demo", why)
        return EXIT_BAD_INPUT
    demo: Callable[[argparse.Namespace], int] = load(PLAYED[args.game].demo)
    return demo(args)  # its breakdown printed by `print_json`: an output that cannot take it says so


def run_view(args: argparse.Namespace) -> int:
    """`companion view [LOG]`: the read-only view of the game being played (the newest log), following it."""
    from companion.app.paths import games_dir
    from companion.app.sharing import end_with_server
    from companion.app.table_view import TableView

    if not _log_found(args, "companion view"):
        return EXIT_BAD_INPUT
    if why := _unknown_colour_system():
        complain("companion view", why)
        return EXIT_BAD_INPUT
    if args.pilot is None and (why := _no_terminal()):
        # A browser's view (`companion serve`) has none: textual-serve names its own driver.
        _say_without_terminal(
            "companion view", f"the view needs a terminal: {why} (`companion serve` serves it to browsers)"
        )
        return EXIT_BAD_INPUT
    if args.pilot is None and (why := _cannot_draw("the view")):
        complain("companion view", why)
        return EXIT_BAD_INPUT
    end_with_server()
    return run_app(TableView(games_dir(), args.log), args.pilot)


def _no_terminal() -> str:
    """Why the app cannot be shown here ('' where it can): Textual reads the keys from standard input and
    draws on standard error, unless the environment names another driver (textual-serve's, for a browser).
    Without one it drew its escape codes into a file and waited for keys that never came."""
    from textual import constants

    if constants.DRIVER is not None:
        return ""
    # Either may be closed (`<&-`, `2>&-`): Python has no stream for it then (None).
    if sys.stdin is None or not sys.stdin.isatty():
        return "the standard input is not one"
    if sys.stderr is None or not sys.stderr.isatty():
        return "the standard error, where it draws, is not one"
    return ""


def _unknown_colour_system() -> str:
    """The line refusing the TEXTUAL_COLOR_SYSTEM set ('' where Textual knows it): the app and the view
    ended in the traceback of a KeyError building their first screen (`truecolour`, `256color`)."""
    from rich.console import COLOR_SYSTEMS
    from textual import constants

    known = ["auto", *COLOR_SYSTEMS]
    if constants.COLOR_SYSTEM in known:
        return ""
    return (
        f"TEXTUAL_COLOR_SYSTEM={constants.COLOR_SYSTEM} is no colour system Textual knows: "
        f"{', '.join(known[:-1])} or {known[-1]}"
    )


DUMB_TERMINALS = ("dumb", "unknown")
"""The TERM of a terminal that draws no more than lines of text (Emacs' shell, an IDE's console), as Rich
tells one."""


def _cannot_draw(what: str) -> str:
    """Why the terminal cannot draw `what` (the app, the view), a line to say ('' where it can): a dumb one
    (Emacs' shell) shows the app's escape codes as text, and one whose encoding is not UTF-8 drew every
    border, ■ and □ (a building crossed and a free one) as "?". The C locale is UTF-8 to Python (PEP 538,
    PEP 540): only LC_ALL=C with PYTHONUTF8=0 is not."""
    from textual import constants

    if constants.DRIVER is not None:
        return ""
    term = os.environ.get("TERM", "")
    if term.lower() in DUMB_TERMINALS:
        return f"{what} needs a terminal that can draw (TERM={term})"
    # Textual draws on standard error: its encoding is the terminal's, as the locale has it.
    encoding = codecs.lookup(sys.stderr.encoding).name
    if encoding != "utf-8":
        advice = f"e.g. LANG=C.UTF-8; this one writes {encoding}"
        return f"{what} draws in Unicode: run it in a UTF-8 terminal ({advice})"
    return ""


def _say_without_terminal(prefix: str, message: str) -> None:
    """`message` where it is seen: on standard error, or on standard output when only that is a terminal
    (`companion 2>/dev/null` said nothing and showed nothing)."""
    if sys.stdout is not None and sys.stdout.isatty() and (sys.stderr is None or not sys.stderr.isatty()):
        print(f"{prefix}: {printable(message)}", flush=True)
    else:
        complain(prefix, message)


def _log_found(args: argparse.Namespace, prefix: str) -> bool:
    """Whether the LOG a view follows is a file, said when not; none given, the newest game's: the games
    folder is made to wait in for one (`FolderError`: it cannot be, and no game would ever come)."""
    from companion.app.paths import games_dir, make_folder

    if args.log is None:
        make_folder(games_dir())
        return True
    if args.log.is_file():
        return True
    complain(prefix, f"{args.log}: no such game log")
    return False


def run_serve(args: argparse.Namespace) -> int:
    """`companion serve [--host H] [--port P] [--token T] [--max-viewers N] [LOG]`: the view served to
    browsers (textual-serve), one view per browser, each only reading the log, to those with the key."""
    from companion.app.sharing import (
        cannot_listen,
        companion_command,
        listen_error,
        listening_lines,
        new_token,
    )
    from companion.app.view_server import ViewServer

    if not _log_found(args, "companion serve"):
        return EXIT_BAD_INPUT  # said now, not to each phone that opens the address
    token = args.token or new_token()
    command = companion_command("view", *([str(args.log)] if args.log else []))
    why = cannot_listen(args.host, args.port)
    if not why:
        with printing():
            for line in listening_lines(args.host, args.port, token):
                print(f"companion serve: {line}")
            print("companion serve: ctrl+c stops")
        try:
            ViewServer(command, args.host, args.port, token, args.max_viewers).serve()
            return 0
        except OSError as exc:  # taken since it was tried
            why = listen_error(exc)
    print(f"companion serve: cannot listen on {args.host}, port {args.port}: {why}", file=sys.stderr)
    return EXIT_BAD_INPUT


def run_history(args: argparse.Namespace) -> int:
    """`companion history [--json]`: the finished games, most recent first."""
    from companion.app.paths import games_dir

    found = _finished_games("companion history")
    if found is None:
        return EXIT_BAD_INPUT
    with printing():
        if args.json:
            print_json([game.to_json() for game in found.games])
        elif not found.games:
            print(f"no finished games yet in {games_dir()}")
        for game in () if args.json else found.games:
            players = ", ".join(
                f"{r.name}{' (imaginary)' if r.imaginary else ''} {r.total}" for r in game.results
            )
            print(f"{game.played:%Y-%m-%d %H:%M}  {game.title}  {players}  {game.won}")
    return 0


def run_stats(args: argparse.Namespace) -> int:
    """`companion stats [--json]`: per player, over the finished games: games, wins, totals, and where the
    points came from, each source named in the game's own word (VP, points)."""
    from companion.history import player_stats

    found = _finished_games("companion stats")
    if found is None:
        return EXIT_BAD_INPUT
    with printing():
        _print_stats(player_stats(found.games), args.json)
    return 0


def _print_stats(stats: list[PlayerStats], as_json: bool) -> None:
    """`companion stats`' output: the JSON, or a table per game."""
    from companion.app.paths import games_dir
    from companion.history import RECORDS

    if as_json:
        print_json([s.to_json() for s in stats])
        return
    if not stats:
        print(f"no finished games yet in {games_dir()}")
        return
    for game in dict.fromkeys(st.game for st in stats):
        rows = [st for st in stats if st.game == game]
        # As wide as the longest name on screen (a 40-character name pushed its row's numbers right).
        width = max(cell_len(name) for name in ["player", *(st.name for st in rows)])
        # The game's sources, then a variant's own (Alcazaba's walls), each that some row has.
        kept = dict.fromkeys([*RECORDS[game].sources, *(s for st in rows for s in st.vp_by_source)])
        columns = [s for s in kept if any(s in st.vp_by_source for st in rows)]
        counted = RECORDS[game].counted
        # `vp_tiles` is "VP tiles", not "VP vp tiles".
        named = [f"{counted} " + name.replace("_", " ").removeprefix("vp ") for name in columns]
        # A source's numbers under its name's end ("points knight doubling" is wider than the numbers' 15).
        wide = [max(SOURCE_WIDTH, len(name)) for name in named]
        sources = " ".join(f"{name:>{cells}}" for name, cells in zip(named, wide, strict=True))
        print(GAMES[game].title)
        print(f"{'player':<{width}} {'games':>5} {'wins':>4} {'average':>7} {'best':>4} {sources}")
        for st in rows:
            vp = " ".join(
                f"{st.vp_by_source[s]:{cells}.1f}" if s in st.vp_by_source else f"{'–':>{cells}}"
                for s, cells in zip(columns, wide, strict=True)
            )
            numbers = f"{st.games:5} {st.wins:4} {st.average_total:7.1f} {st.best_total:4} {vp}"
            print(f"{set_cell_size(st.name, width)} {numbers}")
    print("(totals and where they came from are averages per game, except best)")


def _finished_games(prefix: str) -> History | None:
    """The finished games in the games folder, each log left out said; None when the folder cannot be read
    (said): no games found there is not "no games yet"."""
    from companion.app.paths import games_dir
    from companion.history import history

    found = history(games_dir())
    if found.unreadable:
        complain(prefix, f"cannot read {games_dir()}: {found.unreadable}")
        return None
    for problem in found.problems:
        complain(prefix, f"left out {problem}")
    return found


SOURCE_WIDTH = 15
"""The least width of a column of `stats`' points by source."""


def build_parser() -> argparse.ArgumentParser:
    from companion.app.sharing import DEFAULT_PORT, EVERY_NETWORK, MAX_VIEWERS

    parser = argparse.ArgumentParser(
        prog="companion",
        description=f"Table companion for {', '.join(e.title for e in GAMES.values())}: reads the dice a "
        "camera sees, keeps the score and counts the final scoring, every number with its reason.",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    score = commands.add_parser(
        "score",
        help="score a game log or an end-state JSON file",
        description="Score a game log or an end-state JSON file and print the breakdown.",
    )
    score.add_argument(
        "file", metavar="FILE", help="a game log (.jsonl), an end state or a Carcassonne turn (.json)"
    )
    score.add_argument("--json", action="store_true", help="print the breakdown as JSON")
    score.set_defaults(run=run_score)
    city = commands.add_parser(
        "city",
        help="read a photo of a built Carcassonne dice city and score it",
        description="Read a photo of a built Carcassonne dice city (a taught carcassonne profile names the"
        " faces) and print the city as read, its score and why; dice the photo does not settle are asked.",
    )
    city.add_argument("photo", type=Path, metavar="PHOTO", help="a photo of the city from above")
    city.add_argument(
        "--profile",
        type=Path,
        required=True,
        help="the dice taught by calibration.faces --preset carcassonne",
    )
    city.add_argument("--knight", action="store_true", help="the player began the turn holding a knight")
    city.add_argument("--json", action="store_true", help="print the turn file, score and questions as JSON")
    city.set_defaults(run=run_city)
    play = commands.add_parser(
        "play",
        help="the score-sheet app (also what `companion` alone runs)",
        description="The score-sheet app for every game (Alhambra Roll & Write, the Alhambra and Carcassonne"
        " dice games, the original Alhambra's scoring pad); every move is saved as it is made.",
    )
    # Given before a command, each is read into its own `BEFORE` name; no defaults (`parse` fills them in):
    # `play`'s default overwrote the value read before it (`companion --camera 0 play` had no camera).
    for where, before in ((parser, BEFORE), (play, "")):
        where.add_argument(
            "--seed",
            dest=f"{before}seed",
            default=argparse.SUPPRESS,
            metavar="SEED",
            type=int,
            help="seed the app's virtual dice rolls",
        )
        where.add_argument(
            "--camera",
            dest=f"{before}camera",
            default=argparse.SUPPRESS,
            metavar="SPEC",
            help="read the dice live: a camera number (0), a stream URL, a video file or a folder of images",
        )
        where.add_argument(
            "--symbols",
            dest=f"{before}symbols",
            default=argparse.SUPPRESS,
            metavar="PROFILE",
            type=Path,
            help="with --camera: read symbol dice too, with this taught profile "
            "(python -m calibration.faces --preset alhambra)",
        )
        where.add_argument(
            "--hold",
            dest=f"{before}hold",
            default=argparse.SUPPRESS,
            metavar="SECONDS",
            type=duration,
            help="with photos or a video as the camera: how long each photo (or the video's last picture) "
            "lies on the table (default 4)",
        )
    play.set_defaults(run=run_play, app_options=tuple(APP_OPTIONS))
    demo = commands.add_parser(
        "demo",
        help="a whole game on a rendered table, read by the real reader (no camera needed)",
        description="Play a complete game (Alhambra Roll & Write, Alhambra – the dice game, or Carcassonne – "
        "the dice game) on the project's rendered table.",
    )
    demo.add_argument(
        "--game",
        choices=[game for game, entry in PLAYED.items() if entry.demo],
        default=FIRST_GAME.id,
        help=f"the game to play (default {FIRST_GAME.id})",
    )
    demo.add_argument("--headless", action="store_true", help="no screen: print the final breakdown as JSON")
    demo.add_argument("--solo", action="store_true", help="1 player against 2 imaginary players")
    demo.add_argument(
        "--seed", type=int, default=argparse.SUPPRESS, help="seed the dice and the players' choices"
    )
    for where, before in ((parser, BEFORE), (play, ""), (demo, "")):
        where.add_argument(
            "--no-frames",
            dest=f"{before}no_frames",
            default=argparse.SUPPRESS,
            action="store_true",
            help="keep no picture of the dice for the rolls the camera reads (kept beside the game's log)",
        )
    demo.set_defaults(run=run_demo, app_options=("seed", "no_frames"))
    view = commands.add_parser(
        "view",
        help="a read-only view of the game being played, for the whole table",
        description="Show the game being played (the newest game log, or LOG), following its moves.",
    )
    serve = commands.add_parser(
        "serve",
        help="serve the read-only view to browsers on this network",
        description="Serve the table's view to browsers: each player opens the address on a phone.",
    )
    serve.add_argument(
        "--host",
        default=EVERY_NETWORK,
        help="address to listen on (default 0.0.0.0: every network, for phones)",
    )
    serve.add_argument(
        "--port", type=_port, default=DEFAULT_PORT, help=f"port to listen on (default {DEFAULT_PORT})"
    )
    serve.add_argument(
        "--token",
        type=_token,
        default=None,
        help="the key in the view's address: letters, digits, - _ . ~ (default: a new random one each start)",
    )
    serve.add_argument(
        "--max-viewers",
        type=count,
        default=MAX_VIEWERS,
        metavar="N",
        help=f"views served at once (default {MAX_VIEWERS}); one more gets a page saying it is full",
    )
    for where, run in ((view, run_view), (serve, run_serve)):
        where.add_argument(
            "log", nargs="?", type=Path, metavar="LOG", help="a game log (default: the newest)"
        )
        where.set_defaults(run=run)
    rename = commands.add_parser(
        "rename",
        help="put a misspelt player's name right in a saved game",
        description="Rename a player in one saved game (a game log or a scoring pad), wherever the file names"
        " them, so that `companion history` and `stats` count both names as one player. The file keeps its"
        " name (its start time and the names as first typed); a scoring exported beside it is removed, as it"
        " names the old name. Refused, the file left as it was: a name that is no player's, an imaginary"
        " player, a new name another player has (in any case or spacing) or that looks like a roll, a game"
        " open in the app.",
    )
    rename.add_argument("file", type=Path, metavar="FILE", help="a game log (.jsonl) or a pad (.pad.json)")
    rename.add_argument("old", metavar="OLD", help="the player's name as the game has it")
    rename.add_argument("new", metavar="NEW", help="the name it becomes")
    rename.set_defaults(run=run_rename)
    for name, run, what in (
        ("history", run_history, "the finished games: date, players, totals, winners"),
        ("stats", run_stats, "per player: games, wins, average and best total, where the points came from"),
    ):
        command = commands.add_parser(name, help=what, description=f"{what[0].upper()}{what[1:]}.")
        command.add_argument("--json", action="store_true", help="print it as JSON")
        command.set_defaults(run=run)
    from companion.calibrate_command import add_calibrate

    add_calibrate(commands)
    parser.set_defaults(run=run_play, app_options=())
    return parser


def parse(argv: Sequence[str] | None) -> argparse.Namespace:
    """The command line read. One of the app's options given before a command is the command's own, where
    the command has it (given after the command too, that one is taken, as argparse takes the last); where
    it has not (`companion --seed 5 score FILE`), it is refused, not ignored."""
    parser = build_parser()
    args = parser.parse_args(argv)
    given = vars(args)
    takes = APP_OPTIONS if args.command is None else args.app_options
    for name, unset in APP_OPTIONS.items():
        if BEFORE + name in given:
            if name not in takes:
                option = "--" + name.replace("_", "-")
                parser.error(
                    f"{option} before `{args.command}` is an option of the app (`companion {option} ...`),"
                    f" not of `companion {args.command}`"
                )
            given.setdefault(name, given.pop(BEFORE + name))
        if name in takes:
            given.setdefault(name, unset)
    return args


def _token(text: str) -> str:
    # What an address carries as it is: a key typed into a phone or read off a QR code is never escaped.
    if not re.fullmatch(r"[A-Za-z0-9._~-]{1,100}", text):
        raise argparse.ArgumentTypeError(f"{text!r} is not a key: 1 to 100 letters, digits, - _ . ~")
    return text


def _port(text: str) -> int:
    if not text.isdecimal() or not 1 <= int(text) <= 65535:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port: a whole number from 1 to 65535")
    return int(text)


def main(argv: Sequence[str] | None = None, pilot: AutoPilot | None = None) -> int:
    """The `companion` command. `pilot` (tests) drives the app that `play` or `demo` opens, headless."""
    from companion.app.paths import FolderError

    replace_what_cannot_be_shown()
    args = parse(argv)
    args.pilot = pilot
    prefix = " ".join(["companion", *([args.command] if args.command else [])])
    try:
        code: int = args.run(args)
    except FolderError as exc:  # no home to keep the files in, a file in the way of the games
        complain(prefix, str(exc))
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:  # Ctrl+C: a log is written a whole line at a time, a demo's not left behind
        complain(prefix, "stopped")
        return EXIT_STOPPED
    except (BrokenPipeError, OutputError) as exc:
        output_to_nowhere()
        if isinstance(exc, BrokenPipeError):
            return 0  # the reader of the output stopped early (`companion score FILE | head`): not our error
        complain(prefix, str(exc))
        return EXIT_BAD_INPUT
    return code


if __name__ == "__main__":
    sys.exit(main())
