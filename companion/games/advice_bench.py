"""Measure advice: `python -m companion.games.advice_bench --game GAME --games 200`.

One seat (the start player's) always takes the advice's first choice; every other seat, and every seat of the
games it is compared with, is the game's shipped random player. Both sets of games start from the same
set-ups. It reports the advised seat's mean final score and win rate against the random player's in that seat
(with their standard errors), how long an advice took and how many playouts a second it ran, and how the
estimate's spread (the standard error of a choice's expected score) shrinks with more playouts.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from jsonfile import count

from .advice import Advising, Decision, advise, play_choice, playout_seed
from .entry import GameEntry
from .folding import IllegalMove
from .table import PLAYED

SPREAD_AT = (25, 50, 100, 200, 400)
SEAT = 0
"""The advised seat: the start player's."""


@dataclass(frozen=True)
class Seat:
    """The advised seat's results over a set of games: mean score and its standard error, win rate."""

    score: float
    score_se: float
    win: float
    win_se: float

    def to_json(self) -> dict[str, float]:
        return {k: round(v, 3) for k, v in dataclasses.asdict(self).items()}


def seat_of(scores: Sequence[int], wins: Sequence[bool]) -> Seat:
    n = len(scores)
    mean = sum(scores) / n
    sd = math.sqrt(sum((s - mean) ** 2 for s in scores) / (n - 1)) if n > 1 else 0.0
    win = sum(wins) / n
    return Seat(mean, sd / math.sqrt(n), win, math.sqrt(win * (1 - win) / n))


def setup_of(entry: GameEntry, players: int, variant: str | None, n: int) -> Any:
    """Game `n`'s set-up: the first event of the entry's random game (the same for both sets of games)."""
    assert entry.random_game is not None
    setup = entry.random_game(players, random.Random(n))[0]
    return dataclasses.replace(setup, variant=variant) if variant else setup


def advised_game(
    entry: GameEntry, advising: Advising[Any, Any], setup: Any, n: int, playouts: int
) -> tuple[int, bool, list[float], list[Decision[Any]]]:
    """A game in which `SEAT` takes the advice: its score, whether it won, each advice's seconds, and the
    decisions it was advised on."""
    assert entry.rules is not None
    rng = random.Random(n)
    game = advising.game(entry.rules.replay([setup]))
    seconds: list[float] = []
    decisions: list[Decision[Any]] = []
    while not game.is_over:
        decision = advising.decision(game.state)
        if isinstance(decision, str) or decision.seat != SEAT:
            advising.step(game, rng)
            continue
        if advising.prepare is not None:
            advising.prepare(game, rng)
            decision = advising.decision(game.state)
            assert not isinstance(decision, str)
        start = time.perf_counter()
        best = advise(decision, playouts, None, seed=n * 1000 + len(seconds)).estimates[0]
        seconds.append(time.perf_counter() - start)
        decisions.append(decision)
        game = decision.fork()
        next(c for c in decision.choices if c.words == best.words).take(game, rng)
    outcome = advising.outcome(game)
    return outcome.scores[SEAT], SEAT in outcome.winners, seconds, decisions


def random_game(entry: GameEntry, advising: Advising[Any, Any], setup: Any, n: int) -> tuple[int, bool]:
    """The same set-up played by the random player in every seat: `SEAT`'s score and whether it won."""
    assert entry.rules is not None
    rng = random.Random(n)
    game = advising.game(entry.rules.replay([setup]))
    while not game.is_over:
        advising.step(game, rng)
    outcome = advising.outcome(game)
    return outcome.scores[SEAT], SEAT in outcome.winners


def spreads(decisions: Sequence[Decision[Any]], seed: int) -> dict[int, float]:
    """The mean standard error of a choice's expected score after each of `SPREAD_AT` playouts, over the
    first choice of each decision."""
    at: dict[int, list[float]] = {n: [] for n in SPREAD_AT}
    for k, decision in enumerate(decisions):
        scores: list[int] = []
        for n in range(SPREAD_AT[-1]):
            outcome = play_choice(decision, decision.choices[0], random.Random(playout_seed(seed + k, n)))
            scores.append(outcome.scores[decision.seat])
            if n + 1 in at:
                at[n + 1].append(seat_of(scores, [False] * len(scores)).score_se)
    return {n: sum(v) / len(v) for n, v in at.items()}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m companion.games.advice_bench", description=__doc__)
    parser.add_argument("--game", required=True, choices=sorted(PLAYED))
    parser.add_argument("--variant", help="a variant of the game (alcazaba for the Alhambra dice game)")
    parser.add_argument("--games", type=count, default=200)
    parser.add_argument("--players", type=count, default=2)
    parser.add_argument("--playouts", type=count, default=16, help="playouts per choice of each advice")
    parser.add_argument("--positions", type=count, default=5, help="decisions whose spread is measured")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    entry = PLAYED[args.game]
    advising = entry.advice
    if advising is None:
        print(f"{entry.title}: no decisions to advise", file=sys.stderr)
        return 2
    low, high = entry.players
    if not low <= args.players <= high:
        parser.error(f"--players: {entry.title} is played by {low} to {high} players, not {args.players}")
    assert entry.rules is not None
    try:
        entry.rules.replay([setup_of(entry, args.players, args.variant, 0)])
    except IllegalMove as exc:  # a variant the game has not, or not for this many players
        parser.error(str(exc))
    advised: list[tuple[int, bool]] = []
    baseline: list[tuple[int, bool]] = []
    seconds: list[float] = []
    kept: list[Decision[Any]] = []
    start = time.perf_counter()
    for n in range(args.games):
        setup = setup_of(entry, args.players, args.variant, n)
        score, won, took, decisions = advised_game(entry, advising, setup, n, args.playouts)
        advised.append((score, won))
        seconds += took
        kept += decisions[: max(0, args.positions - len(kept))]
        baseline.append(random_game(entry, advising, setup, n + 1_000_000))
    a = seat_of([s for s, _ in advised], [w for _, w in advised])
    b = seat_of([s for s, _ in baseline], [w for _, w in baseline])
    spread_start = time.perf_counter()
    spread = spreads(kept, 7)
    playouts_s = len(kept) * SPREAD_AT[-1] / (time.perf_counter() - spread_start)
    report = {
        "game": entry.id,
        "variant": args.variant,
        "games": args.games,
        "players": args.players,
        "playouts_per_choice": args.playouts,
        "advised": a.to_json(),
        "random": b.to_json(),
        "score_difference": round(a.score - b.score, 3),
        "score_difference_se": round(math.hypot(a.score_se, b.score_se), 3),
        "win_difference": round(a.win - b.win, 3),
        "win_difference_se": round(math.hypot(a.win_se, b.win_se), 3),
        "advice_calls": len(seconds),
        "advice_seconds_mean": round(sum(seconds) / max(1, len(seconds)), 4),
        "playouts_per_second": round(playouts_s),
        "spread_at": {str(n): round(v, 3) for n, v in spread.items()},
        "seconds": round(time.perf_counter() - start, 1),
    }
    if args.json:
        print(json.dumps(report))
    else:
        print(text(report))
    return 0


def text(r: dict[str, Any]) -> str:
    a, b = r["advised"], r["random"]
    spread = ", ".join(f"{n}: ±{v}" for n, v in r["spread_at"].items())
    return "\n".join(
        [
            f"{r['game']}{' (' + r['variant'] + ')' if r['variant'] else ''}, {r['players']} players, "
            f"{r['games']} games; advice from {r['playouts_per_choice']} playouts per choice",
            f"advised seat: score {a['score']:.1f} ±{a['score_se']:.1f}, wins {a['win']:.0%}",
            f"random seat:  score {b['score']:.1f} ±{b['score_se']:.1f}, wins {b['win']:.0%}",
            f"difference:   score {r['score_difference']:+.1f} ±{r['score_difference_se']:.1f}, "
            f"wins {r['win_difference']:+.0%} ±{r['win_difference_se']:.0%}",
            f"{r['advice_calls']} advice calls, {r['advice_seconds_mean']:.3f} s each; "
            f"{r['playouts_per_second']} playouts/s",
            f"spread of an estimate by playouts: {spread}",
        ]
    )


if __name__ == "__main__":
    raise SystemExit(main())
