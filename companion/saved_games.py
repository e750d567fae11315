"""The saved games the start screen lists: every game log in the games folder, of any game, and the files of
the games kept without a log (the original Alhambra's pads), with how far each has come, or why it cannot be
continued. Each file is read once for both the start screen and history (`read_back`): reading a log is most
of the time either takes; `to_read` says beforehand how many a listing would read."""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Callable
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from companion.games.alhambra.pad import PAD_PREFIX
from companion.games.entry import GameEntry, ScoreFileError, Summary
from companion.games.eventlog import LOG_LIMITS, LogError, load_log
from companion.games.folding import IllegalMove
from companion.games.held import refuse_if_held
from companion.games.session import LOG_SUFFIX
from companion.games.table import FIRST_GAME, SAVED, entry_of_file, game_named
from companion.log_index import read_through, unread
from companion.scorefiles import game_of
from jsonfile.whole import SIDE_SUFFIX

MAX_FIRST_LINE = 100_000
"""A game_started line is at most a few KB (Roll & Write's holds its sheet): more is no log's first line."""
READ_BACK_KIND = "saved-game"
"""The log index's name for a saved file's read-back (`read_back`), the start screen's and history's."""
STARTED = re.compile(rf"(?:{re.escape(PAD_PREFIX)})?(\d{{8}}-\d{{6}})(?!\d)")
"""The start time a new game's file is named with (`session.new_log_path`, `pad.new_pad`), local time."""


@dataclass(frozen=True)
class SavedGame:
    """A game log as the start screen lists it."""

    path: Path
    played: datetime
    """When the game was last played, its file's last write (the game to continue first); a finished one
    when it was played, as history dates it (`when_played`)."""
    game: GameEntry
    summary: Summary | None
    """How far the game has come (None: it cannot be continued, and `problem` says why)."""
    problem: str = ""

    @property
    def players(self) -> tuple[str, ...]:
        return () if self.summary is None else self.summary.players


def saved_games(folder: Path, on_read: Callable[[], object] = lambda: None) -> list[SavedGame]:
    """Every game log in `folder`, the most recently played first; unreadable logs are listed with why. Each
    log is read once, then taken from the index beside the logs while it stays as it was. `on_read()` is
    called after each file read (not taken from the index): a reading on another thread counts them, and
    stops by raising."""
    if not folder.is_dir():
        return []

    def read(path: Path) -> dict[str, Any]:
        back = read_back(path)
        on_read()
        return back

    paths = saved_files(folder)
    games = []
    for path, back in zip(paths, read_through(folder, READ_BACK_KIND, paths, read), strict=True):
        when = last_changed(path)
        if when is None:  # gone since the folder was listed: not a saved game any more
            continue
        saved = back["saved"]
        # Only a file whose game could not be named lacks one (`read_back`): a row that cannot be continued,
        # whose problem says why; its game is never read.
        game = SAVED.get(saved.get("game", ""), FIRST_GAME)
        summary = saved.get("summary")
        if summary is None:
            games.append(SavedGame(path, when, game, None, str(saved.get("problem", ""))))
            continue
        players, imaginary = tuple(summary["players"]), tuple(summary["imaginary"])
        # A finished game is dated as history dates it: the start screen and F4 gave one game two dates.
        played = (when_played(path) or when) if summary["over"] else when
        games.append(
            SavedGame(
                path,
                played,
                game,
                Summary(players, imaginary, summary["where"], summary["over"], summary.get("variant", "")),
            )
        )
    return sorted(games, key=lambda g: (g.played, g.path.name), reverse=True)


def to_read(folder: Path) -> int:
    """How many files in `folder` `saved_games` would read now (the rest it takes from the index)."""
    return len(unread(folder, READ_BACK_KIND, saved_files(folder))) if folder.is_dir() else 0


def when_played(path: Path) -> datetime | None:
    """When a finished game was played, as history, `stats` and F4 date it, in local time with its UTC offset:
    when it began, as its file's name holds it, else its file's last write; None when the file is gone. A
    file's time moves with a plain copy to another computer or a backup restored (every game was dated the
    day of the copy); the saved games to continue are listed by their last move (`saved_games`)."""
    written = last_changed(path)
    return None if written is None else _started(path) or written


def _started(path: Path) -> datetime | None:
    """The start time a saved game's file is named with (None: its name holds none, or no real time)."""
    named = STARTED.match(path.name)
    try:
        # Named in the local time where the game began, read in today's: hours off only after a move abroad.
        return datetime.strptime(named[1], "%Y%m%d-%H%M%S").astimezone() if named else None
    except (ValueError, OverflowError, OSError):
        return None


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


def read_back(path: Path) -> dict[str, Any]:
    """A saved file read once, as JSON for the index (the path and time are the file's own): `"saved"`, as
    the start screen lists it (its game and how far it has come, or why it cannot be continued), and
    `"history"`, as history keeps it (its game and, once finished, the results and where their points came
    from; or why it cannot be read)."""
    try:
        game = named_game(path)
    except ScoreFileError as exc:
        return {"saved": {"problem": str(exc)}, "history": {"problem": naming(path, exc)}}
    try:
        content, refused = _content(game, path)
    except (LogError, ScoreFileError) as exc:
        return {"saved": {"game": game.id, "problem": str(exc)}, "history": {"problem": naming(path, exc)}}
    saved = _saved(game, path, content)
    history = {"problem": refused} if refused else _finished(game, path, content)
    if "results" in history and "summary" in saved:  # a finished game is named with its variant there too
        history["variant"] = saved["summary"]["variant"]
    return {"saved": saved, "history": history}


def _content(game: GameEntry, path: Path) -> tuple[Any, str]:
    """What a saved file of `game` holds: a log's events, as continuing it reads them, or what a file of its
    own holds; and why history refuses it ("": it does not). `LogError` or `ScoreFileError` say why it
    cannot be read."""
    if game.rules is None:
        assert game.records is not None and game.records.read is not None  # a file of its own is read
        return game.records.read(path), ""
    loaded = load_log(path, game.rules.log, lenient=True)
    if loaded.cut_line is not None:
        # Continuing takes a whole bad last line for a stray write; history does not (read again: seldom).
        try:
            load_log(path, game.rules.log)
        except LogError as exc:
            return list(loaded.events), str(exc)
    return list(loaded.events), ""


def _saved(game: GameEntry, path: Path, content: Any) -> dict[str, Any]:
    """The start screen's read-back of a saved file of `game` holding `content`."""
    assert game.summary is not None  # a saved game's row says how far it has come
    try:
        summary = game.summary(content if game.rules is None else game.rules.replay(content))
    except IllegalMove as exc:
        return {"game": game.id, "problem": f"{path}: {exc}"}
    return {"game": game.id, "summary": asdict(summary)}


def _finished(game: GameEntry, path: Path, content: Any) -> dict[str, Any]:
    """History's read-back of a saved file of `game` holding `content`."""
    records = game.records
    assert records is not None  # a saved game's row reads it back
    try:
        finished = records.finished(content)
    except (IllegalMove, ScoreFileError) as exc:
        return {"problem": naming(path, exc)}
    if finished is None:
        return {"game": game.id}
    results, winners = finished
    return {
        "game": game.id,
        "results": [[r.name, r.imaginary, r.total, list(r.vp)] for r in results],
        "winners": list(winners),
        "sources": list(records.sources_of(content)),
    }


def naming(path: Path, exc: Exception) -> str:
    """The problem in one line that names the file."""
    return str(exc) if str(exc).startswith(str(path)) else f"{path}: {exc}"


def saved_files(folder: Path) -> list[Path]:
    """The saved games in `folder`: the game logs, and the files of the games kept without a log."""
    patterns = {f"*{LOG_SUFFIX}", *(entry.files for entry in SAVED.values())}
    return sorted({path for pattern in patterns for path in folder.glob(pattern)})


CUT = ".cut"
"""The file beside a saved game's log named after it whole: its log's spoiled last lines set aside."""
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
    """A saved game's file and those beside it that belong to it (its spoiled lines set aside, exports, the
    folder of its camera frames, and any of these left half written), as they are on disk now."""
    stem = game_stem(path)
    whole = [path.name, path.name + CUT, *(stem + export for export in EXPORTS)]
    names = [*whole, *(name + SIDE_SUFFIX for name in whole)]
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
    """The game a log's first line names (its game_started event), as `table.game_named` names it; a log
    whose first line cannot be read, or that names a game not played move by move, is read as one naming
    none, whose game's reader then says what is wrong; `ScoreFileError` for a game the table does not know,
    or a first line too long to be a log's."""
    entry = game_named(_named_in_first_line(path), path)
    return entry if entry.rules is not None else game_named(None, path)


def _named_in_first_line(path: Path) -> object:
    """The `"game"` the first line of the log at `path` names (None: none, or the line cannot be read)."""
    if not path.is_file():  # opening a pipe waits for a writer for ever; the log's reader says what it is
        return None
    try:
        with open(path, "rb") as file:
            first = file.readline(MAX_FIRST_LINE + 1)
            size = os.fstat(file.fileno()).st_size
    except OSError:
        return None
    # Cut short, the line names no game, and the first game's reader would blame a field of another game's
    # line; a file too large for any log is named so by that reader, as `companion score` names it.
    if len(first) > MAX_FIRST_LINE and size <= LOG_LIMITS.size:
        raise ScoreFileError(
            f"{path}: line 1: too long for a game log's first line (over {MAX_FIRST_LINE:,} bytes)"
        )
    return game_of(path, first)  # the checked reader: a crafted line is refused
