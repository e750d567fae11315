"""The original Alhambra's row in the table of games: its scorings, scored from a pad or an end state; its
pads kept in the games folder are continued and counted in history like the other games' logs."""

from __future__ import annotations

from pathlib import Path

from ..entry import GameEntry, NewGame, Records, Scored
from . import pad
from .report import result_text
from .scorefile import GAME_ID, score_pad


def score(data: object, _sheets_dir: Path | None = None) -> Scored:
    result = score_pad(data)
    return Scored(result.to_json(), result_text(result))


ENTRY = GameEntry(
    id=GAME_ID,
    title="Alhambra (the tile game)",
    list_name="Alhambra",
    score=score,
    files=f"{pad.PAD_PREFIX}*{pad.PAD_SUFFIX}",
    summary=pad.summary,
    records=Records(("buildings", "walls"), pad.finished, pad.progress, read=pad.load_pad),
    view="companion.app.widgets.pad_table:PadTable",
    opens="companion.app.game_screens:alhambra_pad",
    new_games=(NewGame("alhambra_pad", "the original Alhambra's scoring pad", "f7", "pad"),),
)
