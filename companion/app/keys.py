"""The keys every game's screens share, one map for all games. They are control keys so that they work
while the dice games' entry line has the focus (a letter would be typed into it); the help page (F1) of each
screen lists them with the screen's own keys."""

from __future__ import annotations

import re

from textual.binding import Binding

UNDO = "ctrl+z"
REDO = "ctrl+y"
EXPORT = "ctrl+e"
"""Writes the scoring so far, or the final one, as Markdown and JSON beside the game's log."""
FRAMES = "ctrl+o"
"""Opens the camera's evidence: the frame of each roll it read, with the reader's boxes and values."""
ADVICE = "ctrl+a"
"""What each choice of the decision now is worth (`screens.advice`); before an entry line's own ctrl+a (go to
the start, which Home does too). Where no entry line takes letters, `h` asks too."""
ADVICE_LINE = "h"
"""The dice games' entry line: `h` then Enter asks for advice too."""
HELP_OVER_MODAL = Binding("f1", "app.help", "help")
"""F1 on a screen laid over another (advice, sharing, a question): a modal screen stops the app's own keys,
and F1 said nothing there; its footer showed neither F1 nor quit."""
QUIT_OVER_MODAL = Binding("ctrl+q", "app.quit", "quit")
"""ctrl+q in the footer of a screen laid over another: the app's own key quits there too (it goes first), but
a modal screen's footer lists only the screen's keys."""
BACK = "escape"
"""On a game screen: clear what is typed, else back to the start screen (the game is saved); elsewhere:
back to the screen before."""


def key_name(key: str) -> str:
    """A key as the buttons, the README and the help write it: F5, where Textual writes f5."""
    return re.sub(r"^f(?=\d+$)", "F", key)


def game_keys() -> list[Binding]:
    """Undo, redo, export, advice and back, as every game screen binds them. Export and advice go before an
    entry line's own ctrl+e and ctrl+a (go to the end or start, which End and Home do too)."""
    return [
        Binding(UNDO, "undo", "undo"),
        Binding(REDO, "redo", "redo"),
        Binding(EXPORT, "export", "export", priority=True),
        # Named in the footer where its other keys leave room at 80 columns (`PlayScreen.frames_listed`); the
        # same key, nameless, where they do not.
        Binding(FRAMES, "frames", "frames", tooltip="the camera's frames"),
        Binding(FRAMES, "unlisted_frames", show=False),
        Binding(ADVICE, "advice", "advice", priority=True),
        Binding(BACK, "back", "clear, else back to the start screen", show=False),
    ]
