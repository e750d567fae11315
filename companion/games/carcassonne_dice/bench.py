"""Engine benchmark: random full games per second on one core.

    python -m companion.games.carcassonne_dice.bench [--games 500] [--repeats 5] [--players 4]

Two figures per player count, medians over the repeats: *fold* (the engine alone replaying recorded games,
what loading a log does) and *play* (the random player choosing where each city die goes, with the engine
checking and folding every event).
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import time
from collections.abc import Sequence

from .engine import PLAYERS, Game
from .events import Event, GameStarted
from .simulate import play_random_game

NAMES = ("Barbara", "Dirk", "Patricia", "Frank", "Ani")


def _fold(games: list[list[Event]]) -> None:
    for events in games:
        game = Game(events[0])  # type: ignore[arg-type]
        for event in events[1:]:
            game.apply(event)


def measure(setup: GameStarted, games: int, repeats: int, seed: int = 1) -> tuple[float, float, float]:
    """Median games per second for folding and for playing `games` random games, and events per game."""
    play, fold, events = [], [], []
    for r in range(repeats):
        rng = random.Random(seed + r)
        t = time.perf_counter()
        recorded = [play_random_game(setup, rng)[1] for _ in range(games)]
        play.append(games / (time.perf_counter() - t))
        t = time.perf_counter()
        _fold(recorded)
        fold.append(games / (time.perf_counter() - t))
        events.append(sum(map(len, recorded)) / games)
    return statistics.median(fold), statistics.median(play), statistics.median(events)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m companion.games.carcassonne_dice.bench", description=__doc__
    )
    parser.add_argument("--games", type=int, default=500, help="games per repeat (default 500)")
    parser.add_argument("--repeats", type=int, default=5, help="repeats; medians are reported (default 5)")
    parser.add_argument(
        "--players",
        type=int,
        nargs="*",
        default=list(range(PLAYERS[0], PLAYERS[1] + 1)),
        help="player counts",
    )
    args = parser.parse_args(argv)
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    print(f"Carcassonne dice game engine, one core of {os.cpu_count()},")
    print(f"Python {platform.python_version()}; {args.games} games x {args.repeats} repeats, medians")
    print(f"{'players':<10}{'fold games/s':>14}{'play games/s':>14}{'events/game':>13}")
    for n in args.players:
        fold, play, events = measure(GameStarted(NAMES[:n]), args.games, args.repeats)
        print(f"{n:<10}{fold:>14,.0f}{play:>14,.0f}{events:>13,.0f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
