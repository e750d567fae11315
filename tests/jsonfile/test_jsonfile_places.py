"""A field given twice is refused where the second one stands, as every other refusal is: a copied line in a
game log, a value pasted into an end state, both named by line and column (it said only "given twice")."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from jsonfile import JsonFileError, folders, loads

COMPANION = str(Path(sys.executable).parent / "companion")
EXAMPLES = Path(__file__).parents[2] / "companion" / "games"


@pytest.mark.parametrize(
    ("text", "place", "key"),
    [
        ('{"a": 1, "a": 2}', "line 7, column 10", "a"),
        # Equal keys in different objects are no fault; the escaped "p\u0061" is the same key as "pa".
        ('[{"a": "a", "b": {"a": 1}},\n {"pa": 1, "b": 2, "p\\u0061" : 3}]', "line 8, column 20", "pa"),
        ('{"x": {"y": [], "z": 1, "y": {}}}', "line 7, column 25", "y"),
    ],
)
def test_a_field_given_twice_is_named_where_it_stands_again(text: str, place: str, key: str) -> None:
    with pytest.raises(JsonFileError) as refused:
        loads(text.encode(), line=7)
    assert str(refused.value) == f"{place}: field {key!r} is given twice in one object"


def test_companion_score_names_the_line_and_column_of_a_field_given_twice(tmp_path: Path) -> None:
    lines = (EXAMPLES / "carcassonne_dice" / "examples" / "example-game.jsonl").read_text().splitlines()
    at = next(n for n, line in enumerate(lines) if line.startswith('{"event":"rolled","player":'))
    lines[at] = lines[at].replace('"player":', '"player":"X","player":', 1)
    log = tmp_path / "game.jsonl"
    log.write_text("\n".join(lines) + "\n")
    run = subprocess.run([COMPANION, "score", str(log)], capture_output=True, text=True, timeout=60)
    assert run.returncode == 2
    column = len('{"event":"rolled","player":"X",') + 1
    place = f"line {at + 1}, column {column}"
    assert run.stderr == f"companion score: {log}: {place}: field 'player' is given twice in one object\n"


def test_a_name_taken_between_choosing_it_and_making_the_file_is_passed_over(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Two demos started in the same second both chose the same free name; the second's claim of it ended in
    # a traceback (FileExistsError).
    chosen = folders.free_path

    def another_process_takes_it_meanwhile(folder: Path, stem: str, suffix: str) -> Path:
        path = chosen(folder, stem, suffix)
        if path.name == "20261130-130542-ann-ben.jsonl":
            path.write_text('{"event": "game_started"}\n')
        return path

    monkeypatch.setattr(folders, "free_path", another_process_takes_it_meanwhile)
    claimed = folders.claim_free_path(tmp_path, "20261130-130542-ann-ben", ".jsonl")
    assert claimed.name == "20261130-130542-ann-ben-2.jsonl" and claimed.read_text() == ""
    assert (tmp_path / "20261130-130542-ann-ben.jsonl").read_text() == '{"event": "game_started"}\n'
