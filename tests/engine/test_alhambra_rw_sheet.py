"""Sheet definitions: data files validated on load, with errors that name the field."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from rw_helpers import vp_of

from companion.games.alhambra_rw import (
    BUILDING_TYPES,
    SheetError,
    load_sheet,
    load_shipped_sheet,
    sheet_from_json,
    sheets_in,
    shipped_sheets,
)
from companion.games.alhambra_rw import sheet as sheet_module

GOOD: dict[str, Any] = {"name": "mine", "grid": ["PSACGT"] * 6, "coins": 12}


def test_the_shipped_example_is_listed_named_as_an_example_and_valid() -> None:
    assert "example" in shipped_sheets()
    sheet = load_shipped_sheet("example")
    assert "NOT the printed sheet" in sheet.title
    assert sum(sheet.boxes) == 36 and all(n > 0 for n in sheet.boxes)
    assert sheet.coins == 20
    assert vp_of(sheet, "tower") == (21, 13, 6) and vp_of(sheet, "pavilion") == (16, 8, 1)
    # rows are the yellow die, columns the blue die
    assert sheet.building_at(1, 1) == "pavilion" and sheet.building_at(2, 1) == "garden"
    assert sheet.building_at(1, 2) == "seraglio"


def test_box_counts_equal_cells_per_type_and_vp_table_defaults_to_the_rulebook() -> None:
    sheet = sheet_from_json(GOOD)
    assert sheet.boxes == (6, 6, 6, 6, 6, 6)
    assert sheet.vp == ((16, 8, 1), (17, 9, 2), (18, 10, 3), (19, 11, 4), (20, 12, 5), (21, 13, 6))
    assert sheet_from_json(sheet.to_json()) == sheet


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"grid": ["PSACGT"] * 5}, r"sheet.grid: must be a list of 6 rows \(yellow 1–6\), got 5 rows"),
        ({"grid": ["PSACGT"] * 5 + ["PSACG"]}, r"sheet.grid\[5\]: must be a string of 6 letters"),
        (
            {"grid": ["PSACGT", "PSACGT", "PSACXT", *["PSACGT"] * 3]},
            r"sheet.grid\[2\]\[4\]: unknown letter 'X'",
        ),
        ({"grid": ["PSACGP"] * 6}, "every building type must be present; missing tower"),
        ({"coins": 0}, "sheet.coins: the coin supply must hold at least 3 coins"),
        ({"coins": "20"}, "sheet.coins: must be a whole number"),
        ({"name": ""}, "sheet.name: must be a non-empty string"),
        ({"vp": {"pavilion": [1, 2]}}, r"sheet.vp.pavilion: must be 3 whole numbers"),
        ({"vp": {t: [3, 2, 1] for t in (*BUILDING_TYPES, "moat")}}, "sheet.vp: unknown field .moat."),
        (
            {"vp": {t: [5, 12, 20] if t == "garden" else [3, 2, 1] for t in BUILDING_TYPES}},
            r"sheet.vp.garden: a place cannot earn more than a better place \(1st ≥ 2nd ≥ 3rd\), "
            r"got \[5, 12, 20\]",
        ),
        ({"vp": {t: [3, 3, 0] for t in BUILDING_TYPES}}, None),
    ],
)
def test_a_bad_sheet_is_rejected_naming_the_field(change: dict[str, Any], message: str | None) -> None:
    if message is None:  # ties and places worth nothing are the table's to print
        assert vp_of(sheet_from_json({**GOOD, **change}), "garden") == (3, 3, 0)
        return
    with pytest.raises(SheetError, match=message):
        sheet_from_json({**GOOD, **change})


RULEBOOK = {"pavilion": [16, 8, 1], "seraglio": [17, 9, 2], "arcades": [18, 10, 3], "chambers": [19, 11, 4]}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"pavilion": [16, 8, 1],', r"^vp_table\.json: line 1, column \d+: not valid JSON"),
        (
            json.dumps({**RULEBOOK, "garden": [20, 12], "tower": [21, 13, 6]}),
            r"^vp_table\.json\.garden: must be 3 whole numbers",
        ),
        (
            json.dumps({**RULEBOOK, "garden": [5, 12, 20], "tower": [21, 13, 6]}),
            r"^vp_table\.json\.garden: a place cannot earn more than a better place",
        ),
    ],
)
def test_a_damaged_rulebook_vp_table_is_named_not_the_sheet_that_falls_back_on_it(
    monkeypatch: pytest.MonkeyPatch, text: str, message: str
) -> None:
    monkeypatch.setattr(sheet_module, "_vp_table_text", lambda: text)
    sheet_module.rulebook_vp_table.cache_clear()
    try:
        with pytest.raises(SheetError, match=message):
            sheet_from_json(GOOD, where="novp.json")
        # a sheet that carries its own table never reads the rulebook's
        own = {t: [3, 2, 1] for t in BUILDING_TYPES}
        assert vp_of(sheet_from_json({**GOOD, "vp": own}, where="own.json"), "tower") == (3, 2, 1)
    finally:
        monkeypatch.undo()
        sheet_module.rulebook_vp_table.cache_clear()


def test_sheet_files_load_and_bad_files_say_which_file(tmp_path: Path) -> None:
    good = tmp_path / "mine.json"
    good.write_text(json.dumps(GOOD))
    assert load_sheet(good).name == "mine"
    bad = tmp_path / "broken.json"
    bad.write_text('{"name": "x", "grid": [')
    with pytest.raises(SheetError, match=r"broken\.json: line 1, column \d+: not valid JSON"):
        load_sheet(bad)
    with pytest.raises(SheetError, match="cannot read"):
        load_sheet(tmp_path / "missing.json")
    with pytest.raises(SheetError, match="no shipped sheet named 'printed'"):
        load_shipped_sheet("printed")
    assert sheets_in(tmp_path) == {"broken": bad, "mine": good}
    assert sheets_in(tmp_path / "nowhere") == {}


@pytest.mark.parametrize(
    ("garden", "message"),
    [
        ([12, 20, 5], r"sheet.vp.garden: a place cannot earn more than a better place"),  # 2nd > 1st
        ([20, 5, 12], r"sheet.vp.garden: a place cannot earn more than a better place"),  # 3rd > 2nd
        ([20, 12, -1], r"sheet.vp.garden: must be 3 whole numbers"),
        ([20, 12, True], r"sheet.vp.garden: must be 3 whole numbers"),
        ([20, 12, 5.0], r"sheet.vp.garden: must be 3 whole numbers"),
        ([1000, 12, 5], r"sheet.vp.garden: must be 3 whole numbers"),
    ],
)
def test_a_vp_table_that_pays_a_worse_place_more_or_odd_numbers_is_refused(
    garden: list[object], message: str
) -> None:
    """Rules page: places 1–3 of a type pay e.g. 20, 12, 5: a typed table must keep 1st ≥ 2nd ≥ 3rd."""
    vp = {t: garden if t == "garden" else [3, 2, 1] for t in BUILDING_TYPES}
    with pytest.raises(SheetError, match=message):
        sheet_from_json({**GOOD, "vp": vp})


@pytest.mark.parametrize("key", ["name", "title"])
def test_a_sheet_name_or_title_with_a_control_character_is_refused(key: str) -> None:
    with pytest.raises(SheetError, match=rf"sheet.{key}: cannot hold control character"):
        sheet_from_json({**GOOD, key: "my\x1b[2Jsheet"})
