"""The table's view of the original Alhambra's scoring pad: every player's buildings and wall as typed at the
scoring being typed, and the breakdown of the scorings so far with every reason."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Static

from companion.games import alhambra as al
from companion.games.alhambra.pad import WALL, not_scored
from companion.games.alhambra.report import result_text

from .fitted import UNBOUNDED, Fitted

NAME = 8
COUNT = 4
"""Characters of a player's name and of each count: the six types and the wall in 45, less on a phone."""
SHORT_TYPES = {"pavilion": "pav", "seraglio": "ser", "arcades": "arc", "chambers": "cha", "garden": "gar",
               "tower": "tow", WALL: "wall"}  # fmt: skip


def counts_text(pad: dict[str, Any], width: int = UNBOUNDED) -> Text:
    """A row per player: the counts of the scoring typed last (the types named in full where they fit)."""
    fields = (*al.TYPES, WALL)
    full = width >= NAME + len(fields) * (max(map(len, fields)) + 1)
    column = max(map(len, fields)) + 1 if full else COUNT
    text = Text(no_wrap=True)
    text.append(f"{'player':<{NAME}}", style="bold")
    names = (f if full else SHORT_TYPES[f] for f in fields)
    text.append("".join(f"{name:<{column}}" for name in names).rstrip(), style="bold")
    for player in pad["players"]:
        scoring = player["scorings"][-1]
        wall = "-" if player.get("dirk") else scoring.get(WALL, 0)
        counts = [*(scoring["buildings"][t] for t in al.TYPES), wall]
        name = player["name"][: NAME - 1]
        text.append(f"\n{name:<{NAME}}" + "".join(f"{c!s:<{column}}" for c in counts).rstrip())
    return text


def breakdown_text(pad: dict[str, Any]) -> str:
    """The scorings typed so far with every reason, or why they cannot be scored yet."""
    try:
        return result_text(al.score_game(al.read_scorings(pad, al.load_buildings())))
    except al.ScoreFileError as exc:
        return not_scored(pad, exc)


class PadCounts(Fitted[dict[str, Any]]):
    def draw(self, state: dict[str, Any], width: int) -> Text:
        return counts_text(state, width)


class PadTable(Vertical):
    """Shows a pad as `load_pad` reads it: `show(pad)`."""

    DEFAULT_CSS = """
    PadTable { height: auto; }
    PadTable > Static { border: round $primary; height: auto; padding: 0 1; }
    """

    def compose(self) -> ComposeResult:
        yield PadCounts(id="counts")
        yield Static(id="breakdown")

    def on_mount(self) -> None:
        self.query_one("#breakdown").border_title = "Scorings so far"

    def show(self, pad: dict[str, Any]) -> None:
        typed = len(pad["players"][0]["scorings"])
        counts = self.query_one(PadCounts)
        counts.border_title = f"Scoring {typed}: buildings and wall"
        counts.show(pad)
        self.query_one("#breakdown", Static).update(Text(breakdown_text(pad)))
