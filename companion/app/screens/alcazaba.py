"""The Alcazaba variant's screen: the Alhambra dice game's screen (dice, markers, camera, undo, export) with
the variant's board (the building tiles on each column, every player's Alhambra and reserve), its own entries
(`lay`, `take`, `rebuild`: `alcazaba_input`) and the original Alhambra's scoring."""

from __future__ import annotations

from companion.games import alhambra_dice as ad
from companion.games.alhambra.report import scoring_text, totals_line
from companion.games.alhambra.scoring import Result
from companion.games.alhambra_dice.alcazaba import AlcazabaGame
from companion.games.alhambra_dice.entry import ENTRY

from ..alcazaba_input import HELP, parse
from ..alhambra_scored import alhambra_scored
from ..export import EndScoring
from .alhambra_dice import AlhambraDiceScreen
from .help import ALCAZABA


class AlcazabaScreen(AlhambraDiceScreen):
    """Plays one Alcazaba game (an `AlhambraDiceSession` whose `GameStarted` names the variant)."""

    TITLE = f"{ENTRY.title}, Alcazaba"
    HELP_PAGE = ALCAZABA

    def entry_help(self, exp: ad.Expectation) -> str:
        return HELP[exp.ask]

    def parse_entry(self, text: str) -> ad.Event:
        return parse(text, self.state, self.rng)

    def _result(self) -> Result | None:
        game = ad.game_at(self.state)  # the fold the game goes on from: no replay of the whole log
        assert isinstance(game, AlcazabaGame)
        return game.result()

    def totals(self) -> str:
        result = self._result()
        return "" if result is None else totals_line(result)

    def scored(self) -> EndScoring:
        """The scorings held so far, scored as the original Alhambra, with every reason."""
        result = self._result()
        if result is None:
            names = self.state.names
            none = {"game": "alhambra", "players": [], "winners": []}
            return EndScoring(
                ENTRY.id, self.TITLE, False, tuple((n, 0) for n in names), (), "no scoring yet", none
            )
        return alhambra_scored(ENTRY.id, self.TITLE, self.state.is_over, result)

    def scorings_held(self) -> int:
        result = self._result()
        return 0 if result is None else len(result.players[0].scorings)

    def scoring_held(self) -> tuple[str, str]:
        result = self._result()
        assert result is not None, "asked after a scoring was held"
        n = len(result.players[0].scorings) - 1
        return f"Scoring {n + 1} (the original Alhambra's)", scoring_text(result, n)
