"""The sheet definition: what is printed on the player sheet and the score sheet, loaded from data.

Which building sits in which grid cell and the size of the coin supply are unknown from our sources (the
printed pad is double-sided and the sides may differ), so they are a file a user enters and checks once,
validated on load. Rows are the yellow die (1–6), columns the blue die (1–6).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from companion.games.alhambra.buildings import TYPES
from jsonfile import (
    JsonFileError,
    control_character,
    is_whole_number,
    read_json,
    refuse_unknown,
    short,
    whole_number,
)

BUILDING_TYPES: tuple[str, ...] = TYPES
"""Building types in score-sheet order, the original Alhambra's six in its scoring card's order; an index into
this tuple is a building's number everywhere."""

LETTERS: Mapping[str, str] = {
    "P": "pavilion",
    "S": "seraglio",
    "A": "arcades",
    "C": "chambers",
    "G": "garden",
    "T": "tower",
}

STARTING_COINS = 3
"""Every player starts with 3 coins circled, so a supply must hold at least that many."""
MAX_COINS = MAX_VP = 99
"""Upper bounds for a sheet's coin supply and a VP table entry: two digits, as printed on a sheet (the
rulebook's VP reach 21); a slip of the keyboard (a few digits too many) is refused instead of scored."""

SHIPPED_DIR = "sheets"


class SheetError(ValueError):
    """A sheet definition is invalid; the message names the bad field."""


@dataclass(frozen=True)
class Sheet:
    """A validated sheet definition, with lookups precomputed for the engine's fold.

    `cell_type[(yellow - 1) * 6 + (blue - 1)]` is the building number of a cell; `type_masks[t]` has bit
    `(yellow - 1) * 6 + (blue - 1)` set for every cell of building `t`; `boxes[t]` is the number of boxes of
    that type on the score sheet.
    """

    name: str
    grid: tuple[str, ...]
    coins: int
    vp: tuple[tuple[int, int, int], ...]
    title: str = ""
    cell_type: tuple[int, ...] = field(init=False, repr=False, compare=False)
    type_masks: tuple[int, ...] = field(init=False, repr=False, compare=False)
    boxes: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        cells = tuple(BUILDING_TYPES.index(LETTERS[letter]) for row in self.grid for letter in row)
        masks = [0] * len(BUILDING_TYPES)
        for cell, building in enumerate(cells):
            masks[building] |= 1 << cell
        object.__setattr__(self, "cell_type", cells)
        object.__setattr__(self, "type_masks", tuple(masks))
        # [interpretation] a type's box count on the score sheet equals its number of cells on the grid.
        object.__setattr__(self, "boxes", tuple(mask.bit_count() for mask in masks))

    def building_at(self, yellow: int, blue: int) -> str:
        """The building type at row `yellow`, column `blue` (both 1–6)."""
        return BUILDING_TYPES[self.cell_type[(yellow - 1) * 6 + blue - 1]]

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "name": self.name,
            "grid": list(self.grid),
            "coins": self.coins,
            "vp": {name: list(row) for name, row in zip(BUILDING_TYPES, self.vp, strict=True)},
        }
        if self.title:
            data["title"] = self.title
        return data


@functools.cache
def rulebook_vp_table() -> tuple[tuple[int, int, int], ...]:
    """The VP table printed on the score sheet (rulebook), used when a sheet file gives none. Read and checked
    once per process, and only then: every game log's first line names its sheet, and a damaged shipped table
    must not stop a sheet that carries its own."""
    return load_vp_table(_vp_table_text())


def _vp_table_text() -> str:
    return resources.files(__package__).joinpath("vp_table.json").read_text(encoding="utf-8")


def load_vp_table(text: str, where: str = "vp_table.json") -> tuple[tuple[int, int, int], ...]:
    """The VP table file's JSON text, checked as a sheet's `vp`; errors name this file, not the sheet that
    fell back on it."""
    try:
        table = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SheetError(
            f"{where}: line {exc.lineno}, column {exc.colno}: not valid JSON ({exc.msg})"
        ) from None
    return _validate_vp(table, where)


def sheet_from_json(data: object, where: str = "sheet") -> Sheet:
    """Validate a sheet definition (already parsed JSON) and build a `Sheet`; errors name the field."""
    if not isinstance(data, dict):
        raise SheetError(f"{where}: must be an object with name, grid and coins")
    refuse_unknown(data, ("name", "title", "grid", "coins", "vp"), where, SheetError)
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        raise SheetError(f"{where}.name: must be a non-empty string")
    title = data.get("title", "")
    if not isinstance(title, str):
        raise SheetError(f"{where}.title: must be a string")
    for key, text in (("name", name), ("title", title)):
        if control := control_character(text):
            raise SheetError(f"{where}.{key}: cannot hold control character {control}: {short(text)}")
    grid = _validate_grid(data.get("grid"), where)
    coins = whole_number(data.get("coins"), None, MAX_COINS, f"{where}.coins", SheetError)
    if coins < STARTING_COINS:
        raise SheetError(
            f"{where}.coins: the coin supply must hold at least {STARTING_COINS} coins "
            f"(every player starts with {STARTING_COINS} circled), got {coins}"
        )
    vp = _validate_vp(data["vp"], f"{where}.vp") if "vp" in data else rulebook_vp_table()
    return Sheet(name=name.strip(), grid=grid, coins=coins, vp=vp, title=title)


def _validate_grid(grid: object, where: str) -> tuple[str, ...]:
    if not isinstance(grid, list) or len(grid) != 6:
        raise SheetError(f"{where}.grid: must be a list of 6 rows (yellow 1–6), got {_describe(grid)}")
    rows: list[str] = []
    for y, row in enumerate(grid):
        if not isinstance(row, str) or len(row) != 6:
            raise SheetError(f"{where}.grid[{y}]: must be a string of 6 letters (blue 1–6), got {short(row)}")
        for b, letter in enumerate(row):
            if letter.upper() not in LETTERS:
                raise SheetError(
                    f"{where}.grid[{y}][{b}]: unknown letter {letter!r} (use {', '.join(LETTERS)})"
                )
        rows.append(row.upper())
    missing = [LETTERS[letter] for letter in LETTERS if not any(letter in row for row in rows)]
    if missing:
        raise SheetError(f"{where}.grid: every building type must be present; missing {', '.join(missing)}")
    return tuple(rows)


def _validate_vp(vp: object, where: str) -> tuple[tuple[int, int, int], ...]:
    if not isinstance(vp, dict):
        raise SheetError(f"{where}: must map each building type to its VP for places 1, 2 and 3")
    refuse_unknown(vp, BUILDING_TYPES, where, SheetError)
    rows: list[tuple[int, int, int]] = []
    for building in BUILDING_TYPES:
        row = vp.get(building)
        if not isinstance(row, list) or len(row) != 3 or not all(is_whole_number(v, 0, MAX_VP) for v in row):
            raise SheetError(
                f"{where}.{building}: must be 3 whole numbers 0–{MAX_VP} (places 1–3), got {short(row)}"
            )
        # Tied players share the VP of the places they take, so equal places are a table's to print; a place
        # worth more than a better one would reward finishing behind.
        if not row[0] >= row[1] >= row[2]:
            raise SheetError(
                f"{where}.{building}: a place cannot earn more than a better place (1st ≥ 2nd ≥ 3rd), "
                f"got {short(row)}"
            )
        rows.append((row[0], row[1], row[2]))
    return tuple(rows)


def _describe(value: object) -> str:
    if isinstance(value, list):
        return f"{len(value)} rows"
    return short(value)


def load_sheet(path: str | Path) -> Sheet:
    """Load and validate a sheet definition file, whose name is its file's (as the sheet editor saves it)."""
    path = Path(path)
    try:
        data = read_json(path)
    except JsonFileError as exc:
        raise SheetError(str(exc)) from exc
    sheet = sheet_from_json(data, where=path.name)
    # A sheet has one name: a copy made by hand kept its original's, and the editor then saved it over the
    # original while the list named it by its file.
    if sheet.name != path.stem:
        raise SheetError(
            f"{path.name}.name: {short(sheet.name)} is not the file's name {short(path.stem)} "
            "(rename the file or change the name)"
        )
    return sheet


def shipped_sheets() -> tuple[str, ...]:
    """Names of the sheet definitions shipped with the package (examples, not the printed sheet)."""
    folder = resources.files(__package__).joinpath(SHIPPED_DIR)
    return tuple(sorted(p.name.removesuffix(".json") for p in folder.iterdir() if p.name.endswith(".json")))


def load_shipped_sheet(name: str) -> Sheet:
    """Load a shipped sheet by name, e.g. `load_shipped_sheet("example")`."""
    if name not in shipped_sheets():
        shipped = ", ".join(shipped_sheets())
        raise SheetError(f"sheet: no shipped sheet named {short(name)} (shipped: {shipped})")
    text = resources.files(__package__).joinpath(SHIPPED_DIR, f"{name}.json").read_text(encoding="utf-8")
    return sheet_from_json(json.loads(text), where=f"{name}.json")


def sheets_in(directory: str | Path) -> dict[str, Path]:
    """User sheet files in `directory` by name (file stem); validation happens when one is loaded."""
    folder = Path(directory)
    if not folder.is_dir():
        return {}
    return {p.stem: p for p in sorted(folder.glob("*.json"))}
