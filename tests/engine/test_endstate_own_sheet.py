"""An end state names its sheet: one of the players' own (typed with F2, in the app's sheets folder) or a
shipped one; a name found in neither lists both kinds."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from companion.games import alhambra_rw as rw
from companion.games.alhambra_rw.endstate import EndStateError, end_state_from_json
from companion.games.alhambra_rw.scorefile import score_end_state

EXAMPLES = Path(rw.__file__).parent / "examples"


def end_state(sheet: object) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((EXAMPLES / "example-game.json").read_text(encoding="utf-8"))
    return data | {"sheet": sheet}


def own_sheet(folder: Path, name: str, **change: object) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.json"
    path.write_text(json.dumps(rw.load_shipped_sheet("example").to_json() | {"name": name, **change}))
    return path


def test_an_end_state_names_a_sheet_of_the_players_own(tmp_path: Path) -> None:
    """`"sheet": "side-a"` was refused: `no shipped sheet named 'side-a' (shipped: example)`."""
    own_sheet(tmp_path, "side-a", coins=25)
    state = end_state_from_json(end_state("side-a"), tmp_path)
    assert (state.sheet.name, state.sheet.coins) == ("side-a", 25)
    assert score_end_state(end_state("side-a"), tmp_path).to_json()
    assert end_state_from_json(end_state("example"), tmp_path).sheet.name == "example"


def test_a_sheet_named_that_is_nowhere_lists_both_kinds(tmp_path: Path) -> None:
    own_sheet(tmp_path, "side-a")
    with pytest.raises(EndStateError) as refused:
        end_state_from_json(end_state("side-b"), tmp_path)
    assert str(refused.value) == (
        f"sheet: no sheet of yours or shipped named 'side-b' (yours, in {tmp_path}: side-a; shipped: example)"
    )
    with pytest.raises(EndStateError, match=r"\(yours, in .*: none; shipped: example\)"):
        end_state_from_json(end_state("side-b"), tmp_path / "no-sheets-yet")


def test_a_sheet_of_yours_that_cannot_be_read_says_why(tmp_path: Path) -> None:
    own_sheet(tmp_path, "side-a", coins=1)
    with pytest.raises(EndStateError, match=r"^sheet: side-a\.json\.coins: the coin supply must hold"):
        end_state_from_json(end_state("side-a"), tmp_path)


def test_companion_score_reads_an_end_state_naming_a_sheet_of_the_players_own(tmp_path: Path) -> None:
    """The command, as typed: the sheet is looked up in the app's sheets folder ($XDG_CONFIG_HOME)."""
    own_sheet(tmp_path / "config" / "table-companion" / "sheets", "side-a", coins=25)
    path = tmp_path / "state.json"
    path.write_text(json.dumps(end_state("side-a")), encoding="utf-8")
    env = {**os.environ, "XDG_CONFIG_HOME": str(tmp_path / "config")}
    scored = subprocess.run(
        [sys.executable, "-m", "companion", "score", "--json", str(path)],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert scored.returncode == 0, scored.stderr
    assert json.loads(scored.stdout)["sheet"] == "side-a", scored.stdout
