"""Finished games and each player's statistics, read from the game logs the app keeps.

`companion history` lists the finished games, `companion stats` sums them up per player. A log that cannot
be read is named with why and counted nowhere; a game still being played is not history yet. Statistics count
the real players: imaginary players have no seat at the table.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from companion.games import alhambra_rw as rw

GAME = "alhambra-roll-and-write"
SOURCES = ("buildings", "rows_columns", "coins", "extra")
"""Where a total's VP come from, as the final scoring breaks it down."""


@dataclass(frozen=True)
class Result:
    name: str
    imaginary: bool
    total: int
    vp: tuple[int, ...]
    """VP by source, in the order of SOURCES."""


@dataclass(frozen=True)
class FinishedGame:
    path: Path
    played: datetime
    """When the last move was written."""
    game: str
    results: tuple[Result, ...]
    winners: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "log": str(self.path),
            "played": self.played.isoformat(timespec="seconds"),
            "game": self.game,
            "players": [
                {
                    "name": r.name,
                    "imaginary": r.imaginary,
                    "total": r.total,
                    "vp": dict(zip(SOURCES, r.vp, strict=True)),
                }
                for r in self.results
            ],
            "winners": list(self.winners),
        }


@dataclass(frozen=True)
class History:
    games: tuple[FinishedGame, ...]
    """Most recently played first."""
    problems: tuple[str, ...]
    """One line per log that could not be read."""


def history(folder: Path, log_suffix: str = ".jsonl") -> History:
    """The finished games among the logs in `folder`."""
    games, problems = [], []
    for path in sorted(folder.glob(f"*{log_suffix}")) if folder.is_dir() else ():
        try:
            state = rw.replay_log(rw.load_log(path)).state
        except rw.LogError as exc:
            problems.append(str(exc))
            continue
        if not state.is_over:
            continue
        board = rw.score_game(state)
        results = tuple(
            Result(p.name, p.imaginary, p.total, (p.buildings_vp, p.rows_columns, p.coins, p.extra))
            for p in board.players
        )
        played = datetime.fromtimestamp(path.stat().st_mtime)
        games.append(FinishedGame(path, played, GAME, results, board.winners))
    games.sort(key=lambda g: (g.played, g.path.name), reverse=True)
    return History(tuple(games), tuple(problems))


@dataclass(frozen=True)
class PlayerStats:
    name: str
    games: int
    wins: int
    average_total: float
    best_total: int
    average_vp: tuple[float, ...]
    """Average VP per game by source, in the order of SOURCES."""

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "games": self.games,
            "wins": self.wins,
            "average_total": round(self.average_total, 1),
            "best_total": self.best_total,
            "average_vp": {s: round(v, 1) for s, v in zip(SOURCES, self.average_vp, strict=True)},
        }


def player_stats(games: Sequence[FinishedGame]) -> list[PlayerStats]:
    """Per real player: games played, games won (a shared win counts for each winner), average and best
    total, and where the VP came from on average. Most wins first."""
    played: dict[str, list[Result]] = {}
    wins: dict[str, int] = {}
    for game in games:
        for result in game.results:
            if not result.imaginary:
                played.setdefault(result.name, []).append(result)
                wins[result.name] = wins.get(result.name, 0) + (result.name in game.winners)
    stats = [
        PlayerStats(
            name,
            len(results),
            wins[name],
            statistics.fmean(r.total for r in results),
            max(r.total for r in results),
            tuple(statistics.fmean(r.vp[i] for r in results) for i in range(len(SOURCES))),
        )
        for name, results in played.items()
    ]
    return sorted(stats, key=lambda s: (-s.wins, -s.average_total, s.name))


def totals_by_round(events: Sequence[rw.Event]) -> tuple[tuple[str, ...], list[tuple[int, ...]]]:
    """The real players, and what each one's sheet was worth when each round began and when the game ended
    (as if it ended then): the score through a game, for plotting."""
    first = events[0]
    assert isinstance(first, rw.GameStarted)
    game = rw.Game(first)
    totals = []
    for event in events[1:]:
        before = game.state.round
        game.apply(event)
        if game.state.round != before or game.state.is_over:
            board = rw.score_so_far(game.state)
            totals.append(tuple(p.total for p in board.players if not p.imaginary))
    return first.players, totals
