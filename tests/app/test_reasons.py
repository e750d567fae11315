"""A scorer's breakdown (`Reasons`) is measured as the terminal draws it, in cells."""

from __future__ import annotations

from rich.cells import cell_len
from rich.console import Console
from rich.measure import Measurement

from companion.app.widgets.reasons import Reasons


def test_a_breakdown_naming_a_wide_name_is_measured_in_cells_not_characters() -> None:
    """A line naming 李小龍 was measured by its characters, 3 columns short of what it takes: a panel sized to
    it cut or wrapped the line's end."""
    line = "    seraglio    2  2 building points: tied with 李小龍 for 1st place = 2 VP"
    console = Console(width=200)
    measured = Measurement.get(console, console.options, Reasons(f"Scoring A\n{line}"))
    assert measured.maximum == cell_len(line) == len(line) + 3
