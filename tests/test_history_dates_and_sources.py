"""History's dates the night clocks go back, where an Alcazaba game's points came from, and an Alcazaba log
the rules refuse."""

from __future__ import annotations

import json
import os
import random
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from companion.app.screens.history import game_label
from companion.games import alhambra_dice as ad
from companion.games import carcassonne_dice as cd
from companion.games.alhambra.scoring import Result as AlhambraResult
from companion.games.alhambra_dice.events import ALCAZABA
from companion.games.alhambra_dice.scorefile import log_text as alhambra_dice_log
from companion.games.alhambra_dice.scorefile import score_finished
from companion.games.alhambra_dice.simulate import play_random_game as play_alhambra_dice
from companion.games.carcassonne_dice.scorefile import log_text as carcassonne_log
from companion.games.carcassonne_dice.simulate import play_random_game as play_carcassonne
from companion.history import history, player_stats
from companion.log_index import INDEX_NAME
from companion.saved_games import saved_games

COMPANION = str(Path(sys.executable).parent / "companion")
NEW_YORK = "America/New_York"


@pytest.fixture
def new_york(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("TZ", NEW_YORK)
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def companion(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([COMPANION, *args], capture_output=True, text=True, timeout=60, env=env)


def written_at(path: Path, utc: str) -> None:
    stamp = datetime.fromisoformat(utc).replace(tzinfo=UTC).timestamp()
    os.utime(path, (stamp, stamp))


def test_the_night_clocks_go_back_the_later_game_is_listed_first(tmp_path: Path, new_york: None) -> None:
    """Game A was written at 01:50 EDT, game B 40 minutes later at 01:10 EST: naive local times listed A
    first, and `history --json` said "01:10:00", which that night is twice."""
    folder = tmp_path / "table-companion" / "games"
    folder.mkdir(parents=True)
    events = play_carcassonne(cd.GameStarted(("Ann", "Ben")), random.Random(1))[1]
    earlier, later = folder / "a.jsonl", folder / "b.jsonl"
    for path, utc in ((earlier, "2026-11-01T05:50:00"), (later, "2026-11-01T06:10:00")):
        path.write_text(carcassonne_log(events), encoding="utf-8")
        written_at(path, utc)
    found = history(folder)
    assert [g.path for g in found.games] == [later, earlier]
    assert [s.path for s in saved_games(folder)] == [later, earlier]
    assert game_label(found.games[0]).startswith("2026-11-01 01:10 · "), "the screens print the local time"
    assert {s.games for s in player_stats(found.games)} == {2}
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path)}
    listed = companion(env, "history", "--json")
    assert [g["played"] for g in json.loads(listed.stdout)] == [
        "2026-11-01T01:10:00-05:00",
        "2026-11-01T01:50:00-04:00",
    ]
    text = companion(env, "history")
    assert [line[:16] for line in text.stdout.splitlines()] == ["2026-11-01 01:10", "2026-11-01 01:50"]


def alcazaba_and_standard(folder: Path) -> tuple[list[ad.Event], list[ad.Event]]:
    """A finished Alcazaba game and a finished standard game of the same players, logged in `folder`."""
    alcazaba = play_alhambra_dice(ad.GameStarted(("Ann", "Ben"), ALCAZABA), random.Random(4))[1]
    standard = play_alhambra_dice(ad.GameStarted(("Ann", "Ben")), random.Random(4))[1]
    (folder / "alcazaba.jsonl").write_text(alhambra_dice_log(alcazaba), encoding="utf-8")
    (folder / "standard.jsonl").write_text(alhambra_dice_log(standard), encoding="utf-8")
    return alcazaba, standard


def walls(events: list[ad.Event]) -> dict[str, int]:
    result = score_finished(events)
    assert isinstance(result, AlhambraResult)
    return {p.name: sum(s.wall_vp for s in p.scorings) for p in result.players}


def test_an_alcazaba_games_points_are_its_buildings_and_walls(tmp_path: Path) -> None:
    """Its whole total was counted as buildings, with no VP tiles: stats' "VP buildings" held the walls and
    "VP tiles" averaged in the Alcazaba games' zeros."""
    alcazaba, _ = alcazaba_and_standard(tmp_path)
    found = history(tmp_path)
    assert not found.problems, found.problems
    played = {g.path.name: g.to_json() for g in found.games}
    wall_vp = walls(alcazaba)
    for player in played["alcazaba.jsonl"]["players"]:
        assert list(player["vp"]) == ["buildings", "walls"]
        assert (
            player["vp"]["walls"] == wall_vp[player["name"]] and sum(player["vp"].values()) == player["total"]
        )
    assert all(list(p["vp"]) == ["buildings", "vp_tiles"] for p in played["standard.jsonl"]["players"])
    for stats in player_stats(found.games):
        vp = {g: next(p["vp"] for p in played[g]["players"] if p["name"] == stats.name) for g in played}
        assert stats.to_json()["average_vp"] == {
            "buildings": (vp["alcazaba.jsonl"]["buildings"] + vp["standard.jsonl"]["buildings"]) / 2,
            "vp_tiles": vp["standard.jsonl"]["vp_tiles"],
            "walls": vp["alcazaba.jsonl"]["walls"],
        }


def test_stats_of_alcazaba_games_alone_are_printed(tmp_path: Path) -> None:
    """A player of Alcazaba games only has no VP tiles to average: `stats` still prints the table."""
    folder = tmp_path / "table-companion" / "games"
    folder.mkdir(parents=True)
    alcazaba_and_standard(folder)
    (folder / "standard.jsonl").unlink()
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path)}
    for args in ((), ("--json",)):
        shown = companion(env, "stats", *args)
        assert shown.returncode == 0 and "Traceback" not in shown.stderr, shown.stderr
        if not args:
            # Its own columns: no VP tiles column of "nan", the walls shown.
            header = next(line for line in shown.stdout.splitlines() if line.startswith("player"))
            assert header.split()[-4:] == ["VP", "buildings", "VP", "walls"] and "nan" not in shown.stdout
    assert {s["name"]: list(s["average_vp"]) for s in json.loads(shown.stdout)} == {
        "Ann": ["buildings", "walls"],
        "Ben": ["buildings", "walls"],
    }


def test_an_index_written_before_the_split_is_read_again(tmp_path: Path) -> None:
    """An index kept the Alcazaba game's whole total as buildings, without sources: it is not trusted."""
    alcazaba, _ = alcazaba_and_standard(tmp_path)
    history(tmp_path)
    with sqlite3.connect(tmp_path / INDEX_NAME) as db:
        for log, value in db.execute("select log, value from readbacks where kind = 'history'").fetchall():
            old = json.loads(value)
            del old["sources"]
            old["results"] = [[name, dirk, total, [total, 0]] for name, dirk, total, _ in old["results"]]
            db.execute("update readbacks set value = ? where log = ?", (json.dumps(old), log))
        db.execute("pragma user_version = 3")
    played = {g.path.name: g for g in history(tmp_path).games}
    assert played["alcazaba.jsonl"].sources == ("buildings", "walls")
    assert [r.vp[1] for r in played["alcazaba.jsonl"].results] == list(walls(alcazaba).values())


def test_an_alcazaba_log_the_rules_refuse_is_named_with_why(tmp_path: Path) -> None:
    """It was left out of history and stats without a word, as if still being played; the standard game's
    says which event and why."""
    alcazaba, _ = alcazaba_and_standard(tmp_path)
    lines = alhambra_dice_log(alcazaba).splitlines(keepends=True)
    third = json.loads(lines[2])
    assert third["event"] == "rolled" and third["player"] == "Ann"
    lines[2] = json.dumps({**third, "player": "Ben"}) + "\n"
    broken = tmp_path / "broken.jsonl"
    broken.write_text("".join(lines), encoding="utf-8")
    (tmp_path / "playing.jsonl").write_text(
        alhambra_dice_log(alcazaba[: len(alcazaba) // 2]), encoding="utf-8"
    )
    found = history(tmp_path)
    assert found.problems == (f"{broken}: event 3: it is Ann's turn, not Ben's",)
    assert sorted(g.path.name for g in found.games) == ["alcazaba.jsonl", "standard.jsonl"], (
        "the game still being played is no problem and no history"
    )
