"""The camera's evidence of a game: every move the camera read, and the picture of the dice it was made of,
with the reader's boxes and values drawn. Opened from a game's screen (ctrl+o, or a click on a log line), from
F4's history (a finished game) and from its replay; read-only."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from companion.live.frames import frame_names, load_frame

from ..widgets.fitted import FittedScreen
from ..widgets.footer import KeysFooter
from ..widgets.frame_view import FrameView

_PLAIN = ("event", "player", "source", "note", "frame")
"""An event's fields that `plain_said` words apart from its dice."""


@dataclass(frozen=True)
class Exhibit:
    """One move the camera read: its number in the game's log, its words (with what the camera read where
    the players typed the dice), and its frame's name."""

    move: int
    said: str
    frame: str

    @property
    def caption(self) -> str:
        return f"move {self.move}: {self.said}"


def plain_said(encoded: dict[str, Any]) -> str:
    """A roll's words from its log line alone (where the game's own words are not at hand): who, the dice as
    entered, who entered them and what the log noted beside them."""
    shown = {key: value for key, value in encoded.items() if key not in _PLAIN and value not in ({}, [])}
    dice = ", ".join(f"{key} {_plain(value)}" for key, value in shown.items())
    source = f" ({encoded['source']})" if encoded.get("source") else ""
    note = f" · {encoded['note']}" if encoded.get("note") else ""
    return f"{encoded.get('player', '?')} rolled {dice}{source}{note}"


def _plain(value: object) -> str:
    if isinstance(value, dict):
        return " ".join(f"{n} {k}" for k, n in value.items())
    if isinstance(value, list):
        return " ".join(map(str, value))
    return str(value)


def exhibits(
    events: Sequence[Any],
    encode: Callable[[Any], dict[str, Any]],
    worded: Sequence[Sequence[str]] | None = None,
) -> list[Exhibit]:
    """The moves of a game that name a camera frame, in the order played, worded by the game's screen
    (`worded`: each event's log lines) or else from the log line itself."""

    def said(move: int) -> str:
        if worded:
            return " / ".join(line.strip() for line in worded[move])
        return plain_said(encode(events[move]))

    return [Exhibit(move, said(move), frame) for move, frame in frame_names(list(events), encode)]


class EvidenceScreen(FittedScreen[None]):
    """The moves of the game logged at `log_path` that the camera read (`shown`), the one at `at` (an index in
    `shown`; None: the last) open first."""

    CSS_PATH = "evidence.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "app.pop_screen", "back")]

    def __init__(self, log_path: Path, shown: list[Exhibit], at: int | None = None) -> None:
        super().__init__()
        self.log_path = log_path
        self.shown = shown
        self.at = len(shown) - 1 if at is None else at

    def compose(self) -> ComposeResult:
        yield Static(f"The camera's evidence: {self.log_path.name}", id="title", markup=False)
        with Horizontal():
            # A move's caption names its player, which is no markup (`[b]Ann` bold, `Ann[/]` a crash).
            captions = (Option(e.caption, id=str(n)) for n, e in enumerate(self.shown))
            yield OptionList(*captions, id="moves", markup=False)
            yield FrameView(id="frame")
        yield KeysFooter()

    def on_mount(self) -> None:
        moves = self.query_one("#moves", OptionList)
        if not self.shown:
            self.query_one(FrameView).show(None, "the camera kept no frame of any move of this game")
            return
        moves.highlighted = self.at
        moves.focus()
        self.show(self.at)

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self.show(int(event.option_id or 0))

    def show(self, at: int) -> None:
        self.at = at
        exhibit = self.shown[at]
        self.query_one(FrameView).show(load_frame(self.log_path, exhibit.frame), exhibit.caption)
