"""The shared score sheet's name column: every name told apart and the boxes in line. Names were cut to 9
characters at every width ("Christopher A" and "Christopher B" both read "Christoph"), and a name of wide
characters (李, emoji) pushed its row's boxes under the next type's heading."""

from __future__ import annotations

from rich.cells import cell_len

from companion.app.widgets.score_sheet import score_sheet_text
from companion.games import alhambra_rw as rw


def rows(names: tuple[str, ...], width: int) -> list[str]:
    state = rw.start(rw.GameStarted(rw.load_shipped_sheet("example"), names))
    return score_sheet_text(state, width).plain.splitlines()


def test_names_are_shown_whole_where_they_fit_and_told_apart_where_cut() -> None:
    names = ("Christopher A", "Christopher B", "Christina")
    for width in (80, 110):
        shown = rows(names, width)[2:5]
        assert [row[1:].split(" □")[0].rstrip() for row in shown] == list(names), shown
    cut = [row[1:].split(" □")[0].rstrip() for row in rows(names, 40)[2:5]]
    assert len(set(cut)) == 3 and cut[0].endswith("…A") and cut[1].endswith("…B"), cut


def test_the_boxes_start_in_one_column_whatever_the_names_letters() -> None:
    for width in (40, 80):
        shown = rows(("李小龍李小龍李小龍", "🎲🎲🎲🎲🎲🎲", "Ann"), width)
        starts = {cell_len(row[: row.index("□")]) for row in shown[2:5]}
        assert len(starts) == 1 and cell_len(shown[0][: shown[0].index("pavilion")]) in starts, shown
