"""The original Alhambra's scorings (its score pad's, and the Alcazaba variant's of the dice game) as every
game's end screen and export take them."""

from __future__ import annotations

from companion.games.alhambra.report import result_text, scorings_columns, scorings_text
from companion.games.alhambra.scoring import Result

from .export import EndScoring


def alhambra_scored(game: str, title: str, finished: bool, result: Result) -> EndScoring:
    """`result`'s scorings; the players with the best totals win once `finished`, not before (they lead)."""
    return EndScoring(
        game,
        title,
        finished,
        tuple((p.name, p.total) for p in result.players),
        result.winners if finished else (),
        result_text(result),
        result.to_json(),
        frozenset(p.name for p in result.players if p.dirk),
        columns=scorings_columns(result),
        reasons=scorings_text(result),
    )
