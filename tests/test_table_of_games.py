"""The table of games: what every game gives (a fifth game is one folder plus one row), and what every game's
log then survives: a last line cut by a crash, a stray line appended, a disk that is full."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import tempfile
import textwrap
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from companion.games.entry import GameEntry, Summary, load
from companion.games.eventlog import LOG_LIMITS, GameLog, load_log, log_text
from companion.games.session import ResumeError, Session
from companion.games.table import FIRST_GAME, GAMES, NEW_GAMES, PLAYED
from companion.history import history
from companion.saved_games import game_of_log, saved_games
from companion.scorefiles import ScoreFileError, score_path

NOW = datetime(2026, 11, 26, 20, 0)


def a_game(entry: GameEntry, seed: int = 1) -> list[Any]:
    """A whole game of `entry`, every choice random, with its fewest players."""
    assert entry.random_game is not None
    return entry.random_game(entry.players[0], random.Random(seed))


@pytest.mark.parametrize("game", list(GAMES))
def test_every_game_gives_its_row(game: str) -> None:
    """What a new game must give: an id and title, a scorer; a game played move by move
    also its rules and log format, player counts, a random player, how the start screen sums it up and sets
    it up, how history reads it, and the screen, table view and demo that the layers above
    build (loadable by name); a game kept in a file of its own how that file is named, read, summed up and
    continued."""
    entry = GAMES[game]
    assert entry.id == game and entry.title and callable(entry.score) and entry.new_games
    if entry.rules is None:
        # A game kept in a file of its own (the original Alhambra's pad): how it is read, summed up, counted
        # in history and continued.
        assert entry.summary is not None and entry.records is not None and entry.records.read is not None
        assert entry.files != "*.jsonl" and callable(load(entry.opens))
        return
    assert entry.summary is not None and entry.records is not None and entry.random_game is not None
    assert entry.players[0] <= entry.players[1]
    assert callable(load(entry.screen)) and callable(load(entry.demo))
    assert callable(getattr(load(entry.view), "show", None))
    events = a_game(entry)
    state = entry.rules.replay(events)
    summary = entry.summary(state)
    assert isinstance(summary, Summary) and summary.over and summary.where == "finished"
    finished = entry.records.finished(events)
    assert finished is not None and len(finished[0]) >= entry.players[0]
    assert entry.records.progress(events).totals
    assert entry.rules.log.encode(events[0]).get("game") == game, "a log's first line names its game"
    assert entry.setup is not None and entry.form is not None
    # The form keeps its own choice of sheet: a game played on one is given the set-up's again.
    sheet = getattr(events[0], "sheet", None)
    again = entry.setup(replace(entry.form(events[0]), sheet=lambda: sheet))
    assert again == events[0], "the form a set-up gives the next game sets it up again"


def test_every_game_the_start_screen_starts_has_a_choice_and_key_of_its_own() -> None:
    """The form's game choice and its keys (F7–F10) come from the rows, in the table's order."""
    choices = [new.choice for new in NEW_GAMES]
    keys = [new.key for new in NEW_GAMES if new.key]
    assert len(set(choices)) == len(choices) and len(set(keys)) == len(keys)


@pytest.mark.parametrize("game", list(PLAYED))
def test_a_game_is_played_logged_scored_and_listed_through_its_row(game: str, tmp_path: Path) -> None:
    entry = PLAYED[game]
    assert entry.rules is not None
    events = a_game(entry, seed=2)
    session = Session.create(entry.rules, tmp_path, events[0], NOW)
    for event in events[1:]:
        session.submit(event)
    session.close()
    assert session.path.read_text(encoding="utf-8") == log_text(events, entry.rules.log.encode)
    assert game_of_log(session.path) is entry
    assert score_path(session.path).json
    [listed] = saved_games(tmp_path)
    assert listed.game is entry and listed.summary is not None and listed.summary.over
    [played] = history(tmp_path).games
    assert played.game == game


def cut_log(entry: GameEntry, folder: Path, kept: int, tail: bytes) -> tuple[Path, list[Any]]:
    """The log of a game's first `kept` events followed by `tail` (a spoiled last line)."""
    assert entry.rules is not None
    events = a_game(entry, seed=3)
    path = folder / "game.jsonl"
    path.write_bytes(log_text(events[:kept], entry.rules.log.encode).encode("utf-8") + tail)
    return path, events


@pytest.mark.parametrize("game", list(PLAYED))
def test_a_last_line_cut_by_a_crash_is_set_aside_and_the_game_goes_on(game: str, tmp_path: Path) -> None:
    entry = PLAYED[game]
    assert entry.rules is not None
    whole = log_text(a_game(entry, seed=3)[:11], entry.rules.log.encode).encode("utf-8").splitlines()[-1]
    path, events = cut_log(entry, tmp_path, 10, whole[: len(whole) // 2])
    session = Session.resume(entry.rules, path)
    assert session.events == events[:10]
    assert "line 11 was cut off" in session.warning and "kept the 10 complete events" in session.warning
    assert session.warning.endswith(f" (its text is in {session.path.name}.cut)"), session.warning
    assert session.path.with_name(f"{session.path.name}.cut").is_file()
    assert path.with_name("game.jsonl.cut").read_bytes() == whole[: len(whole) // 2] + b"\n"
    session.submit(events[10])
    session.close()
    assert path.read_text(encoding="utf-8") == log_text(events[:11], entry.rules.log.encode)


@pytest.mark.parametrize("game", list(PLAYED))
def test_a_stray_last_line_is_set_aside_when_the_game_is_continued(game: str, tmp_path: Path) -> None:
    entry = PLAYED[game]
    assert entry.rules is not None
    whole = len(a_game(entry, seed=3))
    path, events = cut_log(entry, tmp_path, whole, b'{"event": "nonsense"}\n')
    with pytest.raises(ScoreFileError, match=f"line {whole + 1}: not a valid event"):
        score_path(path)  # scoring names it: only a line cut off (no newline) is left out with a warning
    session = Session.resume(entry.rules, path)
    assert session.events == events
    # A whole line is no write cut by a crash: the warning said it was one.
    assert f"line {whole + 1}: not a valid event" in session.warning and "cut off" not in session.warning
    session.close()
    assert path.read_text(encoding="utf-8") == log_text(events, entry.rules.log.encode)


@pytest.mark.parametrize("game", list(PLAYED))
def test_a_log_that_lost_its_first_line_is_refused_as_such(game: str, tmp_path: Path) -> None:
    """Named no game, it was read as the first game's, which called the next event of another game an unknown
    kind (`line 1: not a valid event (event: unknown kind 'rolled')`)."""
    entry = PLAYED[game]
    assert entry.rules is not None
    lines = log_text(a_game(entry, seed=3), entry.rules.log.encode).splitlines(keepends=True)
    path = tmp_path / "game.jsonl"
    path.write_text("".join(lines[1:]), encoding="utf-8")
    said = "line 1: a game's log begins with its game_started event, not "
    for read in (score_path, game_of_log):
        with pytest.raises(ScoreFileError, match=f"{said}'{json.loads(lines[1])['event']}'"):
            read(path)


@pytest.mark.parametrize("game", list(PLAYED))
def test_a_bad_line_before_the_last_is_refused_naming_it(game: str, tmp_path: Path) -> None:
    entry = PLAYED[game]
    assert entry.rules is not None
    events = a_game(entry, seed=3)
    lines = log_text(events[:10], entry.rules.log.encode).splitlines(keepends=True)
    path = tmp_path / "game.jsonl"
    text = "".join([*lines[:5], "{oops\n", *lines[5:]]).rstrip("\n")
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ResumeError, match=r"game\.jsonl: line 6"):
        Session.resume(entry.rules, path)
    assert path.read_text(encoding="utf-8") == text, "a log that cannot be continued is left as is"


@pytest.mark.parametrize("game", list(PLAYED))
def test_a_whole_last_event_without_its_newline_is_kept_and_its_line_ended(game: str, tmp_path: Path) -> None:
    entry = PLAYED[game]
    assert entry.rules is not None
    path, events = cut_log(entry, tmp_path, 10, b"")
    path.write_bytes(path.read_bytes().rstrip(b"\n"))
    session = Session.resume(entry.rules, path)
    assert session.events == events[:10] and not session.warning
    session.submit(events[10])
    session.close()
    assert path.read_text(encoding="utf-8") == log_text(events[:11], entry.rules.log.encode)


FULL_DISK = """
import json, random, resource, sys
from datetime import datetime
from pathlib import Path
from companion.games.session import Session
from companion.games.table import PLAYED

entry = PLAYED[sys.argv[1]]
events = entry.random_game(entry.players[0], random.Random(3))
session = Session.create(entry.rules, Path(sys.argv[2]), events[0], datetime(2026, 11, 26))
for event in events[1:10]:
    session.submit(event)
size = session.path.stat().st_size
resource.setrlimit(resource.RLIMIT_FSIZE, (size + 10, size + 10))
try:
    session.submit(events[10])
except OSError as exc:
    said = str(exc)
print(json.dumps({"said": said, "events": len(session.events), "same": session.state == entry.rules.replay(
    events[:10]), "size": session.path.stat().st_size, "before": size, "log": str(session.path)}))
"""


@pytest.mark.parametrize("game", list(PLAYED))
def test_a_full_disk_refuses_the_move_and_tears_nothing(game: str, tmp_path: Path) -> None:
    """The file-size limit of the process stands in for a full disk: the write fails part way."""
    run = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(FULL_DISK), game, str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    assert "the move was not saved" in out["said"] and out["log"] in out["said"]
    assert out["events"] == 10 and out["same"] and out["size"] == out["before"]
    entry = PLAYED[game]
    assert entry.rules is not None
    loaded = load_log(Path(out["log"]), entry.rules.log)
    assert loaded.cut_line is None and len(loaded.events) == 10


def test_a_log_too_large_is_refused_unread(tmp_path: Path) -> None:
    path = tmp_path / "huge.jsonl"
    path.write_bytes(b" " * (LOG_LIMITS.size + 1))
    with pytest.raises(ResumeError, match="too large"):
        Session.resume(PLAYED[FIRST_GAME.id].rules, path)  # type: ignore[arg-type]


EXAMPLES = Path(__file__).parents[1] / "companion" / "games"


def test_a_file_that_names_no_game_is_the_first_games_and_a_refusal_says_so(tmp_path: Path) -> None:
    """The README: the file's "game" field says which game, none the first. An end state without it is
    scored; another game's file without it is refused saying how it was read (it named only a field)."""
    end_state = json.loads((EXAMPLES / "alhambra_rw" / "examples" / "example-game.json").read_text())
    turn = json.loads((EXAMPLES / "carcassonne_dice" / "examples" / "wiki-example.json").read_text())
    for data in (end_state, turn):
        del data["game"]
    (tmp_path / "end.json").write_text(json.dumps(end_state))
    (tmp_path / "turn.json").write_text(json.dumps(turn))
    named = score_path(EXAMPLES / "alhambra_rw" / "examples" / "example-game.json")
    assert score_path(tmp_path / "end.json") == named
    with pytest.raises(ScoreFileError) as refused:
        score_path(tmp_path / "turn.json")
    assert str(refused.value).startswith(f"{tmp_path / 'turn.json'}: unknown field ")
    assert str(refused.value).endswith(
        '; the file names no "game", so it was read as Alhambra Roll & Write\'s'
    )


OLDER_LOG = EXAMPLES / "alhambra_rw" / "examples" / "example-game.jsonl"
"""A Roll & Write log as the program wrote it before the first line named the game: it names none."""


def test_an_older_roll_and_write_log_naming_no_game_is_read_as_the_same_log_naming_it(tmp_path: Path) -> None:
    """Roll & Write's first line named no game until it named it as every game's does: a log from before
    is read as the first game's, as ever (listed, scored, in history, continued), and left as it is."""
    entry = FIRST_GAME
    assert entry.rules is not None
    assert "game" not in json.loads(OLDER_LOG.read_bytes().splitlines()[0])
    older, newer = tmp_path / "older.jsonl", tmp_path / "newer.jsonl"
    older.write_bytes(OLDER_LOG.read_bytes())
    events = list(load_log(older, entry.rules.log).events)
    newer.write_text(log_text(events, entry.rules.log.encode), encoding="utf-8")
    assert json.loads(newer.read_text(encoding="utf-8").splitlines()[0])["game"] == entry.id
    for path in (older, newer):
        assert game_of_log(path) is entry
        session = Session.resume(entry.rules, path)
        assert session.events == events and not session.warning
        session.close()
    assert score_path(older) == score_path(newer)
    listed = {saved.path.name: saved for saved in saved_games(tmp_path)}
    assert listed["older.jsonl"].game is listed["newer.jsonl"].game is entry
    assert listed["older.jsonl"].summary == listed["newer.jsonl"].summary is not None
    played = {game.path.name: game for game in history(tmp_path).games}
    assert played["older.jsonl"].results == played["newer.jsonl"].results
    assert older.read_bytes() == OLDER_LOG.read_bytes()


def test_a_roll_and_write_log_naming_another_game_is_refused_by_its_reader() -> None:
    entry = FIRST_GAME
    assert entry.rules is not None
    first = entry.rules.log.encode(a_game(entry)[0]) | {"game": "alhambra"}
    with pytest.raises(
        entry.rules.log.bad_event, match="game: must be 'alhambra-roll-and-write', got 'alhambra'"
    ):
        entry.rules.log.parse(first)


def test_a_log_with_a_cut_line_is_kept_whole_until_continued(tmp_path: Path) -> None:
    """Reading (the list, history, the score) never changes the file: only continuing sets a line aside."""
    entry = FIRST_GAME
    assert entry.rules is not None
    path, _ = cut_log(entry, tmp_path, 10, b'{"event":"ro')
    before = path.read_bytes()
    saved_games(tmp_path)
    history(tmp_path)
    with pytest.raises(ScoreFileError, match="not over"):
        score_path(path)
    assert path.read_bytes() == before
    assert not path.with_name("game.jsonl.cut").exists()


def _companion(tmp_path: Path, *words: str) -> subprocess.CompletedProcess[str]:
    """The installed command, its games folder `tmp_path/data/table-companion/games`."""
    companion = str(Path(sys.executable).parent / "companion")
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data")}
    return subprocess.run([companion, *words], capture_output=True, text=True, timeout=60, env=env)


@pytest.mark.parametrize("game", list(PLAYED))
def test_a_game_not_over_because_its_last_line_was_cut_says_the_cut_line_too(
    game: str, tmp_path: Path
) -> None:
    # `companion score` said only "the game is not over": the warning that line 11 was cut off was lost.
    entry = PLAYED[game]
    assert entry.rules is not None
    whole = log_text(a_game(entry, seed=3)[:11], entry.rules.log.encode).encode("utf-8").splitlines()[-1]
    path, _ = cut_log(entry, tmp_path, 10, whole[: len(whole) // 2])
    run = _companion(tmp_path, "score", str(path))
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr.startswith(f"companion score: {path}: the game is not over"), run.stderr
    assert "; line 11 was cut off (an interrupted write); kept the 10 complete events" in run.stderr
    assert run.stderr.count("\n") == 1


def test_a_first_line_too_long_for_a_log_is_said_not_taken_for_the_first_games(tmp_path: Path) -> None:
    # A Carcassonne game_started listing 100,000 players was read cut short, naming no game, so history and
    # the start screen blamed the first game's reader's "unknown field 'game'".
    folder = tmp_path / "data" / "table-companion" / "games"
    folder.mkdir(parents=True)
    log = folder / "crowd.jsonl"
    entry = PLAYED["carcassonne-dice"]
    assert entry.rules is not None
    second = log_text(a_game(entry), entry.rules.log.encode).splitlines(keepends=True)[1]
    players = [f"P{n}" for n in range(100_000)]
    log.write_text(
        json.dumps({"event": "game_started", "game": entry.id, "players": players}) + "\n" + second
    )
    said = f"{log}: line 1: too long for a game log's first line (over 100,000 bytes)"
    [listed] = saved_games(folder)
    assert listed.summary is None and listed.problem == said
    run = _companion(tmp_path, "history")
    assert run.returncode == 0 and f"left out {said}" in run.stderr, run.stderr


def test_the_game_log_writer_refuses_to_overwrite(tmp_path: Path) -> None:
    entry = FIRST_GAME
    assert entry.rules is not None
    path = tmp_path / "game.jsonl"
    path.write_text("{}\n", encoding="utf-8")
    with pytest.raises(ValueError, match="already exists"):
        GameLog.create(path, a_game(entry)[0], entry.rules.log.encode)


READ_ONLY = """
import json, os, random, sys
from datetime import datetime
from pathlib import Path
from companion.games.eventlog import load_log
from companion.games.session import ResumeError, Session
from companion.games.table import PLAYED

entry = PLAYED[sys.argv[1]]
events = entry.random_game(entry.players[0], random.Random(3))
load_log(sys.argv[2], entry.rules.log)  # the package files read while they can be (a clone may be private)
if os.getuid() == 0:  # root writes anywhere: the rest runs as nobody, whose writes fail as a user's would
    os.setgid(65534)
    os.setuid(65534)
said = {}
try:
    Session.resume(entry.rules, Path(sys.argv[2]))
except ResumeError as exc:
    said["resume"] = str(exc)
try:
    Session.create(entry.rules, Path(sys.argv[3]), events[0], datetime(2026, 11, 26))
except OSError as exc:
    said["create"] = type(exc).__name__
print(json.dumps(said))
"""


@pytest.mark.parametrize("game", list(PLAYED))
def test_a_read_only_log_or_folder_is_said_in_one_line(game: str) -> None:
    """A saved game whose log cannot be written is not continued (one line naming it); a new game in a
    folder that cannot be written is refused (the start screen says the error)."""
    entry = PLAYED[game]
    assert entry.rules is not None
    with tempfile.TemporaryDirectory() as where:  # outside pytest's private folders, which nobody can enter
        tmp_path = Path(where)
        tmp_path.chmod(0o755)
        path, _ = cut_log(entry, tmp_path, 10, b"")
        path.chmod(0o444)
        folder = tmp_path / "games"
        folder.mkdir(mode=0o555)
        run = subprocess.run(
            [sys.executable, "-c", textwrap.dedent(READ_ONLY), game, str(path), str(folder)],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert run.returncode == 0, run.stderr
        said = json.loads(run.stdout)
        assert said["resume"].startswith(f"{path}: cannot be written") and "\n" not in said["resume"]
        assert said["create"] == "PermissionError"
        assert path.read_bytes() == log_text(a_game(entry, seed=3)[:10], entry.rules.log.encode).encode()


def test_a_crafted_first_line_is_named_in_the_list_and_in_history(tmp_path: Path) -> None:
    """The game a log is of is read from its first line through the checked reader: a line nested 90,000
    deep is one problem naming the file, not a RecursionError that stops the start screen."""
    (tmp_path / "deep.jsonl").write_bytes(b"[" * 90_000 + b"\n")
    [listed] = saved_games(tmp_path)
    assert listed.summary is None and listed.problem.startswith(f"{tmp_path / 'deep.jsonl'}: line 1")
    assert history(tmp_path).problems[0].startswith(f"{tmp_path / 'deep.jsonl'}: line 1")
