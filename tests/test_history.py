"""`companion history` and `companion stats`: finished games read back from the logs the app wrote."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from companion.games import alhambra_rw as rw
from companion.games.alhambra_rw.log import write_log
from companion.games.alhambra_rw.simulate import play_random_game

COMPANION = str(Path(sys.executable).parent / "companion")
TABLES = (
    (1, ("Ann", "Ben", "Cleo"), ()),
    (2, ("Ann", "Ben"), ("Dirk",)),
    (3, ("Cleo",), ("Marc", "Nora")),
    (4, ("Ben", "Cleo", "Ann", "Dora"), ()),
)


@pytest.fixture
def games(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, list[rw.Event]]:
    """Four finished games, one still being played and one damaged log, in the user's games folder."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    folder = tmp_path / "table-companion" / "games"
    folder.mkdir(parents=True)
    logs = {}
    for seed, players, imaginary in TABLES:
        setup = rw.GameStarted(rw.load_shipped_sheet("example"), players, imaginary)
        logs[f"game-{seed}.jsonl"] = play_random_game(setup, random.Random(seed))[1]
    for name, events in logs.items():
        write_log(folder / name, events)
    unfinished = logs["game-1.jsonl"][:40]
    write_log(folder / "playing.jsonl", unfinished)
    (folder / "damaged.jsonl").write_text('{"event": "game_started", "sheet": 7}\n')
    return logs


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([COMPANION, *args], capture_output=True, text=True, timeout=60)


def test_history_lists_each_finished_game_with_its_players_totals_and_winners(
    games: dict[str, list[rw.Event]],
) -> None:
    result = run("history", "--json")
    assert result.returncode == 0
    listed = {Path(g["log"]).name: g for g in json.loads(result.stdout)}
    assert set(listed) == set(games), "the game still being played and the damaged log are not history"
    for name, events in games.items():
        board = rw.score_game(rw.replay(events))
        game = listed[name]
        assert game["game"] == "alhambra-roll-and-write" and game["winners"] == list(board.winners)
        assert [(p["name"], p["total"]) for p in game["players"]] == [
            (p.name, p.total) for p in board.players
        ]
        assert all(sum(p["vp"].values()) == p["total"] for p in game["players"])
    assert "damaged.jsonl" in result.stderr and "Traceback" not in result.stderr
    text = run("history").stdout
    assert text.count("won by") == len(games) and "Dirk (imaginary)" in text


def test_stats_count_each_real_players_games_and_wins(games: dict[str, list[rw.Event]]) -> None:
    boards = [rw.score_game(rw.replay(events)) for events in games.values()]
    stats = {s["name"]: s for s in json.loads(run("stats", "--json").stdout)}
    assert set(stats) == {"Ann", "Ben", "Cleo", "Dora"}, "imaginary players have no statistics"
    for name, s in stats.items():
        totals = [p.total for b in boards for p in b.players if p.name == name]
        assert s["games"] == len(totals) and s["best_total"] == max(totals)
        assert s["wins"] == sum(name in b.winners for b in boards)
        assert s["average_total"] == pytest.approx(sum(totals) / len(totals), abs=0.05)
        assert sum(s["average_vp"].values()) == pytest.approx(s["average_total"], abs=0.3)
    wins = [s["wins"] for s in stats.values()]
    assert wins == sorted(wins, reverse=True)
    assert "Dora" in run("stats").stdout


def test_no_games_yet_is_said_plainly(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    for command in ("history", "stats"):
        result = run(command)
        assert result.returncode == 0 and result.stdout.startswith("no finished games yet")
        assert json.loads(run(command, "--json").stdout) == []
