"""The sheet being typed in the sheet editor, kept on disk at every change until it is saved or given up.

Typing a printed sheet's 36 cells takes minutes; a terminal closed (SIGHUP), a battery gone flat or a kill
threw it all away, where every game keeps each move on disk as made. The draft is found again the next time
the editor opens.
"""

from __future__ import annotations

import json
from contextlib import suppress
from pathlib import Path

from companion.games import alhambra_rw as rw
from jsonfile.whole import write_whole

DRAFT_NAME = "being-typed.draft"
"""Beside the saved sheets, under a suffix their listing (`*.json`) never takes for a sheet."""
MAX_FIELD = 200
"""A typed name or coin supply longer than this is no draft the editor wrote."""

Typed = tuple[tuple[str, ...], str, str]
"""The editor's cells (a row a string), name and coin supply, as typed."""


class DraftError(ValueError):
    """A draft that cannot be read back: the message says why."""


def draft_path(sheets_dir: Path) -> Path:
    return sheets_dir / DRAFT_NAME


def keep_draft(sheets_dir: Path, typed: Typed) -> None:
    """`typed` written whole over the last draft. A draft that cannot be written (a full disk) is no reason
    to stop the typing: the editor still holds it, and ctrl+s says what is wrong with the disk."""
    rows, name, coins = typed
    data = {"grid": list(rows), "name": name, "coins": coins}
    with suppress(OSError):
        write_whole(draft_path(sheets_dir), json.dumps(data, ensure_ascii=False) + "\n")


def drop_draft(sheets_dir: Path) -> None:
    """The draft removed: the sheet was saved, or the players chose to leave it."""
    with suppress(OSError):
        draft_path(sheets_dir).unlink(missing_ok=True)


def read_draft(sheets_dir: Path, empty: str) -> Typed | None:
    """The draft kept by an editor that did not end by saving or leaving, or None when there is none;
    `DraftError` names what is wrong with one that cannot be used (a cell that is no building's letter)."""
    path = draft_path(sheets_dir)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        raise DraftError(f"{path}: cannot be read ({exc})") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise DraftError(f"{path}: not JSON ({exc.msg}, line {exc.lineno})") from None
    if not isinstance(data, dict):
        raise DraftError(f"{path}: not a sheet being typed")
    grid, name, coins = data.get("grid"), data.get("name"), data.get("coins")
    cells = set(rw.LETTERS) | {empty}
    if not (
        isinstance(grid, list)
        and len(grid) == 6
        and all(isinstance(row, str) and len(row) == 6 and set(row) <= cells for row in grid)
    ):
        raise DraftError(f"{path}: grid: not 6 rows of 6 building letters")
    for field, value in (("name", name), ("coins", coins)):
        if not isinstance(value, str) or len(value) > MAX_FIELD or not value.isprintable():
            raise DraftError(f"{path}: {field}: not a line of text as typed")
    assert isinstance(name, str) and isinstance(coins, str)
    return tuple(grid), name, coins
