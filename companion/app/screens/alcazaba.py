"""The Alcazaba variant's screen: the Alhambra dice game's screen (dice, markers, camera, undo, export) with
the variant's board (the building tiles on each column, every player's Alhambra and reserve), its own entries
(`lay`, `take`, `rebuild`: `alcazaba_input`) and the original Alhambra's scoring."""

from __future__ import annotations

from typing import Any, ClassVar

from companion.games import alhambra_dice as ad
from companion.games.alhambra.report import result_text
from companion.games.alhambra.scoring import Result
from companion.games.alhambra_dice.alcazaba import AlcazabaGame

from ..alcazaba_input import HELP, parse
from ..widgets.alhambra_board import marks
from .alhambra_dice import AlhambraDiceScreen


class AlcazabaScreen(AlhambraDiceScreen):
    """Plays one Alcazaba game (an `AlhambraDiceSession` whose `GameStarted` names the variant)."""

    TITLE = "Alhambra – the dice game, Alcazaba"
    ENTRY_HELP: ClassVar[dict[ad.Ask, str]] = HELP

    def player_lines(self, state: ad.GameState, exp: ad.Expectation) -> list[str]:
        """Each player's markers left and those put on the reserve board this round for a rebuild action."""
        view = state.alcazaba
        assert view is not None
        mark = marks(state.names)
        return [
            f"{mark[who]} {name}: {state.markers_left[who]} markers left"
            + (
                f", {view.reserve_board[who]} rebuilt"
                if who < len(view.reserve_board) and view.reserve_board[who]
                else ""
            )
            for who, name in enumerate(state.names)
        ]

    def parse_entry(self, text: str) -> ad.Event:
        return parse(text, self.state, self.rng)

    def _result(self) -> Result | None:
        game = ad.fold(self.session.events)
        assert isinstance(game, AlcazabaGame)
        return game.result()

    def totals(self) -> str:
        result = self._result()
        return "" if result is None else result_text(result).splitlines()[-1]

    def scoring(self) -> dict[str, Any]:
        """The scorings held so far, scored as the original Alhambra, with every reason."""
        result = self._result()
        return {"game": "alhambra", "players": [], "winners": []} if result is None else result.to_json()
