"""Crafted texts that crashed or hung every command reading the games: half a character written as an escape
(`"Barb\\ud800ara"`: read, then printed, a traceback in `score`, `history` and `stats`, hiding every other
game), and a string of backslashes before line ends (its scan went quadratic: 64 KB ran past a minute)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from jsonfile import JsonFileError, loads

COMPANION = str(Path(sys.executable).parent / "companion")
GAMES = Path(__file__).parents[2] / "companion" / "games"


@pytest.mark.parametrize(
    ("text", "escape", "column"),
    [
        (r'{"name": "Barb\ud800ara"}', r"\ud800", 15),
        (r'{"name": "\ud83d\ude00 and \ude00"}', r"\ude00", 28),
        (r'{"name": "\ud83d\ude00 and \ud83d"}', r"\ud83d", 28),
        (r'{"\udc00": 1}', r"\udc00", 3),
    ],
)
def test_half_a_character_is_refused_at_its_place(text: str, escape: str, column: int) -> None:
    with pytest.raises(JsonFileError) as err:
        loads(text.encode())
    assert str(err.value) == (
        f"line 1, column {column}: a text holds half a character ({escape} without its other half), which "
        "cannot be shown"
    )


@pytest.mark.parametrize("text", [r'["\ud83d\ude00"]', r'["\\ud800"]', r'["\u00e9"]'])
def test_whole_characters_and_escaped_backslashes_are_read(text: str) -> None:
    loads(text.encode())


def test_a_game_naming_half_a_character_is_left_out_of_history_in_one_line(tmp_path: Path) -> None:
    text = (GAMES / "carcassonne_dice/examples/example-game.jsonl").read_text(encoding="utf-8")
    games = tmp_path / "data" / "table-companion" / "games"
    games.mkdir(parents=True)
    name = json.loads(text.splitlines()[0])["players"][0]
    (games / "crafted.jsonl").write_text(text.replace(f'"{name}"', f'"{name[:2]}\\ud800{name[2:]}"'))
    home = {f"XDG_{kind}_HOME": str(tmp_path / kind.lower()) for kind in ("DATA", "STATE", "CONFIG")}
    for command in ("history", "stats"):
        run = subprocess.run(
            [COMPANION, command], capture_output=True, text=True, timeout=60, env={**os.environ, **home}
        )
        assert run.returncode == 0 and "no finished games yet" in run.stdout, run.stdout
        assert run.stderr == (
            f"companion {command}: left out {games / 'crafted.jsonl'}: line 1, column 65: a text holds "
            "half a character (\\ud800 without its other half), which cannot be shown\n"
        )


def test_backslashes_before_line_ends_are_refused_as_fast_as_a_plain_text_of_their_size() -> None:
    """The reported file: 32,000 times `"\\` and a line end (64 KB)."""
    crafted_s = min(seconds(b'"\\' * 32_000 + b"\n") for _ in range(3))
    plain_s = min(seconds(b'"a' * 32_000 + b"\n") for _ in range(3))
    assert crafted_s <= 3 * plain_s + 0.05, (crafted_s, plain_s)


def seconds(data: bytes) -> float:
    start = time.perf_counter()
    with pytest.raises(JsonFileError, match="not valid JSON"):
        loads(data)
    return time.perf_counter() - start
