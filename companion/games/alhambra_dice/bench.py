"""Engine benchmark: random full games per second on one core.

    python -m companion.games.alhambra_dice.bench [--games 500] [--repeats 5] [--players 4]

Two figures per player count, medians over the repeats: *fold* (the engine alone replaying recorded games,
what loading a log does) and *play* (the random player rolling, setting aside, using its bonus tiles and
choosing prizes, with the engine checking and folding every event).
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.games import benchmark

from .engine import PLAYERS, fold
from .events import GameStarted
from .simulate import play_random_game

NAMES = ("Ann", "Ben", "Cleo", "Dan", "Eva", "Finn")


def main(argv: Sequence[str] | None = None) -> int:
    return benchmark.main(
        argv,
        "companion.games.alhambra_dice.bench",
        "Alhambra dice game",
        PLAYERS,
        [4],
        lambda n: lambda rng: play_random_game(GameStarted(NAMES[:n]), rng)[1],
        fold,
    )


if __name__ == "__main__":
    raise SystemExit(main())
