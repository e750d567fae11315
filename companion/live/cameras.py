"""One camera adapter per game: what the game expects now -> the camera's proposal for it -> the event that
enters it. A game's screen and its headless demo both turn a settled reading into a move through their
game's adapter, so the demos measure the path the table takes.

A proposal is sure when every die it needs was read at `SURE_READ` or more: the screen enters it unasked;
else the players are asked (`k` or ctrl+k accepts a complete one, typed dice fix it).
"""

from __future__ import annotations

from collections.abc import Sequence

from calibration.faces import CATAPULT, KNIGHT
from companion.games import alhambra_dice as ad
from companion.games import alhambra_rw as rw
from companion.games import carcassonne_dice as cd
from companion.games.alhambra.buildings import TYPES
from vision.reading import DiceReading
from vision.symbols.profile import SymbolProfile

from .city import not_a_city_profile
from .match import FaceProposal, Proposal, propose, propose_city_roll, propose_faces
from .pip_die import PipDie


class RollAndWriteCamera:
    """Roll & Write: yellow and blue pip dice for the roll the game waits for."""

    @staticmethod
    def proposal(reading: DiceReading, exp: rw.Expectation) -> Proposal | None:
        """None when the game waits for no dice now."""
        return propose(reading, exp)

    @staticmethod
    def event(
        dice: Sequence[PipDie], exp: rw.Expectation, source: str, note: str = "", frame: str = ""
    ) -> rw.Roll | None:
        """The roll of these dice for whoever rolls now (None: nobody rolls now); the engine checks them.
        `frame`: the camera's picture of them kept beside the log."""
        if exp.player is None or exp.yellow + exp.blue == 0:
            return None
        yellow = tuple(d.value for d in dice if d.colour == "yellow")
        blue = tuple(d.value for d in dice if d.colour == "blue")
        return rw.Roll(exp.player, yellow, blue, source=source, note=note, frame=frame)

    @staticmethod
    def unused(profile: SymbolProfile) -> str:
        """Why the taught symbol dice are left out: pip dice are read as without them (`feed.pips_only`)."""
        return (
            f"the camera's taught dice ({', '.join(profile.labels)}) are for the symbol dice games, not used"
            " here: Roll & Write's pip dice are read without them"
        )


class AlhambraDiceCamera:
    """Alhambra – the dice game: the white dice counted by face, the black die set aside lying among them."""

    @staticmethod
    def proposal(reading: DiceReading, exp: ad.Expectation, state: ad.GameState) -> FaceProposal | None:
        """None when the game waits for no roll now."""
        if exp.ask not in (ad.Ask.ROLL, ad.Ask.CHOOSE) or exp.player is None:
            return None
        return propose_faces(reading, TYPES, exp.dice, state.black)

    @staticmethod
    def event(counts: tuple[int, ...], exp: ad.Expectation, source: str, note: str = "") -> ad.Rolled | None:
        return None if exp.player is None else ad.Rolled(exp.player, counts, source=source, note=note)

    @staticmethod
    def untaught(profile: SymbolProfile) -> str:
        """Why the taught dice cannot be counted for this game, or ""."""
        missing = [t for t in TYPES if t not in profile.labels]
        return _untaught(profile, missing, "alhambra")


class CarcassonneDiceCamera:
    """Carcassonne – the dice game: city, knight and catapult faces, with the dice built and kept this turn
    lying there too."""

    @staticmethod
    def proposal(
        reading: DiceReading, exp: cd.Expectation, state: cd.GameState, city_faces: tuple[str, ...]
    ) -> FaceProposal | None:
        """None when nobody rolls now; `city_faces`: the taught faces that show city."""
        if exp.player is None:
            return None
        faces = tuple(f for f in city_faces if f not in (KNIGHT, CATAPULT))
        return propose_city_roll(reading, faces, exp.dice, len(state.built), state.knights)

    @staticmethod
    def event(counts: tuple[int, ...], exp: cd.Expectation, source: str, note: str = "") -> cd.Rolled | None:
        if exp.player is None:
            return None
        city, knights, catapults = counts
        return cd.Rolled(exp.player, city, knights, catapults, source=source, note=note)

    @staticmethod
    def untaught(profile: SymbolProfile) -> str:
        """Why the taught dice cannot be counted for this game, or ""."""
        missing = [f for f in (KNIGHT, CATAPULT) if f not in profile.labels]
        if not_a_city_profile(profile):
            missing.insert(0, "a city face")
        return _untaught(profile, missing, "carcassonne")


def _untaught(profile: SymbolProfile, missing: Sequence[str], preset: str) -> str:
    """The taught dice of another game (or taught in part) were counted as no roll at all, unsaid."""
    if not missing:
        return ""
    return (
        f"the camera's dice ({', '.join(profile.labels)}) are not this game's ({', '.join(missing)} not"
        f" taught): its rolls are typed; teach them with --preset {preset}"
    )
