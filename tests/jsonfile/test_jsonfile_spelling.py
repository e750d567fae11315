"""A bad value in a file is quoted as the file writes it: `true`, `null`, `{"a": false}`. Quoted in Python's
spelling ("got True", "got None"), it named a word the user looked for in their file and did not find."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from jsonfile import short

COMPANION = str(Path(sys.executable).parent / "companion")
GAMES = Path(__file__).parents[2] / "companion" / "games"


def refusal(path: Path) -> str:
    run = subprocess.run([COMPANION, "score", str(path)], capture_output=True, text=True, timeout=60)
    assert run.returncode == 2, run.stdout + run.stderr
    return run.stderr


def test_an_end_state_with_true_for_a_number_is_refused_quoting_true(tmp_path: Path) -> None:
    end = tmp_path / "end.json"
    good = (GAMES / "alhambra_rw" / "examples" / "example-game.json").read_text()
    end.write_text(good.replace('"circled": 9,', '"circled": true,', 1))
    assert refusal(end) == (
        f"companion score: {end}: players[0].coins.circled: must be a whole number 3–20, got true\n"
    )


def test_a_log_line_with_null_among_dice_is_refused_quoting_it_as_written(tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    lines = (GAMES / "alhambra_rw" / "examples" / "example-game.jsonl").read_text().splitlines()
    lines[1] = lines[1].replace('"yellow":[1]', '"yellow":[1, null]', 1)
    log.write_text("\n".join(lines) + "\n")
    assert refusal(log).endswith(
        ": line 2: not a valid event (yellow: must be a list of die values, got [1, null])\n"
    )


def test_a_turn_file_with_an_object_for_true_or_false_is_refused_quoting_the_object(tmp_path: Path) -> None:
    turn = tmp_path / "turn.json"
    data = json.loads((GAMES / "carcassonne_dice" / "examples" / "completed-city.json").read_text())
    turn.write_text(json.dumps(data | {"knight": {"a": False, "b": None}}))
    assert refusal(turn).endswith(
        'knight: must be true or false (a knight held from the last turn), got {"a": false, "b": null}\n'
    )


@pytest.mark.parametrize(
    ("value", "quoted"),
    [
        # A text keeps repr's quotes, as every message quotes the user's words ('abc' is no dice colour).
        ("abc", "'abc'"),
        (["Jürgen", 5], '["Jürgen", 5]'),
        # Python's parser gives these for NaN and Infinity: shown as a file writes them.
        (float("nan"), "NaN"),
        ([float("-inf")], "[-Infinity]"),
        # Nothing in JSON writes a set: Python's spelling is the only one there is.
        ({1}, "{1}"),
        # A DEL inside a list reaches no terminal as it is (JSON escapes only the C0 characters).
        (["a\x7fb"], '["a\\x7fb"]'),
        # Cut to SHOWN characters, the length told that of the JSON text.
        ([None] * 20, "[null, null, null, null, null, null…(120 characters)"),
    ],
)
def test_short_quotes_a_value_as_json_writes_it(value: object, quoted: str) -> None:
    assert short(value) == quoted
