"""Continuing a saved game of every game from a damaged log, and F7's Alhambra pad from a damaged pad, a
thousand of each (and every key dropped in turn).

`Session.resume(rules, path)` must continue the game (a spoiled last line set aside in `PATH.cut`, the players
told) or raise `ResumeError`, one line naming the file; never another exception, never a hang. A game
continued without a warning scores as the good log does unless only values changed (`same_shape`); one
continued past a spoiled line holds the events before it, and its log then reads back whole.

`load_pad(path)` must give a pad or raise `PadError`, one line naming the file; a pad it gives is shown and
scored by the pad screen without another exception (a pad that cannot be scored yet says why, as typed).
"""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from fuzz_inputs import (
    MAX_LINE,
    Damage,
    alcazaba_log,
    cases_line,
    damaged_json,
    damaged_log,
    every_dropped_key,
    every_dropped_log_key,
    same_shape,
    within,
)
from hypothesis import find, given, settings

from companion.games import alhambra as al
from companion.games.alhambra.pad import WALL, PadError, load_pad, new_pad
from companion.games.eventlog import load_log
from companion.games.session import ResumeError, Rules, Session
from companion.games.table import GAMES
from companion.scorefiles import score_path

CASES = 1000
GAME_FOLDERS = Path(__file__).parents[2] / "companion" / "games"
LOGS = {
    "alhambra-roll-and-write": GAME_FOLDERS / "alhambra_rw" / "examples" / "example-game.jsonl",
    "alhambra-dice": GAME_FOLDERS / "alhambra_dice" / "examples" / "two-players-and-dirk.jsonl",
    "carcassonne-dice": GAME_FOLDERS / "carcassonne_dice" / "examples" / "example-game.jsonl",
    "alcazaba": None,
}


def good_log(game: str) -> bytes:
    path = LOGS[game]
    return alcazaba_log() if path is None else path.read_bytes()


def rules_of(game: str) -> Rules[Any, Any, Any]:
    rules = GAMES["alhambra-dice" if game == "alcazaba" else game].rules
    assert rules is not None
    return rules


def check_resumed(
    rules: Rules[Any, Any, Any], damage: Damage, path: Path, good: bytes, events: list[Any], board: Any
) -> None:
    cut = path.with_name(path.name + ".cut")
    cut.unlink(missing_ok=True)
    path.write_bytes(damage.data)
    try:
        session = within(30, lambda: Session.resume(rules, path))
    except ResumeError as err:
        message = str(err)
        assert "\n" not in message and message.startswith(f"{path}: "), (damage.what, message)
        assert len(message.replace(str(path), "")) <= MAX_LINE, message
        return
    session.close()
    resumed = [rules.log.encode(e) for e in session.events]
    if session.warning:
        # Continued past a spoiled last line: the events before it, the line kept aside, the log whole again.
        assert session.warning.startswith(f"{path}: line ") and "\n" not in session.warning, damage.what
        assert resumed == events[: len(resumed)] or same_shape(damage.data, good), damage.what
        assert cut.exists(), damage.what
        assert [rules.log.encode(e) for e in load_log(path, rules.log).events] == resumed, damage.what
    else:
        assert not cut.exists(), damage.what
        # The game as saved, or as saved earlier (cut short at the end of a line); a field that scores nothing
        # (a sheet's title) may be gone; or a log a game could have written (a city die fewer built: another
        # game, maybe not over, which then cannot be scored as finished).
        if resumed != events[: len(resumed)]:
            assert same_shape(damage.data, good) or score_path(path).json == board, damage.what


@pytest.mark.parametrize("game", list(LOGS))
def test_continuing_a_game_from_a_damaged_log(game: str, tmp_path: Path) -> None:
    rules, good = rules_of(game), good_log(game)
    (tmp_path / "good.jsonl").write_bytes(good)
    events = [rules.log.encode(e) for e in load_log(tmp_path / "good.jsonl", rules.log).events]
    board = score_path(tmp_path / "good.jsonl").json
    lines = [line for line in good.split(b"\n") if line.strip()]
    path, cases = tmp_path / "saved.jsonl", []

    @settings(max_examples=CASES, deadline=None, database=None)
    @given(damaged_log(lines))
    def one(damage: Damage) -> None:
        cases.append(damage.what)
        check_resumed(rules, damage, path, good, events, board)

    one()
    sweep = every_dropped_log_key(lines)
    for damage in sweep:
        check_resumed(rules, damage, path, good, events, board)
    print(cases_line(len(cases), len(sweep)))
    assert len(cases) >= CASES


def test_a_city_die_dropped_from_a_kept_line_is_the_game_that_log_then_is(tmp_path: Path) -> None:
    """Found by the fuzzing above (Carcassonne, line 49's third city die dropped): a log a game could have
    written, in which a city die was set aside unbuilt, and that game is not over; continued as it is."""
    rules, good = rules_of("carcassonne-dice"), good_log("carcassonne-dice")
    (tmp_path / "good.jsonl").write_bytes(good)
    events = [rules.log.encode(e) for e in load_log(tmp_path / "good.jsonl", rules.log).events]
    lines = good.split(b"\n")
    kept = json.loads(lines[48])
    assert kept["event"] == "kept" and len(kept["built"]) >= 3
    del kept["built"][2]
    damaged = b"\n".join([*lines[:48], json.dumps(kept).encode(), *lines[49:]])
    board = score_path(tmp_path / "good.jsonl").json
    check_resumed(
        rules, Damage(damaged, "line 49: item built/2 dropped"), tmp_path / "saved.jsonl", good, events, board
    )


@pytest.mark.parametrize("game", list(LOGS))
def test_a_line_emptied_between_events_is_refused_naming_it(game: str, tmp_path: Path) -> None:
    """Found by the fuzzing above (Carcassonne, line 26 cut to nothing): the game went on without that throw,
    legal but another game. A blank line after the last event is no event lost and is read as before."""
    rules, good = rules_of(game), good_log(game)
    lines = good.rstrip(b"\n").split(b"\n")
    path = tmp_path / "saved.jsonl"
    path.write_bytes(b"\n".join([*lines[:5], b"", *lines[6:]]) + b"\n")
    lost = r"saved.jsonl: line 6: empty between two events \(a lost event\?\)$"
    with pytest.raises(ResumeError, match=lost):
        Session.resume(rules, path)
    path.write_bytes(good + b"\n\n")
    session = Session.resume(rules, path)
    session.close()
    assert len(session.events) == len(lines) and not session.warning


def good_pad(folder: Path) -> dict[str, Any]:
    """F7's pad for Ann and Ben (Dirk joins) with the example game's three scorings typed in."""
    example = json.loads((GAME_FOLDERS / "alhambra" / "examples" / "two-players-and-dirk.json").read_text())
    pad = load_pad(new_pad(folder, ["Ann", "Ben"], datetime(2024, 5, 1, 20, 0)))
    for player, typed in zip(pad["players"], example["players"], strict=True):
        player["scorings"] = [
            {"buildings": s["buildings"]} | ({} if player.get("dirk") else {WALL: s.get(WALL, 6)})
            for s in typed["scorings"]
        ]
    return pad | {"extra_tower": example["extra_tower"]}


def shown(pad: dict[str, Any]) -> tuple[list[str], al.Result | None]:
    """What the pad screen reads of a pad: each player's row at the last scoring, and the breakdown."""
    at = len(pad["players"][0]["scorings"]) - 1
    rows = []
    for player in pad["players"]:
        scoring = player["scorings"][at]
        values = [str(scoring["buildings"][t]) for t in al.TYPES]
        wall = [] if player.get("dirk") else [str(scoring.get(WALL, 0))]
        rows.append(" ".join([f"{player['name']}{' ◇' if player.get('dirk') else ''}", *values, *wall]))
    try:
        return rows, al.score_game(al.read_scorings(pad, al.load_buildings()))
    except al.ScoreFileError as err:
        assert "\n" not in str(err), str(err)
        return rows, None


def test_damaged_alhambra_pads(tmp_path: Path) -> None:
    good = good_pad(tmp_path)
    _, good_result = shown(good)
    assert good_result is not None
    good_bytes = json.dumps(good, indent=1).encode()
    path, cases = tmp_path / "alhambra-20240501-200000.pad.json", []

    def check(damage: Damage) -> None:
        path.write_bytes(damage.data)
        try:
            pad = within(30, lambda: load_pad(path))
        except PadError as err:
            message = str(err)
            assert "\n" not in message and message.startswith(f"{path}"), (damage.what, message)
            assert len(message.replace(str(path), "")) <= MAX_LINE, message
            return
        _, result = shown(pad)
        if result is not None and result != good_result:
            assert same_shape(damage.data, good_bytes), damage.what

    @settings(max_examples=CASES, deadline=None, database=None)
    @given(damaged_json(good, indent=1))
    def one(damage: Damage) -> None:
        cases.append(damage.what)
        check(damage)

    one()
    sweep = every_dropped_key(good, indent=1)
    for damage in sweep:
        check(damage)
    print(cases_line(len(cases), len(sweep)))
    assert len(cases) >= CASES


def test_damage_drops_and_misspells_keys_at_any_depth() -> None:
    """The strategies drop and misspell a key deep in a file, and one inside one event line of a log."""
    good = {"players": [{"name": "Ann", "coins": {"circled": 3, "spent": 1}}]}
    quick = settings(max_examples=5000, database=None)
    for kind in ("dropped", "misspelt"):
        damage = find(
            damaged_json(good), lambda d, k=kind: f"key 'players/0/coins/spent' {k}" in d.what, settings=quick
        )
        assert "spent" not in json.loads(damage.data)["players"][0]["coins"]
    lines = [json.dumps(good).encode(), b'{"event":"x","player":"Ann"}']
    line = find(damaged_log(lines), lambda d: d.what == "line 2: key 'player' dropped", settings=quick)
    assert json.loads(line.data.splitlines()[1]) == {"event": "x"}
    dropped = [d.what for d in every_dropped_key(good)]
    assert dropped == [
        f"key {p!r} dropped"
        for p in (
            "players",
            "players/0/name",
            "players/0/coins",
            "players/0/coins/circled",
            "players/0/coins/spent",
        )
    ]
