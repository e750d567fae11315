"""`companion history` and `companion stats`: finished games read back from the logs the app wrote."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from rich.cells import cell_len

from companion.games import alhambra as al
from companion.games import alhambra_dice as ad
from companion.games import alhambra_rw as rw
from companion.games import carcassonne_dice as cd
from companion.games.alhambra_dice.events import ALCAZABA
from companion.games.alhambra_dice.scorefile import log_text as alhambra_dice_log
from companion.games.alhambra_dice.scorefile import score_finished
from companion.games.alhambra_dice.simulate import play_random_game as play_random_alhambra_dice
from companion.games.alhambra_rw.log import write_log
from companion.games.alhambra_rw.simulate import play_random_game
from companion.games.carcassonne_dice.scorefile import log_text
from companion.games.carcassonne_dice.simulate import play_random_game as play_random_carcassonne
from companion.games.table import GAMES
from companion.history import history, player_stats
from companion.saved_games import saved_games

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
    assert text.count("  Alhambra Roll & Write  ") == len(games), "named by its title, not its files' id"


def test_stats_count_each_real_players_games_and_wins(games: dict[str, list[rw.Event]]) -> None:
    boards = [rw.score_game(rw.replay(events)) for events in games.values()]
    listed = json.loads(run("stats", "--json").stdout)
    assert {s["game"] for s in listed} == {"alhambra-roll-and-write"}
    stats = {s["name"]: s for s in listed}
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


def carcassonne_games(folder: Path) -> list[cd.GameScore]:
    """Two finished Carcassonne dice games and one cut short, written as the app writes logs."""
    boards = []
    for seed in (1, 2):
        game, events = play_random_carcassonne(cd.GameStarted(("Ann", "Eve")), random.Random(seed))
        (folder / f"carcassonne-{seed}.jsonl").write_text(log_text(events))
        boards.append(cd.score_game(game.state))
    (folder / "carcassonne-playing.jsonl").write_text(log_text(events[:9]))
    return boards


def test_every_games_finished_logs_are_history_and_stats_per_game(
    games: dict[str, list[rw.Event]], tmp_path: Path
) -> None:
    boards = carcassonne_games(tmp_path / "table-companion" / "games")
    listed = [g for g in json.loads(run("history", "--json").stdout) if g["game"] == "carcassonne-dice"]
    assert len(listed) == 2, "the Carcassonne game still being played is not history"
    by_log = {Path(g["log"]).name: g for g in listed}
    for seed, board in zip((1, 2), boards, strict=True):
        game = by_log[f"carcassonne-{seed}.jsonl"]
        assert game["winners"] == [board.winner]
        assert [(p["name"], p["total"]) for p in game["players"]] == [
            (p.name, p.total) for p in board.players
        ]
        assert all(sum(p["vp"].values()) == p["total"] for p in game["players"])
    stats = [s for s in json.loads(run("stats", "--json").stdout) if s["game"] == "carcassonne-dice"]
    assert {s["name"]: s["games"] for s in stats} == {"Ann": 2, "Eve": 2}
    assert sum(s["wins"] for s in stats) == 2
    assert {s["name"] for s in stats}.isdisjoint({"Cleo", "Dora"}), "stats are kept per game"
    text = run("stats").stdout
    assert "Carcassonne – the dice game\n" in text and "carcassonne-dice" not in text, "named by its title"
    # Carcassonne's pad counts points, the Alhambra games VP: its columns were "VP cities".
    assert "points cities" in text and "points knight doubling" in text and "VP cities" not in text
    assert "VP rows columns" in text
    assert "where the points came from" in " ".join(run("stats", "--help").stdout.split())


def test_a_games_progress_ends_at_its_totals(tmp_path: Path) -> None:
    boards = carcassonne_games(tmp_path)
    found = {g.path.name: g for g in history(tmp_path).games}
    for seed, board in zip((1, 2), boards, strict=True):
        progress = found[f"carcassonne-{seed}.jsonl"].progress()
        assert progress.names == ("Ann", "Eve") and progress.totals[0] == (0, 0)
        assert progress.totals[-1] == tuple(p.total for p in board.players)
        assert all(
            a <= b
            for before, after in zip(progress.totals, progress.totals[1:], strict=False)
            for a, b in zip(before, after, strict=True)
        )


def test_an_alhambra_dice_game_with_dirk_is_history_and_dirk_has_no_stats(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    tmp_path /= "table-companion/games"
    tmp_path.mkdir(parents=True)
    _, events = play_random_alhambra_dice(ad.GameStarted(("Ann", "Ben")), random.Random(3))
    (tmp_path / "dice.jsonl").write_text(alhambra_dice_log(events))
    (tmp_path / "dice-playing.jsonl").write_text(alhambra_dice_log(events[: len(events) // 2]))
    board = ad.score_log(events)
    (found,) = history(tmp_path).games
    assert found.game == "alhambra-dice" and found.winners == board.winners
    assert [(r.name, r.imaginary, r.total) for r in found.results] == [
        (name, dirk, total) for name, dirk, total in zip(board.names, board.dirk, board.totals, strict=True)
    ]
    assert all(sum(r.vp) == r.total for r in found.results)
    progress = found.progress()
    assert progress.names == ("Ann", "Ben") and len(progress.totals) == 4
    assert progress.totals[-1] == board.totals[:2]
    assert {s.name for s in player_stats([found])} == {"Ann", "Ben"}
    header = run("stats").stdout.splitlines()[1].split()
    assert header[-4:] == ["VP", "buildings", "VP", "tiles"], "not 'VP vp tiles'"


def test_stats_columns_are_as_wide_as_the_longest_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The name column was 16 wide: a 40-character name pushed its row's numbers right. A wide character
    (CJK, emoji) takes 2 columns on screen."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    folder = tmp_path / "table-companion" / "games"
    folder.mkdir(parents=True)
    players = ("A" * 40, "日本語", "Eve 🎲")
    _, events = play_random_carcassonne(cd.GameStarted(players), random.Random(1))
    (folder / "long.jsonl").write_text(log_text(events))
    table = run("stats").stdout.splitlines()[1:5]
    assert {cell_len(line) for line in table} == {cell_len(table[0])}, table
    assert {line.split("  ")[0] for line in table[1:]} == set(players), table


def test_a_log_of_an_unknown_game_is_said_so(tmp_path: Path) -> None:
    """It was reported as `unknown field 'game'`: the field is fine, its value is not. `companion score`
    says `unknown game 'nope'`; history, stats and the start screen now say the same."""
    log = tmp_path / "unknowngame.jsonl"
    log.write_text('{"event": "game_started", "game": "nope", "players": ["Ann", "Ben"]}\n')
    (problem,) = history(tmp_path).problems
    assert problem == f"{log}: game: unknown game 'nope' (known: {', '.join(GAMES)})"
    (saved,) = saved_games(tmp_path)
    assert saved.summary is None and saved.problem == problem


def test_a_finished_alcazaba_game_is_history_scored_as_the_original_alhambra(tmp_path: Path) -> None:
    """The Alcazaba variant's finished games were left out of F4, history and stats ("scored by the engine's
    result(), not here yet"), though `companion score` scored them."""
    setup = ad.GameStarted(("Ann", "Ben"), ALCAZABA)
    events = play_random_alhambra_dice(setup, random.Random(4))[1]
    (tmp_path / "alcazaba.jsonl").write_text(alhambra_dice_log(events), encoding="utf-8")
    result = score_finished(events)
    found = history(tmp_path)
    assert not found.problems, found.problems
    (game,) = found.games
    assert [(r.name, r.total) for r in game.results] == [(p.name, p.total) for p in result.players]
    assert game.winners == result.winners
    progress = game.progress()
    assert progress.names == ("Ann", "Ben") and progress.totals[0] == (0, 0) and len(progress.totals) == 4
    assert progress.totals[-1] == tuple(p.total for p in result.players if not p.dirk)


@pytest.mark.parametrize("count", [1, ""])
def test_a_pad_being_typed_in_its_third_scoring_is_no_problem_for_history(
    tmp_path: Path, count: object
) -> None:
    """ctrl+n copies scoring 2 into scoring 3 (Dirk's copied counts under what the rule deals him until
    retyped), and a count being retyped is saved as typed: such a pad is being played, not a file history
    leaves out as broken (a change of the nineteenth session said so of both)."""
    pad = json.loads((Path(al.__file__).parent / "examples" / "two-players-and-dirk.json").read_text())
    pad["players"][2]["scorings"][2]["buildings"]["seraglio"] = count
    folder = tmp_path / "games"
    folder.mkdir()
    (folder / "alhambra-20261202-190000.pad.json").write_text(json.dumps(pad))
    found = history(folder)
    assert found.games == () and found.problems == ()
