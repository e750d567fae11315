"""The table's view of the original Alhambra's scoring pad: every player's total so far and who leads (who
won, after the last scoring), their buildings and wall as typed at the scoring being typed, and the breakdown
of the scorings so far with every reason (each wrapped under the reasons, as in every breakdown)."""

from __future__ import annotations

from typing import Any

from rich.cells import cell_len
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Static

from companion.games import alhambra as al
from companion.games.alhambra.pad import WALL, not_scored
from companion.games.alhambra.report import scorings_text
from companion.games.alhambra.scoring import SCORINGS
from companion.games.words import ahead, standing

from .fitted import UNBOUNDED, Fitted, fitted_name
from .reasons import Reasons

FIELDS = (*al.TYPES, WALL)
HEADINGS = (FIELDS, ("pav", "ser", "arc", "cha", "gar", "tow", "wall"), tuple(f[0] for f in FIELDS))
"""The counts' headings, widest first: the first that fits beside the names is shown (a phone's 34 columns
take only the first letters: p s a c g t w)."""
DIGITS = 2
"""Characters of a count: at most 11 of a type, a wall's pieces."""
NAME = len("player ")
"""The name column at the least."""


def counts_text(pad: dict[str, Any], width: int = UNBOUNDED) -> Text:
    """A row per player: the counts of the scoring typed last, the types named as fully as `width` leaves
    room for beside the names, and the names cut only where the first letters leave too little."""
    names = [player["name"] for player in pad["players"]]
    wanted = max(NAME, *(cell_len(name) + 1 for name in names))
    for headings in HEADINGS:
        column = max(DIGITS, *map(len, headings)) + 1
        room = column * (len(headings) - 1) + max(DIGITS, len(headings[-1]))  # the last, no space after
        if wanted + room <= width:
            break
    name_width = max(NAME, min(wanted, width - room))
    text = Text(no_wrap=True)
    text.append(f"{'player':<{name_width}}", style="bold")
    text.append("".join(f"{name:<{column}}" for name in headings).rstrip(), style="bold")
    for name, player in zip(names, pad["players"], strict=True):
        scoring = player["scorings"][-1]
        wall = "-" if player.get("dirk") else scoring.get(WALL, 0)
        counts = [*(scoring["buildings"][t] for t in al.TYPES), wall]
        text.append(
            f"\n{fitted_name(name, name_width - 1)} " + "".join(f"{c!s:<{column}}" for c in counts).rstrip()
        )
    return text


def totals_text(result: al.Result) -> str:
    """Each player's total, then who leads or, after the last scoring, who won."""
    over = len(result.players[0].scorings) == SCORINGS
    lines = [f"{p.name}{' (imaginary)' if p.dirk else ''}: {p.total}" for p in result.players]
    leaders = result.winners if over else ahead((p.name, p.total) for p in result.players if not p.dirk)
    return "\n".join(line for line in [*lines, standing(leaders, over)] if line)


class PadCounts(Fitted[dict[str, Any]]):
    def draw(self, state: dict[str, Any], width: int) -> Text:
        return counts_text(state, width)


class PadTable(Vertical):
    """Shows a pad as `load_pad` reads it (`show(pad)`): the totals first, on a phone's first screen, then
    the counts being typed and the breakdown of every scoring with its reasons."""

    DEFAULT_CSS = """
    PadTable { height: auto; }
    PadTable > Static { border: round $primary; height: auto; padding: 0 1; }
    """

    def compose(self) -> ComposeResult:
        yield Static(id="totals")
        yield PadCounts(id="counts")
        yield Static(id="breakdown")

    def on_mount(self) -> None:
        self.query_one("#breakdown").border_title = "Scorings so far"

    def show(self, pad: dict[str, Any]) -> None:
        typed = len(pad["players"][0]["scorings"])
        counts = self.query_one(PadCounts)
        counts.border_title = f"Scoring {typed}: buildings and wall"
        counts.show(pad)
        totals = self.query_one("#totals", Static)
        breakdown = self.query_one("#breakdown", Static)
        try:
            result = al.score_game(al.read_scorings(pad, al.load_buildings()))
        except al.ScoreFileError as exc:
            totals.border_title = "Totals"
            totals.update(Text(not_scored(pad, exc)))
            breakdown.display = False
            return
        final = typed == SCORINGS
        totals.border_title = "Final scoring" if final else f"Totals after scoring {typed} of {SCORINGS}"
        totals.update(Text(totals_text(result)))
        breakdown.update(Reasons(scorings_text(result)))  # the totals are in the box above
        breakdown.display = True
