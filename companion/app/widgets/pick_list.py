"""An option list a click picks from before it opens: Textual's opened the option clicked at once."""

from __future__ import annotations

from textual.events import Click
from textual.widgets import OptionList


class PickList(OptionList):
    """A click highlights the option under it; a click on the option already highlighted, or Enter, selects
    it. A single click opened a saved game, so a mouse could not choose one to delete (del) or look at a past
    game's plot without opening it."""

    def on_click(self, event: Click) -> None:
        clicked = event.style.meta.get("option")
        if isinstance(clicked, int) and clicked != self.highlighted:
            if not self.get_option_at_index(clicked).disabled:
                self.highlighted = clicked
            event.prevent_default()  # OptionList's own click handler would select it
