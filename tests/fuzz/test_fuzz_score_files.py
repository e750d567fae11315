"""`companion score FILE` given damaged end states, inline sheets, game logs, turn files and the original
Alhambra's score files, of every game, a thousand of each.

Each must end in the board (exit 0) or one error line naming the file (exit 2), never a traceback or a hang;
a damaged file scored without an error must score as the good file does, unless only its values changed
(a value is a slip of the pen that no check can tell from the truth) or a cut-off last line was reported.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from fuzz_inputs import (
    HUGE_VALUES,
    MAX_LINE,
    Damage,
    alcazaba_log,
    assert_one_error_line,
    cases_line,
    damaged_json,
    damaged_log,
    every_dropped_key,
    every_dropped_log_key,
    run_main,
    same_shape,
)
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.cli import main
from companion.games.alhambra_rw.endstate import BUILDING_TYPES
from companion.games.alhambra_rw.sheet import SheetError, load_sheet
from jsonfile import control_character

EXAMPLES = Path(__file__).parents[2] / "companion" / "games" / "alhambra_rw" / "examples"
END_STATE = (EXAMPLES / "example-game.json").read_bytes()
LOG = (EXAMPLES / "example-game.jsonl").read_bytes()
SHEET = json.loads(LOG.split(b"\n", 1)[0])["sheet"]
CASES = 1000
GAMES = Path(__file__).parents[2] / "companion" / "games"
DICE_GAME = GAMES / "alhambra_dice" / "examples"
CARCASSONNE = GAMES / "carcassonne_dice" / "examples"
ALHAMBRA = GAMES / "alhambra" / "examples"


def log_lines(data: bytes) -> list[bytes]:
    return [line for line in data.split(b"\n") if line.strip()]


def board_of(data: bytes, tmp: Path) -> Any:
    path = tmp / "good.json"
    path.write_bytes(data)
    run = run_main(main, ["score", str(path), "--json"])
    assert run.code == 0, run.err
    return json.loads(run.out)


def check_scored(damage: Damage, path: Path, good: bytes, good_board: Any) -> None:
    path.write_bytes(damage.data)
    run = run_main(main, ["score", str(path), "--json"])
    if run.code == 2:
        assert run.out == "", damage.what
        assert_one_error_line(run.err, "companion score: ", str(path))
        return
    assert run.code == 0, (damage.what, run.err)
    assert not control_character(run.out.replace("\n", "")), (damage.what, run.out)
    warned = run.err.startswith(f"companion score: warning: {path}: line ") and "cut off" in run.err
    assert run.err == "" or (warned and len(run.err.splitlines()) == 1), (damage.what, run.err)
    if json.loads(run.out) != good_board:
        # Scored differently: only a file of the good one's fields and types may, or a cut-off line said so.
        assert warned or same_shape(damage.data, good), damage.what


def fuzz(
    tmp: Path, good: bytes, damages: st.SearchStrategy[Damage], sweep: list[Damage], n: int = CASES
) -> int:
    """Throw `n` damaged copies of `good` at `companion score`, then each of `sweep` (every key dropped in
    turn); the number of damaged copies drawn (the cases run are printed)."""
    good_board = board_of(good, tmp)
    cases = []

    @settings(max_examples=n, deadline=None, database=None)
    @given(damages)
    def one(damage: Damage) -> None:
        cases.append(damage.what)
        check_scored(damage, tmp / "damaged.json", good, good_board)

    one()
    for damage in sweep:
        check_scored(damage, tmp / "damaged.json", good, good_board)
    print(cases_line(len(cases), len(sweep)))
    return len(cases)


def fuzz_file(tmp: Path, good: bytes, indent: int | None = 2, n: int = CASES) -> int:
    """A JSON file: `n` damaged copies, then every key dropped in turn."""
    value = json.loads(good)
    return fuzz(tmp, good, damaged_json(value, indent), every_dropped_key(value, indent), n)


def fuzz_log(tmp: Path, good: bytes) -> int:
    """A game log: CASES damaged copies, then every key of every line dropped in turn."""
    lines = log_lines(good)
    return fuzz(tmp, good, damaged_log(lines), every_dropped_log_key(lines))


def test_damaged_end_states(tmp_path: Path) -> None:
    assert fuzz_file(tmp_path, END_STATE) >= CASES


def test_damaged_inline_sheets(tmp_path: Path) -> None:
    end_state = json.loads(END_STATE)
    end_state["sheet"] = SHEET
    good = json.dumps(end_state, indent=2).encode()
    raw = json.dumps(end_state | {"sheet": "\u0000"}, indent=2).replace('"\\u0000"', "{}")
    head, tail = raw.split("{}", 1)[0], raw.split("{}", 1)[1]

    def in_end_state(sheet: Damage) -> Damage:
        return Damage(head.encode() + sheet.data + tail.encode(), f"sheet: {sheet.what}")

    sweep = [in_end_state(damage) for damage in every_dropped_key(SHEET)]
    assert fuzz(tmp_path, good, damaged_json(SHEET).map(in_end_state), sweep) >= CASES


def test_damaged_game_logs(tmp_path: Path) -> None:
    assert fuzz_log(tmp_path, LOG) >= CASES


def test_damaged_alhambra_dice_end_states(tmp_path: Path) -> None:
    assert fuzz_file(tmp_path, (DICE_GAME / "end-state.json").read_bytes()) >= CASES


def test_damaged_alhambra_dice_game_logs(tmp_path: Path) -> None:
    assert fuzz_log(tmp_path, (DICE_GAME / "two-players-and-dirk.jsonl").read_bytes()) >= CASES


def test_damaged_alcazaba_game_logs(tmp_path: Path) -> None:
    assert fuzz_log(tmp_path, alcazaba_log()) >= CASES


def test_damaged_carcassonne_dice_game_logs(tmp_path: Path) -> None:
    assert fuzz_log(tmp_path, (CARCASSONNE / "example-game.jsonl").read_bytes()) >= CASES


def test_damaged_carcassonne_dice_turn_files(tmp_path: Path) -> None:
    """Both example turns: the wiki's city with a knight die beside it, and a completed city with a knight."""
    cases = sum(
        fuzz_file(tmp_path, (CARCASSONNE / name).read_bytes(), n=CASES // 2)
        for name in ("wiki-example.json", "completed-city.json")
    )
    assert cases >= CASES


def test_damaged_alhambra_score_files(tmp_path: Path) -> None:
    """The original Alhambra's scorings (walls given as a number and as a layout of tiles, Dirk, the extra
    tower)."""
    assert fuzz_file(tmp_path, (ALHAMBRA / "two-players-and-dirk.json").read_bytes(), indent=1) >= CASES


def test_damaged_sheet_files(tmp_path: Path) -> None:
    """A sheet file as the app loads it: a sheet, or one `SheetError` line naming the file."""
    path, cases = tmp_path / "mine.json", []

    def check(damage: Damage) -> None:
        path.write_bytes(damage.data)
        try:
            load_sheet(path)
        except SheetError as err:
            assert "\n" not in str(err) and path.name in str(err), damage.what
            assert len(str(err).replace(str(path), "")) <= MAX_LINE, str(err)

    @settings(max_examples=CASES, deadline=None, database=None)
    @given(damaged_json(SHEET))
    def one(damage: Damage) -> None:
        cases.append(damage.what)
        check(damage)

    one()
    sweep = every_dropped_key(SHEET)
    for damage in sweep:
        check(damage)
    print(cases_line(len(cases), len(sweep)))
    assert len(cases) >= CASES


def test_the_reports_cases_end_in_one_line_each(tmp_path: Path) -> None:
    """The issue's cases, each a named field or place, scored by the installed command as a user runs it."""
    good = json.loads(END_STATE)
    misspelt = END_STATE.replace(b'"spent": 6', b'"speNt": 6', 1)
    ghost = {"name": "Ghost", "imaginary": True, "buildings": dict.fromkeys(BUILDING_TYPES, 0)}
    imaginary = {**good, "players": [*good["players"][:3], ghost]}
    few_coins = json.loads(END_STATE)
    few_coins["players"][0]["coins"] = {"circled": 2, "spent": 0}
    vp = {**good, "sheet": {**SHEET, "vp": {**SHEET["vp"], "tower": [10**20, 1, 0]}}}
    supply = {**good, "sheet": {**SHEET, "coins": 100}}
    cases = {
        "deep.json": ("[" * 990 + "]" * 990).encode(),
        "digits.json": END_STATE.replace(b'"circled": 9', b'"circled": ' + HUGE_VALUES[3].encode(), 1),
        "misspelt.json": misspelt,
        "damaged.json": END_STATE[:400] + b"}" + END_STATE[401:],
        "imaginary.json": json.dumps(imaginary).encode(),
        "few-coins.json": json.dumps(few_coins).encode(),
        "vp.json": json.dumps(vp).encode(),
        "supply.json": json.dumps(supply).encode(),
    }
    expected = {
        "deep.json": "line 1, column 21: nested over 20 deep",
        "digits.json": "a number of 5,001 digits",
        "misspelt.json": "players[0].coins: unknown field 'speNt'",
        "damaged.json": f"line {len(END_STATE[:400].splitlines())}, column",
        "imaginary.json": "players: 3 real players play with 0 imaginary players, not 1",
        "few-coins.json": "players[0].coins.circled: must be a whole number 3–20, got 2",
        "vp.json": "a number of 21 digits (at most 15)",
        "supply.json": "sheet.coins: must be a whole number up to 99, got 100",
    }
    companion = Path(sys.executable).parent / "companion"
    for name, data in cases.items():
        path = tmp_path / name
        path.write_bytes(data)
        run = subprocess.run([companion, "score", str(path)], capture_output=True, text=True, timeout=60)
        assert run.returncode == 2 and run.stdout == "", (name, run.stderr)
        assert_one_error_line(run.stderr, "companion score: ", str(path))
        assert expected[name] in run.stderr, run.stderr
