"""`python -m companion.games.benchmark --game GAME`: every engine measured alike, random full games per
second on one core, two figures each, medians over the repeats: *fold* (the engine alone replaying recorded
games, what continuing a saved game does) and *play* (the engine's random player deciding, with the engine
checking and folding every event). The table of games gives each game's random player and player counts."""

from __future__ import annotations

import argparse
import functools
import os
import platform
import random
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

from .table import FIRST_GAME, PLAYED

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


def main(argv: Sequence[str] | None = None) -> int:
    """`python -m companion.games.benchmark [--game GAME] [--games N] [--repeats N] [--players N ...]`: the
    table of both figures per player count, pinned to one core."""
    played = {game: entry for game, entry in PLAYED.items() if entry.random_game is not None}
    parser = argparse.ArgumentParser(prog="python -m companion.games.benchmark", description=__doc__)
    parser.add_argument("--game", choices=list(played), default=FIRST_GAME.id, help="the game's engine")
    parser.add_argument("--games", type=int, default=500, help="games per repeat (default 500)")
    parser.add_argument("--repeats", type=int, default=5, help="repeats; medians are reported (default 5)")
    parser.add_argument("--players", type=int, nargs="*", help="player counts (default: every count)")
    args = parser.parse_args(argv)
    entry = played[args.game]
    assert entry.random_game is not None and entry.rules is not None  # a game the benchmark can play
    low, high = entry.players
    for n in args.players or ():
        if not low <= n <= high:
            parser.error(f"--players: {n} is not {low} to {high}")
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    print(f"{entry.title} engine, one core of {os.cpu_count()},")
    print(f"Python {platform.python_version()}; {args.games} games x {args.repeats} repeats, medians")
    print(f"{'players':<10}{'fold games/s':>14}{'play games/s':>14}{'events/game':>13}")
    random_game, replay = entry.random_game, entry.rules.replay
    for n in args.players or range(low, high + 1):
        play: Play = functools.partial(random_game, n)
        folded, played_per_s, events = measure(play, lambda log: replay(list(log)), args.games, args.repeats)
        print(f"{n:<10}{folded:>14,.0f}{played_per_s:>14,.0f}{events:>13,.0f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
