"""History and stats over games copied from another computer, players whose names are written in other
cases or Unicode forms, and logs whose names the locale cannot decode."""

from __future__ import annotations

import json
import os
import random
import sqlite3
import subprocess
import sys
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

from companion.app.screens.new_game_form import names_clash
from companion.games import carcassonne_dice as cd
from companion.games.carcassonne_dice.scorefile import log_text
from companion.games.carcassonne_dice.simulate import play_random_game
from companion.log_index import INDEX_NAME
from companion.saved_games import saved_games

COMPANION = str(Path(sys.executable).parent / "companion")
BERLIN = ZoneInfo("Europe/Berlin")


def finished(path: Path, names: tuple[str, ...], written: datetime, seed: int = 1, events: int = 0) -> None:
    """A finished Carcassonne dice game of `names` at `path` (its first `events` only: one still played),
    last written at `written`."""
    path.parent.mkdir(parents=True, exist_ok=True)
    played = play_random_game(cd.GameStarted(names), random.Random(seed))[1]
    path.write_text(log_text(played[: events or None]), encoding="utf-8")
    os.utime(path, (written.timestamp(), written.timestamp()))


def companion(home: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    outer = {k: v for k, v in os.environ.items() if k != "PYTHONIOENCODING"}
    environment = {**outer, "XDG_DATA_HOME": str(home), **env}
    return subprocess.run(
        [COMPANION, *args], capture_output=True, text=True, encoding="utf-8", env=environment, timeout=120
    )


def test_a_game_copied_to_another_computer_keeps_the_date_it_was_played(tmp_path: Path) -> None:
    """A plain `cp` of the games folder wrote every log anew: history dated every game the day of the copy,
    in the order the copy made them. History dates a game by the start its log's name holds."""
    folder = tmp_path / "table-companion" / "games"
    copied = datetime(2026, 6, 1, 12, 0, tzinfo=BERLIN)
    finished(folder / "20250105-193000-ann-ben.jsonl", ("Ann", "Ben"), copied)
    finished(folder / "20250212-201500-ann-ben.jsonl", ("Ann", "Ben"), copied.replace(minute=0, hour=11))
    finished(
        folder / "20250301-190000-ann-ben.jsonl", ("Ann", "Ben"), datetime(2025, 3, 1, 21, 10, tzinfo=BERLIN)
    )
    listed = companion(tmp_path, "history", "--json", TZ="Europe/Berlin")
    assert listed.returncode == 0, listed.stderr
    assert [game["played"] for game in json.loads(listed.stdout)] == [
        "2025-03-01T19:00:00+01:00",
        "2025-02-12T20:15:00+01:00",
        "2025-01-05T19:30:00+01:00",
    ]


def test_a_game_left_for_weeks_is_dated_by_its_start_and_listed_first_to_continue(tmp_path: Path) -> None:
    """A game begun on 1 March and played on on 20 March (a week and more later) was dated 1 March but also
    listed below games played since, on the start screen too: history dates it by its start, the saved games
    to continue list it first, by its last move."""
    folder = tmp_path / "table-companion" / "games"
    finished(
        folder / "20250301-190000-ann-ben.jsonl", ("Ann", "Ben"), datetime(2025, 3, 20, 21, 0, tzinfo=BERLIN)
    )
    finished(
        folder / "20250310-190000-ann-ben.jsonl", ("Ann", "Ben"), datetime(2025, 3, 10, 22, 0, tzinfo=BERLIN)
    )
    listed = companion(tmp_path, "history", "--json", TZ="Europe/Berlin")
    assert [game["played"] for game in json.loads(listed.stdout)] == [
        "2025-03-10T19:00:00+01:00",
        "2025-03-01T19:00:00+01:00",
    ]
    # The start screen's finished games are dated so too; those still played are listed by their last move.
    assert [(g.path.name[:8], f"{g.played:%m-%d}") for g in saved_games(folder)] == [
        ("20250310", "03-10"),
        ("20250301", "03-01"),
    ]
    for game in folder.iterdir():
        game.unlink()
    for name, written in (
        ("20250301", datetime(2025, 3, 20, 21, 0)),
        ("20250310", datetime(2025, 3, 10, 22, 0)),
    ):
        finished(
            folder / f"{name}-190000-ann-ben.jsonl", ("Ann", "Ben"), written.replace(tzinfo=BERLIN), events=9
        )
    assert [(g.path.name[:8], f"{g.played:%m-%d}") for g in saved_games(folder)] == [
        ("20250301", "03-20"),
        ("20250310", "03-10"),
    ]


def test_stats_count_a_player_whatever_case_or_unicode_form_the_name_is_written_in(tmp_path: Path) -> None:
    """ZOË, zoë and Zoë were three players, and José written with é as one character and as e with a
    combining accent two: each is one player, named as the most recent game writes the name."""
    folder = tmp_path / "table-companion" / "games"
    decomposed = "Jose\u0301"
    finished(folder / "a.jsonl", ("ZOË", "José"), datetime(2025, 1, 5, 20, 0, tzinfo=BERLIN), seed=1)
    finished(folder / "b.jsonl", ("zoë", decomposed), datetime(2025, 1, 6, 20, 0, tzinfo=BERLIN), seed=2)
    finished(folder / "c.jsonl", ("Ann", "Zoë"), datetime(2025, 1, 7, 20, 0, tzinfo=BERLIN), seed=3)
    shown = companion(tmp_path, "stats", "--json")
    assert shown.returncode == 0, shown.stderr
    stats = json.loads(shown.stdout)
    assert sorted((s["name"], s["games"]) for s in stats) == sorted([("Zoë", 3), (decomposed, 2), ("Ann", 1)])
    assert sum(s["wins"] for s in stats) >= 3, "every game's winners counted"


def test_a_name_typed_with_other_spacing_is_one_player_in_stats_and_at_the_form(tmp_path: Path) -> None:
    """ "Ida  Mae" (two spaces) and "Ida Mae" were two players in stats, and the form let them sit at one
    table, where "ann" and "Ann" are refused."""
    folder = tmp_path / "table-companion" / "games"
    finished(folder / "a.jsonl", ("Ida  Mae", "Ann"), datetime(2025, 1, 5, 20, 0, tzinfo=BERLIN), seed=1)
    finished(folder / "b.jsonl", ("Ida Mae", "Ann"), datetime(2025, 1, 6, 20, 0, tzinfo=BERLIN), seed=2)
    shown = companion(tmp_path, "stats", "--json")
    assert shown.returncode == 0, shown.stderr
    assert sorted((s["name"], s["games"]) for s in json.loads(shown.stdout)) == [("Ann", 2), ("Ida Mae", 2)]
    assert names_clash(["Ida  Mae", "ida mae"]) == (
        "player names must differ: Ida  Mae and ida mae differ only in case or spacing"
    )


def test_history_and_stats_read_a_log_whose_name_the_c_locale_cannot_decode(tmp_path: Path) -> None:
    """Under LC_ALL=C without Python's UTF-8 mode, `José.jsonl` (copied from elsewhere) is a name holding
    surrogates: writing it to the log index crashed history and stats. The index keeps it by its bytes."""
    folder = tmp_path / "table-companion" / "games"
    finished(folder / "José.jsonl", ("Ann", "Ben"), datetime(2025, 1, 5, 20, 0, tzinfo=BERLIN))
    c_locale = {"LC_ALL": "C", "PYTHONUTF8": "0"}
    for command in ("history", "stats", "history"):  # the second history from the index
        done = companion(tmp_path, command, **c_locale)
        assert done.returncode == 0, done.stderr
        assert "Ann" in done.stdout and not done.stderr, (command, done.stdout, done.stderr)
    with sqlite3.connect(folder / INDEX_NAME) as db:
        (log,) = [row[0] for row in db.execute("select log from readbacks")]
    assert log == os.fsencode(folder / "José.jsonl")


def test_an_alcazaba_game_is_named_with_its_variant_where_games_are_listed(tmp_path: Path) -> None:
    """An Alcazaba game and a standard one of the same players were listed alike, on the start screen and in
    history: a player could not tell which to continue."""
    from companion.app.screens.start import saved_game_label
    from companion.games import alhambra_dice as ad
    from companion.games.alhambra_dice.scorefile import log_text as alhambra_dice_log
    from companion.games.alhambra_dice.simulate import play_random_game as play_alhambra_dice

    folder = tmp_path / "table-companion" / "games"
    folder.mkdir(parents=True)
    for name, variant in (("standard.jsonl", "standard"), ("alcazaba.jsonl", "alcazaba")):
        events = play_alhambra_dice(ad.GameStarted(("Ann", "Ben", "Cleo"), variant), random.Random(1))[1]
        (folder / name).write_text(alhambra_dice_log(events), encoding="utf-8")
        (folder / f"mid-{name}").write_text(alhambra_dice_log(events[:40]), encoding="utf-8")
    listed = companion(tmp_path, "history")
    assert listed.returncode == 0, listed.stderr
    titles = sorted(line.split("  ")[1] for line in listed.stdout.splitlines())
    assert titles == ["Alhambra – the dice game", "Alhambra – the dice game (Alcazaba)"], listed.stdout
    labels = sorted(saved_game_label(game).split(" · ")[0] for game in saved_games(folder))
    assert labels == ["Alhambra dice"] * 2 + ["Alhambra dice (Alcazaba)"] * 2
