"""The scoring pad of the original Alhambra: each player's buildings and wall typed in at each scoring, the
breakdown with every reason kept up to date below, saved on every change (a pad is continued by opening it
again) and exported like the other games' final scorings.

The pad is a file `companion score` reads (`companion.games.alhambra.scorefile`): what is on screen is what a
dispute can be settled with later.
"""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Input, Label, Static

from companion.games import alhambra as al
from companion.games.alhambra.report import result_text
from companion.games.alhambra.scorefile import LIMITS as PAD_LIMITS
from jsonfile import JsonFileError, read_json

PAD_PREFIX = "alhambra-"
PAD_SUFFIX = ".pad.json"
WALL = "wall"


def new_pad(folder: Path, names: list[str], now: datetime) -> Path:
    """A pad for these players (Dirk joins a 2-player game), one empty scoring, saved in `folder`."""
    players: list[dict[str, Any]] = [{"name": n, "scorings": [_empty(False)]} for n in names]
    if len(names) == 2:
        players.append({"name": "Dirk", "dirk": True, "scorings": [_empty(True)]})
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{PAD_PREFIX}{now:%Y%m%d-%H%M%S}{PAD_SUFFIX}"
    _save(path, {"game": al.GAME_ID, "players": players})
    return path


class PadError(ValueError):
    """A pad file the screen cannot show; one line naming the file and the field."""


def load_pad(path: Path) -> dict[str, Any]:
    """The pad at `path`, read through the checked JSON reader and checked to have the shape the screen edits
    (what it holds is scored, and refused by field, as the pad is typed)."""
    try:
        data = read_json(path, PAD_LIMITS)
    except JsonFileError as exc:
        raise PadError(str(exc)) from None
    try:
        return _pad_shape(data)
    except PadError as exc:
        raise PadError(f"{path}: {exc}") from None


def _pad_shape(data: object) -> dict[str, Any]:
    players = data.get("players") if isinstance(data, dict) else None
    if not isinstance(data, dict) or not isinstance(players, list) or not players:
        raise PadError("field 'players' must be a non-empty list")
    held = set()
    for i, player in enumerate(players):
        where = f"players[{i}]"
        if not isinstance(player, dict) or not isinstance(player.get("name"), str):
            raise PadError(f"field '{where}.name' must be text")
        scorings = player.get("scorings")
        if not isinstance(scorings, list) or not 1 <= len(scorings) <= 3:
            raise PadError(f"field '{where}.scorings' must be a list of 1-3 scorings")
        for j, scoring in enumerate(scorings):
            buildings = scoring.get("buildings") if isinstance(scoring, dict) else None
            if not isinstance(buildings, dict) or not all(_typed(buildings.get(t)) for t in al.TYPES):
                raise PadError(f"field '{where}.scorings[{j}].buildings' must give {', '.join(al.TYPES)}")
            if not _typed(scoring.get(WALL, 0)):
                raise PadError(f"field '{where}.scorings[{j}].{WALL}' must be a number")
        held.add(len(scorings))
    if len(held) > 1:
        raise PadError("field 'players': every player must hold as many scorings")
    return data


def _typed(value: object) -> bool:
    """A field's value as the screen keeps it: a number, or the text typed where no number is yet."""
    return (isinstance(value, int) and not isinstance(value, bool)) or isinstance(value, str)


def newest_pad(folder: Path) -> Path | None:
    pads = list(folder.glob(f"{PAD_PREFIX}*{PAD_SUFFIX}")) if folder.is_dir() else []
    return max(pads, key=lambda p: (p.stat().st_mtime_ns, p.name), default=None)


def _empty(dirk: bool) -> dict[str, Any]:
    scoring: dict[str, Any] = {"buildings": dict.fromkeys(al.TYPES, 0)}
    return scoring if dirk else {**scoring, WALL: 0}


def _save(path: Path, pad: dict[str, Any]) -> None:
    # Written whole to a side file and moved over the pad: a crash mid-write leaves the last good pad.
    side = path.with_name(path.name + ".new")
    try:
        side.write_text(json.dumps(pad, indent=1) + "\n", encoding="utf-8")
        side.replace(path)
    except OSError as exc:
        raise PadError(f"{path}: cannot save the pad ({exc.strerror or exc})") from None


class AlhambraPadScreen(Screen[None]):
    """Edits the pad at `path`: the fields are the scoring shown (pgup/pgdn), every player a row."""

    CSS_PATH = "alhambra_pad.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+n", "next_scoring", "next scoring", priority=True),
        Binding("pageup", "show(-1)", "earlier scoring"),
        Binding("pagedown", "show(1)", "later scoring"),
        Binding("ctrl+e", "export", "export", priority=True),
        Binding("escape", "app.pop_screen", "back"),
    ]

    def __init__(self, path: Path, pad: dict[str, Any]) -> None:
        """`pad`: the pad as `load_pad` read it from `path`."""
        super().__init__()
        self.path = path
        self.pad = pad
        self.at = len(self.pad["players"][0]["scorings"]) - 1
        self.result: al.Result | None = None

    def compose(self) -> ComposeResult:
        yield Static(id="title")
        with Horizontal(classes="row heading"):
            yield Label("player", classes="name")
            for field in (*al.TYPES, WALL):
                yield Label(field, classes="count")
        for p, player in enumerate(self.pad["players"]):
            with Horizontal(classes="row"):
                yield Label(f"{player['name']}{' ◇' if player.get('dirk') else ''}", classes="name")
                for field in (*al.TYPES, WALL):
                    if field == WALL and player.get("dirk"):
                        yield Label("-", classes="count")
                    else:
                        yield Input(id=f"p{p}-{field}", classes="count", type="integer", compact=True)
        with VerticalScroll(id="breakdown"):
            yield Static(id="result")
        yield Footer()

    def on_mount(self) -> None:
        self.show()

    def show(self) -> None:
        """Fill the fields from the pad's scoring `at`, and the breakdown."""
        for p, player in enumerate(self.pad["players"]):
            scoring = player["scorings"][self.at]
            for field in (*al.TYPES, WALL):
                if field == WALL and player.get("dirk"):
                    continue
                value = scoring["buildings"][field] if field != WALL else scoring.get(WALL, 0)
                self.query_one(f"#p{p}-{field}", Input).value = str(value)
        self.refresh_breakdown()

    def refresh_breakdown(self) -> None:
        held = len(self.pad["players"][0]["scorings"])
        self.query_one("#title", Static).update(
            f"Alhambra scoring pad · scoring {self.at + 1} of {held} held so far · saved in {self.path}"
        )
        result = self.query_one("#result", Static)
        try:
            self.result = al.score_game(al.read_scorings(self.pad, al.load_buildings()))
        except al.ScoreFileError as exc:
            self.result = None
            result.update(f"not scored yet: {exc}")
            return
        result.update(result_text(self.result))

    def on_input_changed(self, event: Input.Changed) -> None:
        if event.input.id is None:
            return
        p, field = event.input.id[1:].split("-", 1)
        scoring = self.pad["players"][int(p)]["scorings"][self.at]
        value = int(event.value) if event.value.lstrip("-").isdigit() else event.value
        if field == WALL:
            scoring[WALL] = value
        else:
            scoring["buildings"][field] = value
        self.save()
        self.refresh_breakdown()

    def save(self) -> None:
        """Save the pad; a failed write (a full disk, a folder not writable) is said and the pad kept."""
        try:
            _save(self.path, self.pad)
        except PadError as exc:
            self.notify(str(exc), severity="error")

    def action_next_scoring(self) -> None:
        """The next scoring starts from the counts of the last one: buildings stay in an Alhambra."""
        if len(self.pad["players"][0]["scorings"]) >= 3:
            self.notify("the game has three scorings", severity="warning")
            return
        for player in self.pad["players"]:
            player["scorings"].append(json.loads(json.dumps(player["scorings"][-1])))
        self.save()
        self.at = len(self.pad["players"][0]["scorings"]) - 1
        self.show()

    def action_show(self, step: int) -> None:
        self.at = max(0, min(len(self.pad["players"][0]["scorings"]) - 1, self.at + step))
        self.show()

    def action_export(self) -> None:
        if self.result is None:
            self.notify("fix the pad first: it is not scored yet", severity="error")
            return
        stem = self.path.name.removesuffix(PAD_SUFFIX)
        out = self.path.with_name(f"{stem}.score.json")
        out.write_text(
            json.dumps(self.result.to_json(), indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
        )
        text = self.path.with_name(f"{stem}.score.txt")
        text.write_text(result_text(self.result) + "\n", encoding="utf-8")
        self.notify(f"written: {out} and {text}")
