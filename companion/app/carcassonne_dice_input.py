"""What the players type during a Carcassonne dice game, turned into the engine's events.

A roll is three counts, city knight catapult (`5 3 1`); after it the player keeps knights (`keep 2`) and
builds city dice, each at its grid cell with its black areas as it lies (`build 4,4:NS 5,4:N/S`: row 4,
col 4 with one area touching north and south; row 5, col 4 with two areas, north and south), and ends the
turn with `stop`, or `hold` to keep a knight for the next turn. Anything that is not a well-formed entry is
refused here with what was wrong; whether a well-formed event is legal now is the engine's to say.
"""

from __future__ import annotations

import re

from companion.games import carcassonne_dice as cd
from companion.games.carcassonne_dice.city import Areas, Pos, parse_area
from companion.games.carcassonne_dice.events import MAX_CELL
from jsonfile import short

HELP = {
    cd.Ask.ROLL: "type the roll: how many dice show a city, a knight, a catapult (`5 3 1`)",
    cd.Ask.GAME_OVER: "the game is over: e shows the final scoring, ctrl+e exports it",
}


def entry_help(exp: cd.Expectation) -> str:
    """The entries open now: a choice's line offers only what the turn allows (no next roll after the
    third, `hold` once 3 knights are kept)."""
    if exp.ask is not cd.Ask.CHOOSE:
        return HELP[exp.ask]
    choices = []
    if exp.keep_knights:
        choices.append("`keep N` (knights)")
    if exp.keep_city:
        choices.append("`build ROW,COL:AREAS …` (`build 4,4:NS 5,4:N/S`)")
    if exp.can_roll:
        choices.append("the next roll's counts")
    choices.append("`stop`")
    if exp.can_hold_knight:
        choices.append("`hold` (keep a knight: no points now, the next turn counts double)")
    return f"type {choices[0]}" if len(choices) == 1 else f"type {', '.join(choices[:-1])}, or {choices[-1]}"


WORDS = ("keep", "build", "stop", "hold")


WHOLE = re.compile(r"-?[0-9]+")
"""A row or column: a city grows past 0 too (from a first die at 1,1 it may go on to 1,-1)."""


class InputError(ValueError):
    """What was typed is not an entry; the message says what is expected."""


def built_die(text: str) -> cd.Built:
    """One city die, `ROW,COL:AREAS`, its areas' edge letters separated by `/` (`4,5:NE/S`)."""
    where, _, areas = text.partition(":")
    row, _, col = where.partition(",")
    if not (WHOLE.fullmatch(row) and WHOLE.fullmatch(col) and areas):
        raise InputError(f"{text!r}: a city die is ROW,COL:AREAS, such as 4,5:NE/S")
    at: Pos = (int(row), int(col))
    if max(map(abs, at)) > MAX_CELL:
        raise InputError(f"{text!r}: rows and columns go from -{MAX_CELL} to {MAX_CELL}")
    try:
        masks: Areas = tuple(parse_area(area) for area in areas.split("/"))
    except ValueError as exc:
        raise InputError(f"{text!r}: {exc}") from None
    return cd.Built(at, masks)


def kept(player: str, words: list[str]) -> cd.Kept:
    """`keep N`, `build DIE …` or both, as one `Kept`."""
    knights: int | None = None
    built: list[cd.Built] = []
    rest = list(words)
    while rest:
        head = rest.pop(0).lower()
        if head == "keep" and knights is not None:
            # The second count replaced the first without a word (`keep 1 build 0,0:S keep 1` kept 1). Another
            # `keep` after the next roll is its own entry: the check is a line's, not a turn's.
            raise InputError(
                f"`keep` is typed once a line: the knights kept from this roll in one count, "
                f"e.g. `keep {knights + 1}`"
            )
        if head == "keep" and rest and rest[0].isdecimal():
            knights = int(rest.pop(0))
        elif head == "build" and rest:
            while rest and rest[0].lower() not in WORDS:
                built.append(built_die(rest.pop(0)))
        else:
            raise InputError(f"{head!r}: type `keep N` for knights, `build ROW,COL:AREAS …` for city dice")
    return cd.Kept(player, knights or 0, tuple(built))


def parse(text: str, state: cd.GameState) -> cd.Event:
    """The event the players typed, for the game as it stands."""
    exp = cd.expectation(state)
    words = text.strip().split()
    if exp.ask is cd.Ask.GAME_OVER or exp.player is None:
        raise InputError(HELP[cd.Ask.GAME_OVER])
    if not words:
        raise InputError(entry_help(exp))
    head, player = words[0].lower(), exp.player
    # A turn's choices go to the engine even before the roll: it says why they must wait.
    if head in ("keep", "build"):
        return kept(player, words)
    if head in ("stop", "hold") and len(words) == 1:
        return cd.TurnEnded(player, hold_knight=head == "hold")
    if all(w.isdecimal() for w in words):
        if len(words) != 3:
            raise InputError(f"type three counts (city knight catapult), not {len(words)}")
        city, knights, catapults = (int(w) for w in words)
        return cd.Rolled(player, city, knights, catapults)
    raise InputError(f"{short(text.strip())} is no entry now: {exp.prompt}; {entry_help(exp)}")
