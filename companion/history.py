"""Finished games and each player's statistics, read from the game logs the app keeps, whatever the game.

`companion history` lists the finished games, `companion stats` sums them up per player and game. A log that
cannot be read is named with why and counted nowhere; a game still being played is not history yet.
Statistics count the real players: imaginary players have no seat at the table. Each game says how its logs
are read (`RECORDS`): what a finished game's totals are, where the points came from, and the score through
the game for plotting; the log's first line names the game (none: Alhambra Roll & Write, the first game).
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from companion.games import alhambra_dice as ad
from companion.games import alhambra_rw as rw
from companion.games import carcassonne_dice as cd
from companion.games.alhambra_dice import scorefile as ad_scorefile
from companion.games.alhambra_rw.endstate import GAME_ID as ALHAMBRA_RW
from companion.games.carcassonne_dice import scorefile as cd_scorefile
from companion.log_index import read_through
from companion.scorefiles import game_of
from vision.jsonfile import JsonFileError, read_bytes, short

FIRST_LINE_LIMIT = 100_000
"""The longest first line looked at for the game a log is of (a game_started event is far shorter)."""
HISTORY_KIND = "history"
"""The index's name for history's read-backs."""


class HistoryError(ValueError):
    """A log that cannot be read back; the message names the file and why."""


@dataclass(frozen=True)
class Result:
    name: str
    imaginary: bool
    total: int
    vp: tuple[int, ...]
    """VP by source, in the order of the game's `sources`."""


@dataclass(frozen=True)
class Progress:
    """The real players and what each one's score was at each step of a game (its first step: the start)."""

    names: tuple[str, ...]
    totals: list[tuple[int, ...]]
    step: str
    """What one step is, for the plot's axis: "round", "round of turns"."""


@dataclass(frozen=True)
class GameRecords:
    """How one game's logs are read back: its finished totals (None while it is played) and its progress."""

    sources: tuple[str, ...]
    """Where a total's points come from, as the game's final scoring breaks it down."""
    finished: Callable[[Path], tuple[tuple[Result, ...], tuple[str, ...]] | None]
    """The results and winners of a finished game's log; `HistoryError` for a log that cannot be read."""
    progress: Callable[[Path], Progress]
    replayable: bool
    """The app can replay this game's log move by move."""


@dataclass(frozen=True)
class FinishedGame:
    path: Path
    played: datetime
    """When the last move was written."""
    game: str
    results: tuple[Result, ...]
    winners: tuple[str, ...]

    @property
    def sources(self) -> tuple[str, ...]:
        return RECORDS[self.game].sources

    def progress(self) -> Progress:
        return RECORDS[self.game].progress(self.path)

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


def _rw_game(path: Path) -> rw.Game:
    try:
        return rw.replay_log(rw.load_log(path))
    except rw.LogError as exc:
        raise HistoryError(str(exc)) from exc


def _rw_finished(path: Path) -> tuple[tuple[Result, ...], tuple[str, ...]] | None:
    state = _rw_game(path).state
    if not state.is_over:
        return None
    board = rw.score_game(state)
    results = tuple(
        Result(p.name, p.imaginary, p.total, (p.buildings_vp, p.rows_columns, p.coins, p.extra))
        for p in board.players
    )
    return results, board.winners


def _rw_progress(path: Path) -> Progress:
    return Progress(*totals_by_round(rw.load_log(path).events), step="round")


def totals_by_round(events: Sequence[rw.Event]) -> tuple[tuple[str, ...], list[tuple[int, ...]]]:
    """The real players of an Alhambra Roll & Write game, and what each one's sheet was worth when each
    round began and when the game ended (as if it ended then)."""
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


def _cd_state(path: Path) -> cd.GameState:
    try:
        data = read_bytes(path, cd_scorefile.LIMITS)
        return cd.replay(cd_scorefile.read_log(path, data))
    except (JsonFileError, cd_scorefile.ScoreFileError) as exc:
        raise HistoryError(str(exc)) from exc
    except cd.IllegalMove as exc:
        raise HistoryError(f"{path}: {exc}") from exc


def _cd_vp(turns: Sequence[cd.TurnRecord]) -> tuple[int, int]:
    """Points from cities, and the half of a doubled turn's points that the held knight gave."""
    knight = sum(t.points // 2 for t in turns if t.doubled)
    return sum(t.points for t in turns) - knight, knight


def _cd_finished(path: Path) -> tuple[tuple[Result, ...], tuple[str, ...]] | None:
    state = _cd_state(path)
    if not state.is_over:
        return None
    board = cd.score_game(state)
    results = tuple(Result(p.name, False, p.total, _cd_vp(p.turns)) for p in board.players)
    return results, () if board.winner is None else (board.winner,)


def _cd_progress(path: Path) -> Progress:
    """Each player's total after every round of turns (and at the end, when a win cut a round short)."""
    state = _cd_state(path)
    running = dict.fromkeys(state.names, 0)
    totals = [tuple(running.values())]
    for n, turn in enumerate(state.turns, start=1):
        running[turn.player] += turn.points
        if n % len(state.names) == 0 or n == len(state.turns):
            totals.append(tuple(running.values()))
    return Progress(state.names, totals, step="round of turns")


def _ad_board(path: Path) -> ad.GameScore:
    try:
        return ad.score_log(ad_scorefile.read_log(path, read_bytes(path, ad_scorefile.LIMITS)))
    except (JsonFileError, ad.ScoreFileError) as exc:
        raise HistoryError(str(exc)) from exc
    except ad.IllegalMove as exc:
        raise HistoryError(f"{path}: {exc}") from exc


def _ad_finished(path: Path) -> tuple[tuple[Result, ...], tuple[str, ...]] | None:
    board = _ad_board(path)
    if not board.finished:
        return None
    results = tuple(
        Result(
            name,
            dirk,
            total,
            (
                sum(s[i].vp - s[i].tiles_vp for s in board.scorings),
                sum(s[i].tiles_vp for s in board.scorings),
            ),
        )
        for i, (name, dirk, total) in enumerate(zip(board.names, board.dirk, board.totals, strict=True))
    )
    return results, board.winners


def _ad_progress(path: Path) -> Progress:
    """The real players' totals before the first scoring and after each of scorings A, B and C."""
    board = _ad_board(path)
    real = [i for i, dirk in enumerate(board.dirk) if not dirk]
    totals = [tuple(0 for _ in real)]
    for scoring in board.scorings:
        totals.append(tuple(before + scoring[i].vp for before, i in zip(totals[-1], real, strict=True)))
    return Progress(tuple(board.names[i] for i in real), totals, step="scoring")


RECORDS: Mapping[str, GameRecords] = {
    ALHAMBRA_RW: GameRecords(
        ("buildings", "rows_columns", "coins", "extra"), _rw_finished, _rw_progress, replayable=True
    ),
    ad.GAME_ID: GameRecords(("buildings", "vp_tiles"), _ad_finished, _ad_progress, replayable=False),
    cd.GAME_ID: GameRecords(("cities", "knight_doubling"), _cd_finished, _cd_progress, replayable=False),
}


def _game_of(path: Path) -> str:
    """The game its first line names. Only that line is read: the game's own reader then reads the log with
    the game's own limits, so a log too large is named with the limit the start screen names too."""
    try:
        with open(path, "rb") as file:
            game = game_of(file.readline(FIRST_LINE_LIMIT))
    except OSError:
        game = None  # the game's reader says why it cannot be read
    if game is None:
        return ALHAMBRA_RW
    if not isinstance(game, str) or game not in RECORDS:
        raise HistoryError(f"{path}: game: unknown game {short(game)} (known: {', '.join(RECORDS)})")
    return game


def _read_back(path: Path) -> dict[str, Any]:
    """One log as history keeps it (JSON, for the index): its game and, once finished, the results; or why
    it cannot be read."""
    try:
        game = _game_of(path)
        finished = RECORDS[game].finished(path)
    except HistoryError as exc:
        return {"problem": str(exc)}
    if finished is None:
        return {"game": game}
    results, winners = finished
    return {
        "game": game,
        "results": [[r.name, r.imaginary, r.total, list(r.vp)] for r in results],
        "winners": list(winners),
    }


def history(folder: Path, log_suffix: str = ".jsonl") -> History:
    """The finished games among the logs in `folder` (each log read once, then taken from the index beside
    the logs while it stays as it was)."""
    games, problems = [], []
    paths = sorted(folder.glob(f"*{log_suffix}")) if folder.is_dir() else []
    for path, back in zip(paths, read_through(folder, HISTORY_KIND, paths, _read_back), strict=True):
        if "problem" in back:
            problems.append(back["problem"])
            continue
        if "results" not in back:
            continue
        played = datetime.fromtimestamp(path.stat().st_mtime)
        results = tuple(
            Result(name, imaginary, total, tuple(vp)) for name, imaginary, total, vp in back["results"]
        )
        games.append(FinishedGame(path, played, back["game"], results, tuple(back["winners"])))
    games.sort(key=lambda g: (g.played, g.path.name), reverse=True)
    return History(tuple(games), tuple(problems))


@dataclass(frozen=True)
class PlayerStats:
    """One real player's record in one game."""

    game: str
    name: str
    games: int
    wins: int
    average_total: float
    best_total: int
    average_vp: tuple[float, ...]
    """Average VP per game by source, in the order of the game's `sources`."""

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "name": self.name,
            "games": self.games,
            "wins": self.wins,
            "average_total": round(self.average_total, 1),
            "best_total": self.best_total,
            "average_vp": {
                s: round(v, 1) for s, v in zip(RECORDS[self.game].sources, self.average_vp, strict=True)
            },
        }


def player_stats(games: Sequence[FinishedGame]) -> list[PlayerStats]:
    """Per game and real player: games played, games won (a shared win counts for each winner), average
    and best total, and where the points came from on average. Grouped by game, most wins first."""
    played: dict[tuple[str, str], list[Result]] = {}
    wins: dict[tuple[str, str], int] = {}
    for game in games:
        for result in game.results:
            if not result.imaginary:
                key = (game.game, result.name)
                played.setdefault(key, []).append(result)
                wins[key] = wins.get(key, 0) + (result.name in game.winners)
    stats = [
        PlayerStats(
            game,
            name,
            len(results),
            wins[game, name],
            statistics.fmean(r.total for r in results),
            max(r.total for r in results),
            tuple(statistics.fmean(r.vp[i] for r in results) for i in range(len(RECORDS[game].sources))),
        )
        for (game, name), results in played.items()
    ]
    return sorted(stats, key=lambda s: (list(RECORDS).index(s.game), -s.wins, -s.average_total, s.name))
