"""A screen's message line: why an entry was refused, a turn's score, what the camera read; and how every
refusal or error looks, in a message line or in a widget's own text.

It belongs just above the entry line (or the footer), outside any scrolling part of the screen: at 80×24 the
end of a scrolling middle lies below the fold, and a refusal said there made an entry seem to do nothing.
Empty, it gives its line back.
"""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual.widget import Widget
from textual.widgets import Static

ERROR = "error"
"""The class of a refusal or an error: app.tcss alone says how one looks (under NO_COLOR too). A widget that
writes one into its own text lists it in its COMPONENT_CLASSES and styles it with `error_style`."""


def error_style(widget: Widget) -> Style:
    """How a refusal or an error looks in `widget`'s text: the app's `.error` rule."""
    return widget.get_component_rich_style(ERROR, partial=True)


class MessageLine(Static):
    DEFAULT_CSS = """
    MessageLine {
        height: auto;
        max-height: 50vh;
    }
    """

    def say(self, message: str | Text, error: bool = False) -> None:
        """Show `message` (looking as the app's `.error` rule says when `error`), or nothing if empty. A text
        is shown as it reads, never as markup: what is said holds players' names (`[b]Ann`, `Ann[/]`)."""
        self.update(Text(message) if isinstance(message, str) else message)
        self.set_class(error, ERROR)
        self.display = bool(message)
