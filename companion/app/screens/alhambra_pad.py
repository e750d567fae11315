"""The scoring pad of the original Alhambra: each player's buildings and wall typed in at each scoring, the
breakdown with every reason kept up to date below, saved on every change (a pad is continued by opening it
again) and exported like the other games' final scorings.

The pad is a file `companion score` reads (`companion.games.alhambra.scorefile`): what is on screen is what a
dispute can be settled with later.
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Input, Label, Static

from companion.games import alhambra as al
from companion.games.alhambra.entry import ENTRY
from companion.games.alhambra.pad import EXTRA_TOWER, WALL, PadError, not_scored, save_pad
from companion.games.alhambra.pad import summary as pad_summary
from companion.games.alhambra.report import scorings_text, totals_line
from companion.games.alhambra.scorefile import DIRK_DEALT
from companion.games.alhambra.scoring import SCORINGS
from companion.games.held import HeldFile, InUse
from companion.games.words import listed
from companion.saved_games import game_stem

from ..alhambra_scored import alhambra_scored
from ..export import ExportError, export_scored, withdraw
from ..keys import ADVICE, REDO, UNDO
from ..widgets.fitted import FittedScreen
from ..widgets.footer import KeysFooter
from ..widgets.reasons import Reasons
from .advice import AdviceScreen
from .left_game import LeftGame, NextGame, game_words

EXTRA_TOWER_KEY = "ctrl+t"
"""Plays the dice game's extra tower in the tile game, or no longer: its rulebook lets it join, so the pad
says which (a control key: letters are typed into the counts)."""
WITH_EXTRA_TOWER = "with the dice game's extra tower"
COUNTS_CHANGED = "the counts changed since"
"""Why a finished pad's export is removed once a count changes: its totals and winners are no longer the
pad's (it went on naming the old winner)."""


@dataclass(frozen=True)
class Change:
    """The pad as it was on one side of a change (undo restores it, redo the other side), the scoring the
    change was made in, to show it, and the change in words."""

    pad: dict[str, Any]
    at: int
    what: str


class Breakdown(VerticalScroll):
    """The breakdown (`#breakdown`): Tab takes the focus to it, to scroll it by keys on a small terminal, a
    click does not. Focused by a click, it took the count typed next without a word."""

    FOCUS_ON_CLICK = False


ONE_LINE = 12 + 7 * 9
"""The columns a player's row takes in one line (`alhambra_pad.tcss`: the name, six types and the wall); on a
narrower terminal each row takes two lines, or the wall and tower fields lay out of sight."""


class CountField(Input):
    """A count's field. It takes whole numbers alone, yet as an input it took every key a letter types, `?`
    too: the help's key did nothing on the pad."""

    def check_consume_key(self, key: str, character: str | None) -> bool:
        return character != "?" and super().check_consume_key(key, character)


class AlhambraPadScreen(FittedScreen[None]):
    """Edits the pad at `path`: the fields are the scoring shown (pgup/pgdn), every player a row."""

    CSS_PATH = "alhambra_pad.tcss"
    # Short words and escape out of the footer (as on the other games' screens): at 80 columns every other
    # key fits beside undo and redo.
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+n", "next_scoring", "new scoring", priority=True),
        Binding("pageup", "show(-1)", "earlier scoring"),
        Binding("pagedown", "show(1)", "later scoring"),
        Binding("ctrl+e", "export", "export", priority=True),
        Binding(EXTRA_TOWER_KEY, "extra_tower", "12th tower", priority=True, tooltip=WITH_EXTRA_TOWER),
        Binding(UNDO, "undo", "undo"),
        Binding(REDO, "redo", "redo"),
        Binding("escape", "app.pop_screen", "back", show=False),
        Binding("up", "move(-1)", "the same count, player above", show=False),
        Binding("down", "move(1)", "the same count, player below (also enter)", show=False),
        Binding(ADVICE, "advice", "advice", priority=True),
        # Before the count fields (`CountField`): `?` opens help as on every game's screen.
        Binding("question_mark", "app.help", "help", show=False, priority=True),
    ]

    def __init__(self, path: Path, pad: dict[str, Any]) -> None:
        """`pad`: the pad as `load_pad` read it from `path`; `held.InUse` while another window has it open."""
        super().__init__()
        try:
            self.held = HeldFile(path)
        except InUse as exc:
            raise InUse(f"{path}: {exc}") from exc
        self.path = path
        self.pad = pad
        self.at = len(self.pad["players"][0]["scorings"]) - 1
        self.result: al.Result | None = None
        self.shown: dict[str, str] = {}
        """What `show` filled each field with, until it is typed over."""
        self.earlier: list[Change] = []
        """The pad before each change since the screen opened, the last change last."""
        self.undone: list[Change] = []
        """The pad after each change undone, the last undone last."""
        self.editing: str | None = None
        """The field whose typing the last undo step holds: its every keystroke is one edit until the cursor
        leaves it (or another change comes between)."""

    def compose(self) -> ComposeResult:
        yield Static(id="title")
        with Horizontal(classes="row heading"):
            yield Label("player", classes="name")
            for field in (*al.TYPES, WALL):
                yield Label(field, classes="count")
        # The players' names are no markup, here nor in the totals (`[b]Ann` bold, `Ann[/]` a crash).
        for p, player in enumerate(self.pad["players"]):
            with Horizontal(classes="row"):
                name = f"{player['name']}{' ◇' if player.get('dirk') else ''}"
                yield Label(name, classes="name", markup=False)
                for field in (*al.TYPES, WALL):
                    if field == WALL and player.get("dirk"):
                        yield Label("-", classes="count")
                    else:
                        yield CountField(id=f"p{p}-{field}", classes="count", type="integer", compact=True)
        yield Static(id="totals", markup=False)
        with Breakdown(id="breakdown"):
            yield Static(id="result")
        yield KeysFooter()

    def on_mount(self) -> None:
        self.show()

    def on_resize(self, event: events.Resize) -> None:
        self.set_class(event.size.width < ONE_LINE, "-two-lines")

    def on_unmount(self) -> None:
        self.held.close()

    def leave(self) -> LeftGame:
        """The pad as the players leave it, let go (the start screen may delete it)."""
        self.held.close()
        summary = pad_summary(self.pad)
        return LeftGame(
            self.path,
            not self.typed_nothing(),
            game_words(ENTRY, summary),
            NextGame(ENTRY.new_games[0].choice, summary.players),
        )

    def typed_nothing(self) -> bool:
        """Whether the pad is as it was made: one scoring of zeros (a count typed and erased is none), the
        extra tower not chosen."""
        # Every value of the scoring: a wall given as tiles (a pad written by hand) is a list, and typed.
        values = [
            value
            for player in self.pad["players"]
            for scoring in player["scorings"]
            for field, typed in scoring.items()
            for value in (typed.values() if field == "buildings" else [typed])
        ]
        return (
            self.held_scorings() == 1 and not self.pad.get(EXTRA_TOWER) and all(v in (0, "") for v in values)
        )

    def show(self) -> None:
        """Fill the fields from the pad's scoring `at`, and the breakdown."""
        for p, player in enumerate(self.pad["players"]):
            scoring = player["scorings"][self.at]
            for field in (*al.TYPES, WALL):
                if field == WALL and player.get("dirk"):
                    continue
                value = scoring["buildings"][field] if field != WALL else self._wall(p, scoring)
                self.shown[f"p{p}-{field}"] = str(value)
                self.query_one(f"#p{p}-{field}", Input).value = str(value)
        # Another scoring's field of the same name is another edit.
        self.editing = None
        self.refresh_breakdown()

    def _wall(self, p: int, scoring: dict[str, Any]) -> int:
        """Player `p`'s wall at the scoring shown: as typed, or the longest wall of the tiles a pad written by
        hand gives instead (`layout`; 0 while the pad cannot be read)."""
        if WALL in scoring or "layout" not in scoring:
            return int(scoring.get(WALL, 0))
        try:
            return al.read_scorings(self.pad, al.load_buildings())[self.at][p].wall
        except al.ScoreFileError:
            return 0

    def refresh_breakdown(self) -> None:
        held = len(self.pad["players"][0]["scorings"])
        extra = f" · {WITH_EXTRA_TOWER}" if self.pad.get(EXTRA_TOWER) else ""
        self.query_one("#title", Static).update(
            f"Alhambra scoring pad · scoring {self.at + 1} of {held} held so far{extra} · saved as "
            f"{self.path.name}"
        )
        result = self.query_one("#result", Static)
        totals = self.query_one("#totals", Static)
        try:
            self.result = al.score_game(al.read_scorings(self.pad, al.load_buildings()))
        except al.ScoreFileError as exc:
            self.result = None
            totals.update(not_scored(self.pad, exc, f"{EXTRA_TOWER_KEY}: {WITH_EXTRA_TOWER}"))
            totals.add_class("error")
            result.update("")
            return
        # The totals stay in view above the breakdown, which a small terminal shows only in part.
        totals.update(totals_line(self.result))
        totals.remove_class("error")
        result.update(Reasons(scorings_text(self.result)))

    def on_input_changed(self, event: Input.Changed) -> None:
        if event.input.id is None or event.value != event.input.value:
            # Or a value already replaced, its Changed come after the keys that replaced it (an undo and a
            # redo pressed quickly): `show`'s first value was saved as typed, and its redo steps lost.
            return
        if len(event.value) > 1 and event.value.startswith("0"):
            # A digit typed after the 0 a field starts with replaces it ("03" is 3): Changed comes again.
            event.input.value = event.value.lstrip("0") or "0"
            return
        if event.value == self.shown.get(event.input.id):
            # Filled in by `show`, not typed: a pad only looked at was saved (its date made today's, a wall
            # given as tiles written as 0 beside them, which no scorer reads).
            return
        self.shown.pop(event.input.id, None)
        p, field = event.input.id[1:].split("-", 1)
        if self.editing != event.input.id:
            name = self.pad["players"][int(p)]["name"]
            self.remember(self.at, f"{name}'s {field} in scoring {self.at + 1}")
            self.editing = event.input.id
        scoring = self.pad["players"][int(p)]["scorings"][self.at]
        value = int(event.value) if event.value.lstrip("-").isdecimal() else event.value
        if field == WALL:
            scoring.pop("layout", None)  # a length typed replaces the tiles it was found on
            scoring[WALL] = value
        else:
            scoring["buildings"][field] = value
        self.save()
        self.refresh_breakdown()

    def on_descendant_blur(self, _: events.DescendantBlur) -> None:
        self.editing = None

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if not self.action_move(1):
            # The last count: its value selected, as a count moved to is, so what is typed next replaces it.
            event.input.select_all()
            self.notify("the scoring's last count: ctrl+n starts the next scoring")

    def action_move(self, step: int) -> bool:
        """The same count of the player above or below: a scoring is counted one building type at a time,
        down the column as on the paper pad, and on from the last player to the next type's first (Dirk has
        no wall: his row is passed over there). False where there is none."""
        here = self.focused
        if not isinstance(here, Input) or here.id is None:
            return False
        by_column = [f"p{p}-{field}" for field in (*al.TYPES, WALL) for p in range(len(self.pad["players"]))]
        at = by_column.index(here.id)
        for other in by_column[at + 1 :] if step > 0 else reversed(by_column[:at]):
            box = next(self.query(f"#{other}").results(Input), None)
            if box is not None:
                box.focus()
                return True
        return False

    def save(self) -> None:
        """Save the pad, still held; a failed write (a full disk, a folder not writable, another file put in
        its place) is said and the pad kept on screen."""
        try:
            save_pad(self.path, self.pad, self.held)
        except (PadError, OSError) as exc:
            self.notify(str(exc), severity="error", markup=False)

    def remember(self, at: int, what: str) -> None:
        """The pad as it is, before the change `what` made in scoring `at`: undo brings it back. A change
        leaves nothing to redo."""
        self.earlier.append(Change(copy.deepcopy(self.pad), at, what))
        self.undone.clear()
        self.editing = None
        if self.held_scorings() == SCORINGS and (stale := withdraw(self.path, COUNTS_CHANGED)):
            self.notify(f"{what}{stale}", markup=False)  # a change names its player: no markup

    def action_undo(self) -> None:
        self.restore(self.earlier, self.undone, "undo", f"undone: {{}} ({REDO} redoes it)")

    def action_redo(self) -> None:
        self.restore(self.undone, self.earlier, "redo", "redone: {}")

    def restore(self, taken: list[Change], kept: list[Change], name: str, said: str) -> None:
        """The pad as `taken`'s last change left it, saved at once as every change is; the pad as it is goes
        to `kept`, so that the other of undo and redo turns it back."""
        if not taken:
            self.notify(f"nothing to {name}", severity="warning")
            return
        change = taken.pop()
        kept.append(Change(self.pad, change.at, change.what))
        was_over = self.held_scorings() == SCORINGS
        self.pad = change.pad
        self.save()
        self.at = min(change.at, self.held_scorings() - 1)
        self.show()
        # Out of its end or not, a pad that was over scores otherwise now: its export names other totals.
        over = self.held_scorings() == SCORINGS
        export = withdraw(self.path, COUNTS_CHANGED if over else "the game is not over") if was_over else ""
        self.notify(said.format(change.what) + export, markup=False)  # a change names its player: no markup

    def held_scorings(self) -> int:
        """How many scorings the pad holds: the game is over at the third."""
        return len(self.pad["players"][0]["scorings"])

    def action_next_scoring(self) -> None:
        """The next scoring starts from the counts of the last one: buildings stay in an Alhambra."""
        held = len(self.pad["players"][0]["scorings"])
        if held >= SCORINGS:
            self.notify("the game has three scorings", severity="warning")
            return
        self.remember(held, f"scoring {held + 1} started")
        for player in self.pad["players"]:
            player["scorings"].append(json.loads(json.dumps(player["scorings"][-1])))
        self.save()
        self.at = len(self.pad["players"][0]["scorings"]) - 1
        self.show()
        # Counted from the first player's first count again: the cursor stayed in the last cell, after its
        # copied value, and the whole next scoring was typed onto its end.
        first = self.query_one(f"#p0-{al.TYPES[0]}", Input)
        first.focus()
        first.select_all()
        # Dirk (2 players): the rule deals him more buildings, which the copied counts do not hold yet.
        dirk = next((p["name"] for p in self.pad["players"] if p.get("dirk")), None)
        if dirk is not None:
            self.notify(
                f"scoring {held + 1}: {dirk} gets {DIRK_DEALT[held]} more buildings, type them into his row",
                markup=False,
            )

    def action_extra_tower(self) -> None:
        """The dice game's extra tower joins the game (12 towers) or leaves it, for every scoring: the pad is
        rescored and saved."""
        joins = not self.pad.get(EXTRA_TOWER, False)
        said = WITH_EXTRA_TOWER if joins else f"no longer {WITH_EXTRA_TOWER}"
        self.remember(self.at, said)
        self.pad[EXTRA_TOWER] = joins
        self.save()
        self.refresh_breakdown()
        self.notify(said)

    def action_show(self, step: int) -> None:
        self.at = max(0, min(len(self.pad["players"][0]["scorings"]) - 1, self.at + step))
        self.show()

    def action_advice(self) -> None:
        """The original Alhambra is only scored here: the panel says there is nothing to advise."""
        self.app.push_screen(AdviceScreen(None, self.pad, lambda: self.pad))

    def action_export(self) -> None:
        """The scorings typed so far as `GAME.score.md` and `GAME.score.json` beside the pad, as every game
        exports (a full disk or a folder not writable is said, and nothing half written is left)."""
        if self.result is None:
            self.notify("fix the pad first: it is not scored yet", severity="error")
            return
        finished = len(self.result.players[0].scorings) == SCORINGS
        scored = alhambra_scored(ENTRY.id, ENTRY.title, finished, self.result)
        try:
            paths = export_scored(scored, scored.markdown(game_stem(self.path)), self.path, ("md", "json"))
        except ExportError as exc:  # what was written, and why the rest was not
            self.notify(str(exc), severity="error", markup=False)
            return
        self.notify(f"written: {listed(paths)}")
