"""Finished games and each player's statistics, read from the game logs the app keeps, whatever the game.

`companion history` lists the finished games, `companion stats` sums them up per player and game. A log that
cannot be read is named with why and counted nowhere; a game still being played is not history yet.
Statistics count the real players: imaginary players have no seat at the table. Each game says how its logs
are read (`RECORDS`): what a finished game's totals are, where the points came from, and the score through
the game for plotting; the log's first line names the game (none: Alhambra Roll & Write, the first game).
"""

from __future__ import annotations

import os
import statistics
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from companion.games.alhambra_rw.entry import totals_by_round
from companion.games.entry import GameEntry, Progress, Records, Result, ScoreFileError
from companion.games.eventlog import LogError, load_log
from companion.games.table import GAMES, SAVED
from companion.games.words import listed
from companion.log_index import read_through
from companion.saved_games import READ_BACK_KIND, named_game, naming, read_back, saved_files, when_played

__all__ = [
    "RECORDS",
    "FinishedGame",
    "History",
    "HistoryError",
    "Progress",
    "Result",
    "history",
    "player_key",
    "totals_by_round",
]

RECORDS: Mapping[str, Records] = {
    game: entry.records for game, entry in SAVED.items() if entry.records is not None
}
"""How each game's logs are read back, from the table of games."""


class HistoryError(ValueError):
    """A log that cannot be read back; the message names the file and why."""


@dataclass(frozen=True)
class FinishedGame:
    path: Path
    played: datetime
    """When the game was played (`saved_games.when_played`), in local time with its UTC offset."""
    game: str
    results: tuple[Result, ...]
    winners: tuple[str, ...]
    sources: tuple[str, ...]
    """Where this game's points came from, in the order of each result's `vp` (a variant's may differ from
    its game's `sources`: Alcazaba's walls)."""
    variant: str = ""
    """The variant in players' words where it is not the standard game (`Summary.variant`)."""

    @property
    def title(self) -> str:
        """The game's title, with its variant where it has one: "Alhambra – the dice game (Alcazaba)"."""
        return f"{GAMES[self.game].title} ({self.variant})" if self.variant else GAMES[self.game].title

    @property
    def won(self) -> str:
        """Who won, as the history says it."""
        return f"won by {listed(self.winners)}" if self.winners else "no winner"

    def progress(self) -> Progress:
        return RECORDS[self.game].progress(_content(self.path)[1])

    def to_json(self) -> dict[str, Any]:
        return {
            "log": str(self.path),
            "played": self.played.isoformat(timespec="seconds"),
            "game": self.game,
            "variant": self.variant,
            "players": [
                {
                    "name": r.name,
                    "imaginary": r.imaginary,
                    "total": r.total,
                    "vp": dict(zip(self.sources, r.vp, strict=True)),
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
    unreadable: str = ""
    """Why the folder itself cannot be read ("": it was, or there is none yet)."""


def _content(path: Path) -> tuple[GameEntry, Any]:
    """The game of a saved file and what history reads of it: a log's events, or what a file of its own
    holds; `HistoryError` says why it cannot be read."""
    try:
        entry = named_game(path)
        if entry.rules is not None:
            return entry, list(load_log(path, entry.rules.log).events)
        assert entry.records is not None and entry.records.read is not None  # a saved game's row reads it
        return entry, entry.records.read(path)
    except LogError as exc:
        raise HistoryError(str(exc)) from exc
    except ScoreFileError as exc:
        raise HistoryError(naming(path, exc)) from exc


def history(folder: Path) -> History:
    """The finished games among the logs in `folder` (each log read once, with the start screen's
    read-back, then taken from the index beside the logs while it stays as it was)."""
    if why := _unlistable(folder):
        return History((), (), why)
    games, problems = [], []
    paths = saved_files(folder) if folder.is_dir() else []
    for path, both in zip(paths, read_through(folder, READ_BACK_KIND, paths, read_back), strict=True):
        back = both["history"]
        if "problem" in back:
            problems.append(back["problem"])
            continue
        played = when_played(path)
        if "results" not in back or played is None:  # not over, or gone since it was read
            continue
        results = tuple(
            Result(name, imaginary, total, tuple(vp)) for name, imaginary, total, vp in back["results"]
        )
        games.append(
            FinishedGame(
                path,
                played,
                back["game"],
                results,
                tuple(back["winners"]),
                tuple(back["sources"]),
                back.get("variant", ""),
            )
        )
    games.sort(key=lambda g: (g.played, g.path.name), reverse=True)
    return History(tuple(games), tuple(problems))


def _unlistable(folder: Path) -> str:
    """Why the logs in `folder` cannot be listed (a search of it finds nothing, without a word); "" when
    they can, or when there is no folder yet."""
    try:
        with os.scandir(folder):
            return ""
    except FileNotFoundError:
        return ""
    except OSError as exc:
        return exc.strerror or str(exc)


@dataclass(frozen=True)
class PlayerStats:
    """One real player's record in one game."""

    game: str
    name: str
    games: int
    wins: int
    average_total: float
    best_total: int
    vp_by_source: Mapping[str, float]
    """Average VP per game by source, over the games with that source: the game's `sources` first, then a
    variant's own (Alcazaba's walls)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "name": self.name,
            "games": self.games,
            "wins": self.wins,
            "average_total": round(self.average_total, 1),
            "best_total": self.best_total,
            "average_vp": {s: round(v, 1) for s, v in self.vp_by_source.items()},
        }


def player_key(name: str) -> str:
    """The player a name is, across games and at the table: its letters however they were typed (é as one
    character or as e and its accent), in any case and spacing ("ZOË", "zoë" and "Zoë" are one player, and
    so are "Ida  Mae" and "Ida Mae")."""
    return unicodedata.normalize("NFC", unicodedata.normalize("NFD", " ".join(name.split())).casefold())


def player_stats(games: Sequence[FinishedGame]) -> list[PlayerStats]:
    """Per game and real player (`player_key`, named as the most recently played game writes them): games
    played, games won (a shared win counts for each winner), average and best total, and where the points
    came from on average. Grouped by game, most wins first."""
    played: dict[tuple[str, str], list[tuple[Result, tuple[str, ...]]]] = {}
    wins: dict[tuple[str, str], int] = {}
    named: dict[tuple[str, str], str] = {}
    for game in sorted(games, key=lambda g: g.played, reverse=True):
        for result in game.results:
            if not result.imaginary:
                key = (game.game, player_key(result.name))
                named.setdefault(key, result.name)
                played.setdefault(key, []).append((result, game.sources))
                wins[key] = wins.get(key, 0) + (result.name in game.winners)
    stats = [
        PlayerStats(
            key[0],
            named[key],
            len(results),
            wins[key],
            statistics.fmean(r.total for r, _ in results),
            max(r.total for r, _ in results),
            _by_source(RECORDS[key[0]].sources, results),
        )
        for key, results in played.items()
    ]
    return sorted(stats, key=lambda s: (list(RECORDS).index(s.game), -s.wins, -s.average_total, s.name))


def _by_source(first: tuple[str, ...], results: Sequence[tuple[Result, tuple[str, ...]]]) -> dict[str, float]:
    """Average VP by source over the results whose game has that source: a game without one (a variant's) is
    none of its zeros. The sources `first` lead, in their order."""
    vps: dict[str, list[int]] = {source: [] for source in first}
    for result, sources in results:
        for source, vp in zip(sources, result.vp, strict=True):
            vps.setdefault(source, []).append(vp)
    return {source: statistics.fmean(vp) for source, vp in vps.items() if vp}
