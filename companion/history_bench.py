"""`python -m companion.history_bench [--games N] [--runs K]`: how long history takes with many games.

Writes N finished games (copies of the shipped example logs of each game, each its own file and time) in a
fresh data folder, then times, as a user runs them: `companion history --json` and `companion stats --json`
the first time (the index beside the logs built) and again (read from it), and, in this process, the start
screen's list of saved games, the app's start screen, F4 and moving through its list (the real app,
headless), and every log read without the index. Prints the median of K runs of each.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from companion.log_index import INDEX_NAME

GAMES = Path(__file__).parent / "games"
EXAMPLES = (
    GAMES / "alhambra_rw" / "examples" / "example-game.jsonl",
    GAMES / "alhambra_dice" / "examples" / "example-game.jsonl",
    GAMES / "alhambra_dice" / "examples" / "two-players-and-dirk.jsonl",
    GAMES / "carcassonne_dice" / "examples" / "example-game.jsonl",
)
"""Finished games, one of each game (and Alhambra dice with Dirk)."""
FIRST = 1_700_000_000
"""When the first copied game was played (seconds since 1970); each next one a minute later."""


def write_games(folder: Path, count: int) -> list[Path]:
    """`count` finished games in `folder`, the example logs in turn, each played a minute after the last."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for n in range(count):
        path = folder / f"{n:05d}-{EXAMPLES[n % len(EXAMPLES)].parent.parent.name}.jsonl"
        shutil.copyfile(EXAMPLES[n % len(EXAMPLES)], path)
        os.utime(path, (FIRST + 60 * n, FIRST + 60 * n))
        paths.append(path)
    return paths


def _seconds(run: Callable[[], object]) -> float:
    start = time.perf_counter()
    run()
    return time.perf_counter() - start


def _command(data: Path, *words: str) -> Callable[[], object]:
    environment = {**os.environ, "XDG_DATA_HOME": str(data)}
    companion = [sys.executable, "-m", "companion", *words]
    return lambda: subprocess.run(companion, env=environment, check=True, stdout=subprocess.DEVNULL)


MOVES = 30
"""Presses of ↓ timed in F4's list of games (each one a game further)."""


def _app_seconds() -> tuple[float, float, float]:
    """The real app, headless, on this process's games folder: seconds until the start screen is shown, from
    F4 until the history screen is, and for `MOVES` presses of ↓ there."""
    import asyncio
    import random

    from companion.app.app import CompanionApp
    from companion.app.screens.history import HistoryScreen
    from companion.app.screens.start import StartScreen

    async def run() -> tuple[float, float, float]:
        started = time.perf_counter()
        app = CompanionApp(rng=random.Random(1))
        async with app.run_test(size=(100, 32)) as pilot:
            while not isinstance(app.screen, StartScreen):
                await pilot.pause(0.01)
            shown = time.perf_counter()
            await pilot.press("f4")
            while not isinstance(app.screen, HistoryScreen):
                await pilot.pause(0.01)
            await pilot.pause()
            listed = time.perf_counter()
            await pilot.press(*["down"] * MOVES)
            await pilot.pause()
            return shown - started, listed - shown, time.perf_counter() - listed

    return asyncio.run(run())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m companion.history_bench", description=__doc__)
    parser.add_argument("--games", type=int, default=1000, help="finished games to write (default 1000)")
    parser.add_argument("--runs", type=int, default=5, help="runs of each, the median printed (default 5)")
    args = parser.parse_args(argv)

    from companion.saved_games import read_back, saved_games

    with tempfile.TemporaryDirectory(prefix="history-bench-") as temporary:
        data = Path(temporary)
        folder = data / "table-companion" / "games"
        paths = write_games(folder, args.games)
        timings: dict[str, list[float]] = {}
        for _ in range(args.runs):
            for what in ("history", "stats"):
                (folder / INDEX_NAME).unlink(missing_ok=True)
                timings.setdefault(f"companion {what} --json, first (index built)", []).append(
                    _seconds(_command(data, what, "--json"))
                )
                timings.setdefault(f"companion {what} --json, again (from the index)", []).append(
                    _seconds(_command(data, what, "--json"))
                )
            (folder / INDEX_NAME).unlink(missing_ok=True)
            timings.setdefault("start screen's saved games, first (in process, index built)", []).append(
                _seconds(lambda: saved_games(folder))
            )
            timings.setdefault("start screen's saved games, again (in process, from the index)", []).append(
                _seconds(lambda: saved_games(folder))
            )
            os.environ["XDG_DATA_HOME"] = str(data)
            _app_seconds()  # the saved games are in the index by now; history's read-backs go in with this
            start, history, moves = _app_seconds()
            timings.setdefault("app: start screen shown (from the index)", []).append(start)
            timings.setdefault("app: F4 history screen shown (from the index)", []).append(history)
            timings.setdefault(f"app: {MOVES} presses of ↓ in F4's list", []).append(moves)
            timings.setdefault("every log read, no index (in process)", []).append(
                _seconds(lambda: [read_back(path) for path in paths])
            )
        print(f"{args.games} finished games, median of {args.runs} runs, {os.cpu_count()} CPUs:")
        for what, seconds in timings.items():
            print(f"  {statistics.median(seconds):7.3f} s  {what}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
