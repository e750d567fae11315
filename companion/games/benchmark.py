"""What every engine's benchmark measures: random full games per second on one core, two figures each,
medians over the repeats: *fold* (the engine alone replaying recorded games, what loading a log does) and
*play* (the engine's random player deciding, with the engine checking and folding every event)."""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

Play = Callable[[random.Random], Sequence[Any]]
"""Plays one random game with the generator given; returns its events."""


def measure(
    play: Play, fold: Callable[[Sequence[Any]], object], games: int, repeats: int, seed: int = 1
) -> tuple[float, float, float]:
    """Median games per second for folding and for playing `games` random games, and events per game."""
    played, folded, events = [], [], []
    for r in range(repeats):
        rng = random.Random(seed + r)
        t = time.perf_counter()
        recorded = [play(rng) for _ in range(games)]
        played.append(games / (time.perf_counter() - t))
        t = time.perf_counter()
        for log in recorded:
            fold(log)
        folded.append(games / (time.perf_counter() - t))
        events.append(sum(map(len, recorded)) / games)
    return statistics.median(folded), statistics.median(played), statistics.median(events)


def main(
    argv: Sequence[str] | None,
    module: str,
    title: str,
    players: tuple[int, int],
    default_players: Sequence[int],
    play_for: Callable[[int], Play],
    fold: Callable[[Sequence[Any]], object],
    games: int = 500,
) -> int:
    """`python -m MODULE [--games N] [--repeats N] [--players N ...]`: the table of both figures per player
    count, pinned to one core."""
    parser = argparse.ArgumentParser(prog=f"python -m {module}", description=f"{title}: {__doc__}")
    parser.add_argument("--games", type=int, default=games, help=f"games per repeat (default {games})")
    parser.add_argument("--repeats", type=int, default=5, help="repeats; medians are reported (default 5)")
    parser.add_argument("--players", type=int, nargs="*", default=list(default_players), help="player counts")
    args = parser.parse_args(argv)
    for n in args.players:
        if not players[0] <= n <= players[1]:
            parser.error(f"--players: {n} is not {players[0]} to {players[1]}")
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    print(f"{title} engine, one core of {os.cpu_count()},")
    print(f"Python {platform.python_version()}; {args.games} games x {args.repeats} repeats, medians")
    print(f"{'players':<10}{'fold games/s':>14}{'play games/s':>14}{'events/game':>13}")
    for n in args.players:
        folded, played, events = measure(play_for(n), fold, args.games, args.repeats)
        print(f"{n:<10}{folded:>14,.0f}{played:>14,.0f}{events:>13,.0f}")
    return 0
