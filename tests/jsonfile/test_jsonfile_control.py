"""No text read from a file may hold a control character: a player's name that held ESC was printed as a
command to the terminal (`companion score` on a crafted log cleared the screen and retitled the window), and
the app drew it as such. Names typed in are refused the same way, so no log is written that cannot be read."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from datetime import datetime
from pathlib import Path

import pytest

from companion.games import alhambra_dice as ad
from companion.games import alhambra_rw as rw
from companion.games import carcassonne_dice as cd
from companion.games.alhambra.pad import PadError, new_pad
from jsonfile import JsonFileError, control_character, loads

COMPANION = str(Path(sys.executable).parent / "companion")
GAMES = Path(__file__).parents[2] / "companion" / "games"
CRAFTED = "Ann\u001b]0;owned\u0007\u001b[2J"
"""A name that, printed, retitles the terminal's window and clears its screen."""


@pytest.mark.parametrize(
    ("text", "control", "column"),
    [
        (r'{"name": "Ann\u001b[2J"}', "U+001B", 14),
        (r'{"name": "Ann\u001B[2J"}', "U+001B", 14),
        (r'["a\nb"]', "U+000A", 4),
        (r'["\\\u0007"]', "U+0007", 5),
        (r'["\u007f"]', "U+007F", 3),
        ('["a\u0085"]', "U+0085", 4),
        (r'{"name": "Ann\u202eX"}', "U+202E", 14),
        ('{"name": "Barbara\u200b"}', "U+200B", 18),
        (r'["\u2066"]', "U+2066", 3),
    ],
)
def test_a_text_holding_a_control_character_is_refused_at_its_place(
    text: str, control: str, column: int
) -> None:
    said = f"line 1, column {column}: a text holds control character {control}, "
    with pytest.raises(JsonFileError, match=f"^{re.escape(said)}"):
        loads(text.encode())


@pytest.mark.parametrize("text", [r'["\\n", "\\\\u001b"]', r'["Zoë \u00e9 – × ◇ \ud83d\ude00"]', '["naïve"]'])
def test_backslashes_and_any_printable_text_are_read(text: str) -> None:
    assert loads(text.encode()) == json.loads(text)


def test_control_character_names_the_first() -> None:
    assert (control_character("Ann"), control_character("A\tB\u001b")) == ("", "U+0009")


@pytest.mark.parametrize(
    "log",
    [
        "alhambra_rw/examples/example-game.jsonl",
        "alhambra_dice/examples/example-game.jsonl",
        "carcassonne_dice/examples/example-game.jsonl",
    ],
)
def test_a_crafted_log_is_one_error_line_and_nothing_reaches_the_terminal(tmp_path: Path, log: str) -> None:
    text = (GAMES / log).read_text(encoding="utf-8")
    first = json.loads(text.splitlines()[0])["players"][0]
    crafted = tmp_path / "crafted.jsonl"
    crafted.write_text(text.replace(json.dumps(first), json.dumps(CRAFTED)), encoding="utf-8")
    run = subprocess.run([COMPANION, "score", str(crafted)], capture_output=True, text=True, timeout=60)
    assert run.returncode == 2 and run.stdout == "", run.stdout
    assert "control character U+001B" in run.stderr and len(run.stderr.splitlines()) == 1, run.stderr
    assert not control_character(run.stderr.rstrip("\n")), repr(run.stderr)


def test_a_name_with_a_control_character_is_refused_before_any_log_is_written(tmp_path: Path) -> None:
    with pytest.raises(rw.IllegalMove, match=r"control character U\+001B"):
        rw.start(rw.GameStarted(rw.load_shipped_sheet("example"), (CRAFTED, "Ben", "Cleo"), (), "standard"))
    with pytest.raises(ad.IllegalMove, match=r"control character U\+0009"):
        ad.start(ad.GameStarted(("Ann", "B\ten")))
    with pytest.raises(cd.IllegalMove, match=r"control character U\+001B"):
        cd.start(cd.GameStarted((CRAFTED, "Ben")))
    with pytest.raises(cd.IllegalMove, match=r"control character U\+200B"):
        cd.start(cd.GameStarted(("Barbara", "Barbara\u200b")))
    with pytest.raises(PadError, match=r"control character U\+001B"):
        new_pad(tmp_path, [CRAFTED, "Ben"], datetime(2026, 11, 28, 12, 0))
    assert not list(tmp_path.iterdir())
    with pytest.raises(rw.SheetError, match=r"sheet.title: cannot hold control character U\+001B"):
        rw.sheet_from_json(
            {**json.loads(json.dumps(rw.load_shipped_sheet("example").to_json())), "title": CRAFTED}
        )
