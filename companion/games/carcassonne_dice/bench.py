"""Engine benchmark: random full games per second on one core.

    python -m companion.games.carcassonne_dice.bench [--games 500] [--repeats 5] [--players 4]

Two figures per player count, medians over the repeats: *fold* (the engine alone replaying recorded games,
what loading a log does) and *play* (the random player choosing where each city die goes, with the engine
checking and folding every event).
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.games import benchmark

from .engine import PLAYERS, fold
from .events import GameStarted
from .simulate import play_random_game

NAMES = ("Barbara", "Dirk", "Patricia", "Frank", "Ani")


def main(argv: Sequence[str] | None = None) -> int:
    return benchmark.main(
        argv,
        "companion.games.carcassonne_dice.bench",
        "Carcassonne dice game",
        PLAYERS,
        range(PLAYERS[0], PLAYERS[1] + 1),
        lambda n: lambda rng: play_random_game(GameStarted(NAMES[:n]), rng)[1],
        fold,
    )


if __name__ == "__main__":
    raise SystemExit(main())
