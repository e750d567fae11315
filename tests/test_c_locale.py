"""The commands where the locale is C or POSIX (a bare container, a cron job, `ssh` without the user's
locale): Python then writes standard output as ASCII with "surrogateescape" and reads text files as ASCII.
A character ASCII cannot hold is shown as "?", the JSON files (all UTF-8) are read, and a table of names in
wide letters or with a combining accent lines up in a terminal that shows them."""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest
from rich.cells import cell_len

from companion.games import alhambra_rw as rw
from companion.games import carcassonne_dice as cd
from companion.games.alhambra_rw.log import write_log
from companion.games.alhambra_rw.simulate import play_random_game
from companion.games.carcassonne_dice.scorefile import log_text
from companion.games.carcassonne_dice.simulate import play_random_game as play_random_carcassonne

COMPANION = str(Path(sys.executable).parent / "companion")
MODELS = Path(__file__).parents[1] / "models"
PHOTO = Path(__file__).parent / "data" / "d6-tray" / "images" / "IMG_20191208_111246.jpg"
NAMES = ("José", "Zoë", "李雷", "Rene\u0301")
"""A Latin-1 letter, a CJK name two cells a letter, and an accent combined with the letter before it."""


def finished_game(log: Path, names: Sequence[str]) -> None:
    setup = rw.GameStarted(rw.load_shipped_sheet("example"), tuple(names))
    write_log(log, play_random_game(setup, random.Random(3))[1])


def run(argv: Sequence[str], home: Path, locale: str = "C") -> subprocess.CompletedProcess[str]:
    """`argv` run in `locale` without Python's UTF-8 mode, its output read as ASCII (a character that is
    not would fail here)."""
    environment = {
        **{k: v for k, v in os.environ.items() if k != "PYTHONIOENCODING"},
        "LC_ALL": locale,
        "PYTHONUTF8": "0",
        "HOME": str(home),
        "XDG_DATA_HOME": str(home / "data"),
        "XDG_CONFIG_HOME": str(home / "config"),
        "XDG_STATE_HOME": str(home / "state"),
    }
    return subprocess.run(
        argv, capture_output=True, text=True, encoding="ascii", env=environment, timeout=120
    )


@pytest.mark.parametrize("locale", ["C", "POSIX"])
def test_history_and_stats_show_what_ascii_cannot_as_question_marks(tmp_path: Path, locale: str) -> None:
    games = tmp_path / "data" / "table-companion" / "games"
    games.mkdir(parents=True)
    finished_game(games / "game.jsonl", NAMES)
    (games / "damaged.jsonl").write_text('{"event": "gäme_started"}\n', encoding="utf-8")
    for command in ("history", "stats"):
        done = run([COMPANION, command], tmp_path, locale)
        assert done.returncode == 0, done.stderr
        assert "Jos?" in done.stdout and "Zo?" in done.stdout and "Rene?" in done.stdout, done.stdout
        # Standard error escapes what ASCII cannot hold: the damaged log is said, on one line.
        (said,) = done.stderr.splitlines()
        assert (
            said.startswith(f"companion {command}: left out {games / 'damaged.jsonl'}: ") and "\\xe4" in said
        )


def test_score_shows_what_ascii_cannot_as_question_marks(tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    finished_game(log, NAMES)
    done = run([COMPANION, "score", str(log)], tmp_path)
    assert done.returncode == 0, done.stderr
    assert "Rene?" in done.stdout and "Jos?" in done.stdout


def test_help_shows_what_ascii_cannot_as_question_marks(tmp_path: Path) -> None:
    done = run([COMPANION, "--help"], tmp_path)
    assert done.returncode == 0, done.stderr
    assert "Alhambra ? the dice game" in done.stdout


def test_the_dice_reader_loads_its_model_cards(tmp_path: Path) -> None:
    done = run([sys.executable, "-m", "vision", "read", "--json", str(PHOTO)], tmp_path)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["dice"]
    # A training run's folder used instead of the installed models.
    folder = tmp_path / "models"
    folder.mkdir()
    for name in ("die_detector", "pip_classifier"):
        for suffix in (".json", ".onnx"):
            shutil.copy(MODELS / f"{name}{suffix}", folder / f"{name}{suffix}")
    assert not (folder / "die_detector.json").read_bytes().isascii(), (
        "a card that ASCII can read tests nothing"
    )
    done = run([sys.executable, "-m", "vision", "bench", "--models", str(folder), "--frames", "1"], tmp_path)
    assert done.returncode == 0, done.stderr


def test_score_tables_line_up_names_of_wide_letters_and_combining_accents(tmp_path: Path) -> None:
    names = ("José", "Zoë", "李雷", "😀Ann", "Rene\u0301")
    log = tmp_path / "roll-and-write.jsonl"
    finished_game(log, names)
    _, events = play_random_carcassonne(cd.GameStarted(names), random.Random(1))
    pad = tmp_path / "carcassonne.jsonl"
    pad.write_text(log_text(events), encoding="utf-8")
    utf8 = {**os.environ, "PYTHONUTF8": "1"}
    for path in (log, pad):
        done = subprocess.run(
            [COMPANION, "score", str(path)],
            capture_output=True,
            text=True,
            encoding="utf-8",
            env=utf8,
            timeout=60,
        )
        assert done.returncode == 0, done.stderr
        # Each player's row (and Roll & Write's header): the name, then numbers aligned right.
        rows = [line for line in done.stdout.splitlines() if line.startswith((*names, "player"))]
        assert len(rows) >= len(names), done.stdout
        assert len({cell_len(row) for row in rows}) == 1, "\n".join(rows)
