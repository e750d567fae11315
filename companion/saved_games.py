"""The saved games the start screen lists: every game log in the games folder, of any game, and the files of
the games kept without a log (the original Alhambra's pads), with how far each has come, or why it cannot be
continued."""

from __future__ import annotations

import shutil
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from companion.games.entry import GameEntry, ScoreFileError, Summary
from companion.games.held import refuse_if_held
from companion.games.session import LOG_SUFFIX, ResumeError, resumed_state
from companion.games.table import FIRST_GAME, GAMES, PLAYED, SAVED, entry_of_file
from companion.log_index import read_through
from companion.scorefiles import game_of
from jsonfile import short

MAX_FIRST_LINE = 100_000
"""A game_started line is at most a few KB (Roll & Write's holds its sheet): more is no log's first line."""
SAVED_KIND = "saved-games"
"""The log index's name for the start screen's read-backs."""


@dataclass(frozen=True)
class SavedGame:
    """A game log as the start screen lists it."""

    path: Path
    modified: datetime
    game: GameEntry
    summary: Summary | None
    """How far the game has come (None: it cannot be continued, and `problem` says why)."""
    problem: str = ""

    @property
    def players(self) -> tuple[str, ...]:
        return () if self.summary is None else self.summary.players


def saved_games(folder: Path) -> list[SavedGame]:
    """Every game log in `folder`, the most recently played first; unreadable logs are listed with why. Each
    log is read once, then taken from the index beside the logs while it stays as it was."""
    if not folder.is_dir():
        return []
    paths = saved_files(folder)
    games = []
    for path, back in zip(paths, read_through(folder, SAVED_KIND, paths, _saved_read_back), strict=True):
        modified = last_changed(path)
        if modified is None:  # gone since the folder was listed: not a saved game any more
            continue
        game = SAVED.get(back.get("game", ""), FIRST_GAME)
        summary = back.get("summary")
        if summary is None:
            games.append(SavedGame(path, modified, game, None, str(back.get("problem", ""))))
            continue
        players, imaginary = tuple(summary["players"]), tuple(summary["imaginary"])
        games.append(
            SavedGame(path, modified, game, Summary(players, imaginary, summary["where"], summary["over"]))
        )
    return sorted(games, key=lambda g: (g.modified, g.path.name), reverse=True)


def last_changed(path: Path) -> datetime | None:
    """When a saved file was last written, in local time with its UTC offset: a link's own time when what it
    points at is gone (its reader says so); None when the file itself is gone."""
    for look in (path.stat, path.lstat):
        try:
            # With its offset: the night clocks go back, 01:50 EDT came before 01:10 EST, and naive local
            # times sorted them the other way round.
            return datetime.fromtimestamp(look().st_mtime, UTC).astimezone()
        except OSError:
            continue
    return None


def _saved_read_back(path: Path) -> dict[str, Any]:
    """One log as the start screen lists it, as JSON for the index (the path and time are the file's own)."""
    try:
        game = named_game(path)
    except ScoreFileError as exc:
        return {"problem": str(exc)}
    assert game.summary is not None  # a saved game's row says how far it has come
    try:
        if game.rules is not None:
            summary = game.summary(resumed_state(game.rules, path))
        else:
            assert game.records is not None and game.records.read is not None  # a file of its own is read
            summary = game.summary(game.records.read(path))
    except (ResumeError, ScoreFileError) as exc:
        return {"game": game.id, "problem": str(exc)}
    return {"game": game.id, "summary": asdict(summary)}


def saved_files(folder: Path) -> list[Path]:
    """The saved games in `folder`: the game logs, and the files of the games kept without a log."""
    patterns = {f"*{LOG_SUFFIX}", *(entry.files for entry in SAVED.values())}
    return sorted({path for pattern in patterns for path in folder.glob(pattern)})


SIDE_FILES = (".cut", ".new")
"""Files beside a saved game named after it whole: its log's spoiled last lines set aside, a pad's
half-written save."""
EXPORTS = (".score.json", ".score.md", ".score.txt", ".frames.zip")
"""Files beside a saved game named after its stem: its scoring exported, and its camera frames."""
FRAMES = ".frames"
"""The folder beside a saved game named after its stem: the camera's frames of the rolls it read."""


def game_stem(path: Path) -> str:
    """`GAME` of a saved game's file, the name its exports and frames are named after: the name before the
    end its row gives its files (`GAME.jsonl`, the original Alhambra's `GAME.pad.json`)."""
    kept = entry_of_file(path)
    return path.name.removesuffix(kept.files.rsplit("*", 1)[1] if kept is not None else LOG_SUFFIX)


def game_files(path: Path) -> list[Path]:
    """A saved game's file and those beside it that belong to it (its side files, exports and the folder of
    its camera frames), as they are on disk now."""
    stem = game_stem(path)
    names = [path.name, *(path.name + side for side in SIDE_FILES), *(stem + export for export in EXPORTS)]
    frames = path.with_name(stem + FRAMES)
    files = [path.with_name(name) for name in names if path.with_name(name).is_file()]
    return files + ([frames] if frames.is_dir() and not frames.is_symlink() else [])


def delete_game(path: Path) -> list[Path]:
    """Delete a saved game: its file, side files, exports and camera frames; returns those deleted. The log
    index forgets the game the next time the folder is read (a log no longer there is dropped from it).
    A game open in another window is not deleted (`held.InUse`): its next moves would go to no file."""
    refuse_if_held(path)
    files = game_files(path)
    for file in files:
        if file.is_dir():
            shutil.rmtree(file)
        else:
            file.unlink()
    return files


def named_game(path: Path) -> GameEntry:
    """The game a saved file belongs to: by its name for a game kept without a log, else by the log's first
    line; `ScoreFileError` for a log naming a game the table does not know, worded as `companion score`
    words it (the log's reader would blame the field, not its value)."""
    return entry_of_file(path) or game_of_log(path)


def game_of_log(path: Path) -> GameEntry:
    """The game a log's first line names (its game_started event); a log naming none, or a game that is
    not played move by move, is read as the first game's, whose reader then says what is wrong;
    `ScoreFileError` for a game the table does not know."""
    if not path.is_file():  # opening a pipe waits for a writer for ever; the log's reader says what it is
        return FIRST_GAME
    try:
        with open(path, "rb") as file:
            game = game_of(file.readline(MAX_FIRST_LINE))  # the checked reader: a crafted line is refused
    except OSError:
        return FIRST_GAME
    if game is not None and (not isinstance(game, str) or game not in GAMES):
        raise ScoreFileError(f"{path}: game: unknown game {short(game)} (known: {', '.join(GAMES)})")
    return PLAYED.get(game, FIRST_GAME) if isinstance(game, str) else FIRST_GAME
