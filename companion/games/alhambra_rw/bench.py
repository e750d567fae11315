"""Engine benchmark: random full games per second on one core.

    python -m companion.games.alhambra_rw.bench [--games 500] [--repeats 5] [--players 3]

Two figures per set-up, medians over the repeats: *play* (the random player choosing every decision and
the engine checking and folding it, which is what a move advisor simulating ahead does) and *fold*
(the engine alone replaying recorded events, which is what loading a log does).
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import time
from collections.abc import Sequence

from .engine import IMAGINARY_PLAYERS, Game
from .events import STANDARD, VERSUS_IMAGINARY, Event, GameStarted
from .sheet import load_shipped_sheet
from .simulate import play_random_game

NAMES = ("Barbara", "Dirk", "Patricia", "Frank", "Ani")
IMAGINARY_NAMES = ("Marc", "Nora", "Otto", "Pia")


def setups(players: Sequence[int]) -> list[GameStarted]:
    sheet = load_shipped_sheet("example")
    out = []
    for real in players:
        for imaginary in IMAGINARY_PLAYERS[real]:
            out.append(GameStarted(sheet, NAMES[:real], IMAGINARY_NAMES[:imaginary], STANDARD))
        if real == 1:
            out.append(GameStarted(sheet, NAMES[:1], IMAGINARY_NAMES[:2], VERSUS_IMAGINARY))
    return out


def _fold(games: list[list[Event]]) -> None:
    for events in games:
        game = Game(events[0])  # type: ignore[arg-type]
        for event in events[1:]:
            game.apply(event)


def measure(setup: GameStarted, games: int, repeats: int, seed: int = 1) -> tuple[float, float]:
    """Median games per second for playing and for folding `games` random games."""
    play, fold = [], []
    for r in range(repeats):
        rng = random.Random(seed + r)
        recorded = []
        t = time.perf_counter()
        for _ in range(games):
            recorded.append(play_random_game(setup, rng)[1])
        play.append(games / (time.perf_counter() - t))
        t = time.perf_counter()
        _fold(recorded)
        fold.append(games / (time.perf_counter() - t))
    return statistics.median(play), statistics.median(fold)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m companion.games.alhambra_rw.bench", description=__doc__)
    parser.add_argument("--games", type=int, default=500, help="games per repeat (default 500)")
    parser.add_argument("--repeats", type=int, default=5, help="repeats; medians are reported (default 5)")
    parser.add_argument(
        "--players", type=int, nargs="*", default=[1, 2, 3, 4, 5], help="real player counts (default all)"
    )
    args = parser.parse_args(argv)
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    print(f"Alhambra Roll & Write engine, one core of {os.cpu_count()},")
    print(f"Python {platform.python_version()}; {args.games} games x {args.repeats} repeats, medians")
    print(f"{'set-up':<40}{'play games/s':>14}{'fold games/s':>14}")
    for setup in setups(args.players):
        play, fold = measure(setup, args.games, args.repeats)
        label = f"{len(setup.players)} real + {len(setup.imaginary)} imaginary, {setup.variant}"
        print(f"{label:<40}{play:>14,.0f}{fold:>14,.0f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
