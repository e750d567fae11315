"""`companion demo --game GAME`: each game's demo on the rendered table, as the table of games names it
(`GameEntry.demo`). Headless, a demo prints its JSON; in the app, rendered players roll and choose. Every
demo's game is kept in the demos folder (`paths.demos_dir()`), apart from the real games: a demo's players
are never continued, listed in history or counted in statistics with the people at the table.

Imported only when a demo runs: the app, the camera's reader and the models load with it.
"""

from __future__ import annotations

import argparse
import random
import signal
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from datetime import datetime
from pathlib import Path
from typing import Any

from textual.app import AutopilotCallbackType

from companion.app.app import CameraSetup, CompanionApp
from companion.app.paths import demos_dir, make_folder
from companion.cli import run_app
from companion.games import alhambra_dice as ad
from companion.games import carcassonne_dice as cd
from companion.games.alhambra_dice.entry import RULES as ALHAMBRA_DICE
from companion.games.alhambra_rw.entry import RULES as ROLL_AND_WRITE
from companion.games.carcassonne_dice.entry import RULES as CARCASSONNE_DICE
from companion.games.eventlog import E, log_text
from companion.games.held import open_held
from companion.games.session import LOG_SUFFIX, Rules, Session, log_stem
from companion.games.words import counted
from companion.live import alhambra_demo, carcassonne_demo, demo_throws, roll_and_write_demo
from companion.live.frames import FrameKeeper
from companion.live.match import FACE_SETTLING
from companion.saved_games import delete_game, last_changed, saved_files
from jsonfile import print_json
from jsonfile.folders import claim_free_path
from vision.pips import PipReader
from vision.reader import DiceReader

KEPT_APART = "the demo's log, kept apart from the real games"
"""Said with a demo's log when it ends: where its game is, and that it is not one of the table's games."""
KEPT_DEMOS = 5
"""How many demos the demos folder keeps, the newest: a new demo deletes the older ones' files. Nothing
lists them to delete (they are never offered under Continue), and with its frames a demo takes 1-6 MB."""


def _say(line: str) -> None:
    print(f"companion demo: {line}", file=sys.stderr)


def roll_and_write(args: argparse.Namespace) -> int:
    """Roll & Write's demo: in the app its game is kept in the demos folder."""
    from companion.app.demo_players import RollAndWritePlayers

    seed = args.seed or 0
    if args.headless:
        setup = roll_and_write_demo.demo_setup(args.solo)
        with demo_log(ROLL_AND_WRITE.players(setup)) as log:
            _say("teaching the rendered table's dice colours, then playing ...")
            kept = demo_frames(args, log)
            result = roll_and_write_demo.play_headless(PipReader(), seed, args.solo, _say, kept)
            save_demo_log(log, ROLL_AND_WRITE, result.events)
        print_json(result.to_json())
        return 0 if result.state.is_over else 1
    games = make_folder(demos_dir())
    reader = PipReader()
    _say("teaching the rendered table's dice colours first ...")
    table = roll_and_write_demo.demo_table(seed)
    reader.colour_profile = roll_and_write_demo.teach_colours(table, reader, seed)
    table.realtime, table.fps, table.roll_frames, table.rest_frames = True, 15.0, 12, 15
    session = Session.create(ROLL_AND_WRITE, games, roll_and_write_demo.demo_setup(args.solo), datetime.now())
    app = CompanionApp(
        rng=random.Random(args.seed),
        games_dir=games,
        camera=CameraSetup(lambda: table, reader),
        game=session,
        keep_frames=not args.no_frames,
    )
    RollAndWritePlayers(app, table, random.Random(args.seed)).attach()
    return run_demo_app(app, table.close, args.pilot, session.path)


def alhambra_dice(args: argparse.Namespace) -> int:
    """The Alhambra dice game's demo: the game is saved in the demos folder, as the app saves one."""
    from companion.app.demo_players import AlhambraDicePlayers

    seed = args.seed or 0
    if args.headless:
        with demo_log(alhambra_demo.DEMO_PLAYERS) as log:
            _say("teaching the alhambra dice's faces, then playing ...")
            result = alhambra_demo.play_headless(seed, _say, kept=demo_frames(args, log))
            save_demo_log(log, ALHAMBRA_DICE, result.events)
        print_json(result.to_json())
        return 0 if result.finished else 1
    games = make_folder(demos_dir())
    _say("teaching the alhambra dice's faces first ...")
    reader = DiceReader(PipReader(), alhambra_demo.taught_profile())
    table = alhambra_demo.demo_table(seed)
    table.realtime, table.fps, table.roll_frames, table.rest_frames = True, 15.0, 12, 15
    setup = ad.GameStarted(alhambra_demo.DEMO_PLAYERS)
    session = Session.create(ALHAMBRA_DICE, games, setup, datetime.now())
    app = CompanionApp(
        rng=random.Random(seed),
        games_dir=games,
        camera=CameraSetup(lambda: table, reader, settling=FACE_SETTLING),
        game=session,
        keep_frames=not args.no_frames,
    )
    AlhambraDicePlayers(app, table, random.Random(seed)).attach()
    return run_demo_app(app, table.close, args.pilot, session.path)


def carcassonne_dice(args: argparse.Namespace) -> int:
    """The Carcassonne dice game's demo on rendered tables, its log saved in the demos folder."""
    from companion.app.demo_players import CarcassonneDicePlayers

    seed = args.seed or 0
    if args.headless:
        with demo_log(demo_throws.DEMO_PLAYERS) as log:
            _say("teaching the rendered dice's faces, then playing ...")
            result = carcassonne_demo.play_headless(seed, progress=_say, kept=demo_frames(args, log))
            save_demo_log(log, CARCASSONNE_DICE, result.events)
        print_json({**result.to_json(), "log": str(log)})
        return 0 if result.game.is_over else 1
    games = make_folder(demos_dir())
    setup = cd.GameStarted(demo_throws.DEMO_PLAYERS)
    session = Session.create(CARCASSONNE_DICE, games, setup, datetime.now())
    # No camera: the players' thread hands over the picture each roll was read in, kept as its frame.
    app = CompanionApp(rng=random.Random(seed), games_dir=games, game=session, keep_frames=not args.no_frames)
    players = CarcassonneDicePlayers(app, seed)
    players.attach()
    return run_demo_app(app, players.close, args.pilot, session.path)


def run_demo_app(
    app: CompanionApp, close: Callable[[], object], pilot: AutopilotCallbackType | None, log: Path
) -> int:
    """The app playing the demo (its players attached) until quit; the camera's thread joined and the
    demo's table or players closed (`close`) whatever happens."""
    prune_demos(log.parent)  # its own log held by the app, the newest
    try:
        ended = run_app(app, pilot)
    finally:
        app.stop_camera()
        close()
    print(f"{KEPT_APART}: {log}")
    return ended


@contextmanager
def demo_log(players: tuple[str, ...]) -> Iterator[Path]:
    """A headless demo's log in the demos folder, named as the app names a game's: the name is taken (an
    empty file) before the game is played, so that its rolls' frames go beside it as they are read; a demo
    stopped before it ends (ctrl+c, SIGTERM, the terminal closed) leaves neither behind. The log is held
    while the demo runs: a demo started in another window meanwhile does not delete it as an old one."""
    folder = make_folder(demos_dir())
    with _ended_by_signals():
        path = claim_free_path(folder, log_stem(players, datetime.now()), LOG_SUFFIX)
        try:
            with open_held(path):
                prune_demos(folder)
                yield path
        except BaseException:
            delete_game(path)  # let go of first: held, it would be refused as open in another window
            raise


@contextmanager
def _ended_by_signals() -> Iterator[None]:
    """SIGTERM and SIGHUP raise `SystemExit` (128 + the signal's number, as the app ends) while the block
    runs: by default they end Python at once, and a headless demo left its empty log and frames behind."""

    def end(signum: int, _frame: object) -> None:
        raise SystemExit(128 + signum)

    endings = (signal.SIGTERM,) if sys.platform == "win32" else (signal.SIGTERM, signal.SIGHUP)
    before = {ending: signal.signal(ending, end) for ending in endings}
    try:
        yield
    finally:
        for ending, handler in before.items():
            signal.signal(ending, handler)


def prune_demos(folder: Path) -> None:
    """Only the newest `KEPT_DEMOS` demos kept in `folder`: the older ones' files deleted (`delete_game`),
    and how many said. One being played in another window (its log held) is kept, as is one that cannot
    be deleted (the next demo tries again). A demo killed before it could clean up (an empty log, frames
    beside it) is one of them."""
    written = {log: when for log in saved_files(folder) if (when := last_changed(log)) is not None}
    removed = 0
    for log in sorted(written, key=written.__getitem__, reverse=True)[KEPT_DEMOS:]:
        with suppress(OSError):
            delete_game(log)
            removed += 1
    if removed:
        older = counted(removed, "older demo", "older demos")
        _say(f"deleted the files of {older}: only the last {KEPT_DEMOS} demos are kept")


def demo_frames(args: argparse.Namespace, log: Path) -> FrameKeeper:
    """Where a headless demo keeps the frame of each roll the camera read: beside its log (`--no-frames`:
    nowhere)."""
    return FrameKeeper.off() if args.no_frames else FrameKeeper(log)


def save_demo_log(path: Path, rules: Rules[E, Any, Any], events: list[E]) -> None:
    """A headless demo's game written to its log (to score, replay or view as the app's games), and where
    it is said."""
    path.write_text(log_text(events, rules.log.encode), encoding="utf-8")
    _say(f"{KEPT_APART}: {path}")
