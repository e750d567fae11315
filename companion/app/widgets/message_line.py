"""A screen's message line: why an entry was refused, a turn's score, what the camera read.

It belongs just above the entry line (or the footer), outside any scrolling part of the screen: at 80×24 the
end of a scrolling middle lies below the fold, and a refusal said there made an entry seem to do nothing.
Empty, it gives its line back.
"""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static


class MessageLine(Static):
    DEFAULT_CSS = """
    MessageLine {
        height: auto;
        max-height: 50vh;
    }
    """

    def say(self, message: str | Text, error: bool = False) -> None:
        """Show `message` (red and bold when `error`: the app's `.error` rule), or nothing if empty."""
        self.update(message)
        self.set_class(error, "error")
        self.display = bool(message)
