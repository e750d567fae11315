"""What the players type in the Alcazaba variant of the Alhambra dice game, turned into the engine's events.

The dice and the markers are typed as in the standard game (`alhambra_dice_input`); the variant's own entries:

- `lay TILE x 11 [start TYPE]`: the round's tiles, the pile's 6 then the 5 drawn in the order drawn, each a
  building type (or its first letter) with its walled sides after a slash (`garden/NES`, `t` for a tower
  without walls); `start TYPE` names the column rolled for the start-player tile (rounds 1–4).
- `take N at ROW COL`, `take N reserve`, `take N dirk`, `take start NAME`: the best marker's tile of choice.
- `rebuild remove ROW COL`, `rebuild build N at ROW COL`, `rebuild remove ROW COL build N`: a rebuild action.

What is not well formed is refused here with what was wrong; whether it is legal now is the engine's to say.
"""

from __future__ import annotations

import random

from companion.games import alhambra_dice as ad
from companion.games.alhambra_dice.alcazaba import DRAWN
from companion.games.alhambra_dice.engine import N_TYPES
from companion.games.alhambra_dice.events import RESERVE, SIDES, TO_DIRK, Cell, Where
from jsonfile import short

from . import alhambra_dice_input as standard
from .alhambra_dice_input import InputError, building, next_start_player

REBUILD = (
    "after roll 1 or 2, instead of the marker: `rebuild remove ROW COL`, `rebuild build N at ROW COL` or "
    "`rebuild remove ROW COL build N`"
)
HELP = {
    ad.Ask.PREPARE: f"type `lay` and the round's tiles, the pile's {N_TYPES} then the {DRAWN} drawn, each "
    "TYPE or TYPE/WALLS, then `start TYPE` (rounds 1-4), e.g. `lay p s a c g/N t g/NE t p a c start g`",
    ad.Ask.ROLL: standard.HELP[ad.Ask.ROLL],
    # The standard game's bonus tiles (displace, cancel, the black die) are none of the variant's.
    ad.Ask.CHOOSE: f"type the next roll's dice or `place TYPE`; {REBUILD}",
    ad.Ask.PRIZE: "type `take N at ROW COL` (build tile N there), `take N reserve`, `take N dirk` (2 "
    "players) or `take start NAME` (the start-player tile, naming the next start player)",
    ad.Ask.GAME_OVER: standard.HELP[ad.Ask.GAME_OVER],
}


def tile(word: str) -> ad.BuildingTile:
    """`garden/NES`: a building type (or its first letter) and the sides carrying a wall."""
    kind, _, walls = word.partition("/")
    sides = walls.upper()
    if any(s not in SIDES for s in sides) or len(set(sides)) != len(sides):
        raise InputError(f"{word!r}: the walls after the slash are sides among N, E, S, W, each once")
    return ad.BuildingTile(building(kind), "".join(s for s in SIDES if s in sides))


def _number(word: str, what: str) -> int:
    try:
        return int(word)
    except ValueError:
        raise InputError(f"{word!r} is no {what}: a whole number") from None


def _cell(words: list[str], what: str) -> Cell:
    if len(words) < 2:
        raise InputError(f"{what}: give ROW COL, e.g. `0 1`")
    return (_number(words[0], "row"), _number(words[1], "column"))


def _laid(rest: list[str]) -> ad.TilesLaid:
    start = None
    if "start" in rest:
        at = rest.index("start")
        if at != len(rest) - 2:
            raise InputError("`start TYPE` comes last: the column rolled for the start-player tile")
        start = building(rest[-1])
        rest = rest[:at]
    if len(rest) != N_TYPES + DRAWN:
        raise InputError(f"{len(rest)} tiles typed: the pile's {N_TYPES}, then the {DRAWN} drawn")
    tiles = tuple(tile(w) for w in rest)
    return ad.TilesLaid(tiles[:N_TYPES], tiles[N_TYPES:], start)


def _taken(rest: list[str], state: ad.GameState, exp: ad.Expectation) -> ad.TileTaken:
    assert exp.player is not None and exp.building is not None
    keys = [w.lower() for w in rest]  # `Dirk` as the screen writes him, `Reserve` at a line's start
    if keys[:1] == ["start"]:
        if len(rest) < 2:
            raise InputError("`take start NAME`: name the next start player")
        return ad.TileTaken(
            exp.player, exp.building, None, start_player=next_start_player(rest[1:], state.names)
        )
    if len(rest) < 2:
        raise InputError(HELP[ad.Ask.PRIZE])
    number = _number(rest[0], "tile number")
    if number < 0:
        raise InputError(f"{rest[0]!r} is no tile number: 0 or more")
    where: Where
    if keys[1:] == [RESERVE]:
        where = RESERVE
    elif keys[1:] == [TO_DIRK]:
        where = TO_DIRK
    elif keys[1] == "at" and len(rest) == 4:
        where = _cell(rest[2:], "at")
    else:
        raise InputError(HELP[ad.Ask.PRIZE])
    return ad.TileTaken(exp.player, exp.building, number, where)


def _rebuilt(rest: list[str], player: str) -> ad.Rebuilt:
    remove = build = at = None
    words = list(rest)
    while words:
        head = words.pop(0)
        if head == "remove":
            remove, words = _cell(words, "remove"), words[2:]
        elif head == "build" and words:
            build = _number(words.pop(0), "reserve tile number")
        elif head == "at":
            at, words = _cell(words, "at"), words[2:]
        else:
            raise InputError(REBUILD)
    if build is not None and build < 0:
        raise InputError("a reserve tile number is 0 or more")
    return ad.Rebuilt(player, remove, build, at)


def parse(text: str, state: ad.GameState, rng: random.Random) -> ad.Event:
    """The event the players typed in an Alcazaba game as it stands."""
    exp = ad.expectation(state)
    words = text.strip().split()
    if not words:
        raise InputError(HELP[exp.ask])
    head, rest = words[0].lower(), words[1:]
    if head == "lay" and exp.ask is ad.Ask.PREPARE:
        return _laid(rest)
    if head == "take" and exp.ask is ad.Ask.PRIZE:
        return _taken(rest, state, exp)
    if head == "rebuild" and exp.ask in (ad.Ask.ROLL, ad.Ask.CHOOSE):
        return _rebuilt(rest, exp.player or "")
    if exp.ask in (ad.Ask.ROLL, ad.Ask.CHOOSE):
        return standard.parse(text, state, rng)
    raise InputError(f"{short(text.strip())} is no entry now: {exp.prompt}; {HELP[exp.ask]}")
