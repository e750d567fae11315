"""`companion rename FILE OLD NEW`, run as the installed command on a saved game of every kind: the game
scores the same with the name changed, and history and statistics count the two names as one player; every
refusal is one line naming the file, and leaves it as it was."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from companion.games import alhambra_dice as ad
from companion.games import alhambra_rw as rw
from companion.games import carcassonne_dice as cd
from companion.games.alhambra_dice.simulate import play_random_game as play_alhambra_dice
from companion.games.alhambra_rw.simulate import play_random_game as play_roll_and_write
from companion.games.carcassonne_dice.simulate import play_random_game as play_carcassonne
from companion.games.eventlog import load_log, write_log
from companion.games.held import open_held
from companion.games.table import GAMES

BIN = Path(sys.executable).parent
PAD = Path(__file__).parents[2] / "companion/games/alhambra/examples/two-players-and-dirk.json"


def companion(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(BIN / "companion"), *map(str, args)], capture_output=True, text=True, timeout=120
    )


def roll_and_write(players: tuple[str, ...], seed: int) -> list[Any]:
    setup = rw.GameStarted(rw.load_shipped_sheet("example"), players)
    return play_roll_and_write(setup, random.Random(seed))[1]


def alhambra_dice(players: tuple[str, ...], seed: int, variant: str = "standard") -> list[Any]:
    return play_alhambra_dice(ad.GameStarted(players, variant), random.Random(seed))[1]


def carcassonne(players: tuple[str, ...], seed: int) -> list[Any]:
    return play_carcassonne(cd.GameStarted(players), random.Random(seed))[1]


LOGS: dict[str, tuple[str, Callable[[tuple[str, ...], int], list[Any]]]] = {
    "roll-and-write": ("alhambra-roll-and-write", roll_and_write),
    "alhambra-dice": ("alhambra-dice", alhambra_dice),
    "alcazaba": ("alhambra-dice", lambda players, seed: alhambra_dice(players, seed, "alcazaba")),
    "carcassonne-dice": ("carcassonne-dice", carcassonne),
}
"""Each kind of game log: its game, and a whole game of it for these players."""


def saved_log(folder: Path, name: str, game: str, events: list[Any]) -> Path:
    rules = GAMES[game].rules
    assert rules is not None
    folder.mkdir(parents=True, exist_ok=True)
    write_log(folder / name, events, rules.log.encode)
    return folder / name


def saved_pad(folder: Path, name: str, first: str) -> Path:
    """The shipped pad (Ann, Ben and Dirk), Ann named `first`; Ben is Cleo beside a Bne."""
    pad = json.loads(PAD.read_text(encoding="utf-8"))
    names = {"Ann": first, "Ben": "Cleo"} if first == "Bne" else {}
    for player in pad["players"]:
        player["name"] = names.get(player["name"], player["name"])
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(json.dumps(pad, indent=1) + "\n", encoding="utf-8")
    return folder / name


def games_folder(home: Path) -> Path:
    return home / "data" / "table-companion" / "games"


def saved_games(folder: Path) -> dict[str, Path]:
    """A finished game of each kind with Bne among its players, and one with Ben (two Alhambra dice games of
    two players, with Dirk); the Bne games by kind."""
    bne = {}
    for n, (kind, (game, play)) in enumerate(LOGS.items()):
        bne[kind] = saved_log(
            folder, f"2026112{n}-201500-bne-ann.jsonl", game, play(("Bne", "Ann", "Cleo"), n)
        )
        saved_log(folder, f"2026112{n}-211500-ben-ann.jsonl", game, play(("Ben", "Ann", "Cleo"), n + 10))
    bne["dirk"] = saved_log(
        folder, "20261125-201500-bne-ann.jsonl", "alhambra-dice", alhambra_dice(("Bne", "Ann"), 5)
    )
    saved_log(folder, "20261125-211500-ben-ann.jsonl", "alhambra-dice", alhambra_dice(("Ben", "Ann"), 15))
    bne["pad"] = saved_pad(folder, "alhambra-20261126-201500.pad.json", "Bne")
    saved_pad(folder, "alhambra-20261126-211500.pad.json", "Ann")
    return bne


def stats(name: str) -> dict[str, int]:
    """`companion stats --json`: the games counted for `name`, by game."""
    result = companion("stats", "--json")
    assert result.returncode == 0 and not result.stderr, result.stderr
    return {s["game"]: s["games"] for s in json.loads(result.stdout) if s["name"] == name}


def test_renamed_in_every_kind_of_game_scores_the_same_and_counts_as_one_player(home: Path) -> None:
    folder = games_folder(home)
    bne = saved_games(folder)
    before = {"Bne": stats("Bne"), "Ben": stats("Ben")}  # the history's index now holds every game
    assert set(before["Bne"]) == set(before["Ben"]) == {"alhambra-roll-and-write", "alhambra-dice",
                                                         "carcassonne-dice", "alhambra"}  # fmt: skip
    for kind, path in bne.items():
        scored = companion("score", path, "--json")
        assert scored.returncode == 0, scored.stderr
        renamed = companion("rename", path, "Bne", "Ben")
        assert renamed.returncode == 0 and not renamed.stderr, (kind, renamed.stderr)
        unit = "place" if kind == "pad" else "events"
        assert renamed.stdout.startswith(f"renamed Bne to Ben in {path}: ") and unit in renamed.stdout, kind
        after = companion("score", path, "--json")
        assert json.loads(after.stdout) == json.loads(scored.stdout.replace("Bne", "Ben")), kind
        assert "Bne" not in path.read_text(encoding="utf-8") and path.exists(), kind
    # Every Bne game is now one of Ben's; the index noticed each file change.
    assert stats("Bne") == {}
    assert stats("Ben") == {game: before["Ben"][game] + before["Bne"][game] for game in before["Ben"]}


def test_a_log_keeps_one_event_a_line_and_its_untouched_lines_as_they_were(home: Path) -> None:
    path = saved_log(games_folder(home), "20261129-201500-bne-ann.jsonl", "carcassonne-dice",
                     carcassonne(("Bne", "Ann"), 3))  # fmt: skip
    lines = path.read_bytes().splitlines(keepends=True)
    result = companion("rename", path, "Bne", "Ben")
    renamed = path.read_bytes().splitlines(keepends=True)
    changed = [n for n, (was, now) in enumerate(zip(lines, renamed, strict=True)) if was != now]
    assert changed == [n for n, line in enumerate(lines) if b'"Bne"' in line]
    assert result.stdout == f"renamed Bne to Ben in {path}: {len(changed)} events\n"
    assert all(line.replace(b'"Bne"', b'"Ben"') == now for line, now in zip(lines, renamed, strict=True))


def test_the_stale_export_is_removed_and_the_frames_kept(home: Path) -> None:
    path = saved_log(games_folder(home), "20261129-201500-bne-ann.jsonl", "carcassonne-dice",
                     carcassonne(("Bne", "Ann"), 3))  # fmt: skip
    stem = path.with_suffix("")
    # .score.txt: the original Alhambra's pad exported so until 2026-11-27, left stale.
    for export in (".score.md", ".score.json", ".score.txt"):
        stem.with_name(stem.name + export).write_text("Winner: Bne\n", encoding="utf-8")
    frames = stem.with_name(stem.name + ".frames")
    frames.mkdir()
    (frames / "0001.jpg").write_bytes(b"jpeg")
    result = companion("rename", path, "Bne", "Ben")
    assert result.returncode == 0, result.stderr
    exported = ", ".join(f"20261129-201500-bne-ann.score.{kind}" for kind in ("md", "json"))
    exported += " and 20261129-201500-bne-ann.score.txt"
    assert result.stdout.endswith(f"; its exported scoring ({exported}) removed: it names Bne\n")
    assert not any(stem.with_name(stem.name + export).exists() for export in (".score.md", ".score.txt"))
    assert (frames / "0001.jpg").exists()


def test_a_last_line_cut_off_is_set_aside_and_the_whole_events_renamed(home: Path) -> None:
    events = roll_and_write(("Bne", "Ann", "Cleo"), 1)[:30]
    path = saved_log(games_folder(home), "20261129-201500-bne-ann.jsonl", "alhambra-roll-and-write", events)
    torn = '{"event":"roll","player":"Bne","yel'
    with path.open("a", encoding="utf-8") as log:
        log.write(torn)
    result = companion("rename", path, "Bne", "Ben")
    assert result.returncode == 0, result.stderr
    assert f"; line 31, cut off by a crash, set aside into {path.name}.cut" in result.stdout
    assert path.with_name(path.name + ".cut").read_text(encoding="utf-8") == torn + "\n"
    rules = GAMES["alhambra-roll-and-write"].rules
    assert rules is not None
    loaded = load_log(path, rules.log)
    assert loaded.cut_line is None and len(loaded.events) == 30
    assert loaded.events[0].players == ("Ben", "Ann", "Cleo")


REFUSED = {
    "no such player": ("roll-and-write", "Bob", "Ben", "no player named Bob in this game (its players: Bne,"),
    "another player's name": ("alhambra-dice", "Bne", "Ann", "player names must differ"),
    "in another case": ("carcassonne-dice", "Bne", "ann", "ann and Ann differ only in case or spacing"),
    "a roll": ("carcassonne-dice", "Bne", "5 3 1", "'5 3 1' looks like a roll"),
    "control character": ("roll-and-write", "Bne", "B\x1bn", "B\\x1bn: a player name cannot hold control"),
    "too long": ("alhambra-dice", "Bne", "Ben " * 11, "a player name must be 1 to 40 characters"),
    "the same": ("roll-and-write", "Bne", "Bne", "Bne is already the player's name"),
    "imaginary Dirk": ("dirk", "Dirk", "Dora", "Dirk is an imaginary player, played by the app: not renamed"),
    "as imaginary Dirk": ("dirk", "Bne", "dirk", "dirk and Dirk differ only in case or spacing"),
    "an imaginary player": ("solo", "Marc", "Mark", "Marc is an imaginary player"),
    "already in the file": ("roll-and-write", "Bne", "standard", "already holds standard where no player"),
    "a pad's Dirk": ("pad", "Dirk", "Dora", "Dirk is an imaginary player"),
    "a pad's other player": ("pad", "Bne", "cleo", "cleo and Cleo differ only in case or spacing"),
    # A player named as the sheet or the variant is: refused, as that field is no name to rename.
    "the sheet's name": ("roll-and-write/example", "example", "Ben", "is also written where no player"),
    "the variant's name": ("roll-and-write/standard", "standard", "Ben", "variant: must be one of standard"),
}  # fmt: skip
"""Each refusal: the game (`/NAME`: the first player named NAME, not Bne), OLD, NEW and what is said."""


def refused_game(folder: Path, kind: str) -> Path:
    name = "20261129-201500-bne-ann.jsonl"
    if kind == "pad":
        return saved_pad(folder, "alhambra-20261129-201500.pad.json", "Bne")
    if kind == "dirk":
        return saved_log(folder, name, "alhambra-dice", alhambra_dice(("Bne", "Ann"), 1))
    if kind == "solo":
        setup = rw.GameStarted(rw.load_shipped_sheet("example"), ("Bne",), ("Marc", "Nora"))
        return saved_log(
            folder, name, "alhambra-roll-and-write", play_roll_and_write(setup, random.Random(1))[1]
        )
    kind, _, first = kind.partition("/")
    game, play = LOGS[kind]
    return saved_log(folder, name, game, play((first or "Bne", "Ann", "Cleo"), 1))


def one_line_refusal(result: subprocess.CompletedProcess[str], path: Path, said: str) -> None:
    assert result.returncode == 2 and not result.stdout, result.stderr
    assert "Traceback" not in result.stderr and len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert result.stderr.startswith(f"companion rename: {path}: "), result.stderr
    assert said in result.stderr, result.stderr


@pytest.mark.parametrize("case", REFUSED)
def test_refused_in_one_line_naming_the_file_which_is_left_as_it_was(home: Path, case: str) -> None:
    kind, old, new, said = REFUSED[case]
    path = refused_game(games_folder(home), kind)
    was = path.read_bytes()
    one_line_refusal(companion("rename", path, old, new), path, said)
    assert path.read_bytes() == was
    assert sorted(p.name for p in path.parent.iterdir()) == [path.name]


def test_a_game_open_in_the_app_is_not_renamed(home: Path) -> None:
    path = refused_game(games_folder(home), "carcassonne-dice")
    with open_held(path):
        result = companion("rename", path, "Bne", "Ben")
    one_line_refusal(result, path, "open in another window of the companion: quit it there (ctrl+q) first")
    assert "Bne" in path.read_text(encoding="utf-8")


def test_a_file_that_is_no_saved_game_is_refused(home: Path, tmp_path: Path) -> None:
    missing = tmp_path / "nothing.jsonl"
    one_line_refusal(companion("rename", missing, "Bne", "Ben"), missing, "")
    torn = refused_game(games_folder(home), "carcassonne-dice")
    with torn.open("a", encoding="utf-8") as log:
        log.write('{"event":"who knows"}\n')  # a whole last line that is no event: not a cut-off write
    one_line_refusal(companion("rename", torn, "Bne", "Ben"), torn, "unknown kind 'who knows'")
