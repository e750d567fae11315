"""What the players type during an Alhambra dice game, turned into the engine's events.

Dice are typed as six counts in the board's order (`0 3 1 2 1 1`) or as the eight symbols by their first
letters (`ssaacggt`); the turn's choices and the prizes as short words (`place garden`, `points`, `tile 2`).
Anything that is not a well-formed entry is refused here with what was wrong; whether a well-formed event is
legal now is the engine's to say.
"""

from __future__ import annotations

import random

from companion.games import alhambra_dice as ad
from companion.games.alhambra.buildings import TYPES
from companion.games.alhambra_dice.simulate import prepare
from jsonfile import short

DICE = 8
LETTERS = {t[0]: t for t in TYPES}
"""Each building type by its first letter: p s a c g t."""

HELP = {
    ad.Ask.PREPARE: "type `draw` to lay this round's bonus tiles at random, or the tile on each column "
    "(`tiles vp cancel start vp exchange vp`; 2 players: add `dirk TYPE`, the column rolled for Dirk)",
    ad.Ask.ROLL: "type the dice: six counts (`0 3 1 2 1 1`) or the symbols (`ssaacggt`)",
    ad.Ask.CHOOSE: "type the next roll's dice, `place TYPE` (`place TYPE displace`), `cancel`, `black TYPE`",
    ad.Ask.GAME_OVER: "the game is over: e shows the final scoring, ctrl+e exports it",
}
TILE_ENTRY = {
    "vp": "`tile 1`-`tile 3` (the VP tile's value)",
    "start_player": "`tile NAME` (the next start player)",
}
"""How the tile prize is typed where its bonus tile asks for more than the word."""


def entry_help(exp: ad.Expectation) -> str:
    """The entries open now: a prize's line offers only the prizes left (the second best takes the other)."""
    if exp.ask is not ad.Ask.PRIZE:
        return HELP[exp.ask]
    offered = ["`points`" if p == "points" else TILE_ENTRY.get(exp.tile or "", "`tile`") for p in exp.prizes]
    return f"type {' or '.join(offered)}; add `exchange TYPE` to use an exchange tile (twice with two tiles)"


TILE_WORDS = {"vp": "vp", "exchange": "exchange", "displace": "displace", "cancel": "cancel",
              "black": "black_die", "black_die": "black_die", "start": "start_player",
              "start_player": "start_player"}  # fmt: skip


OTHER_WORDS = ("draw", "tiles", "points", "tile")
"""The words of the round's start and of the prizes: typed during a turn, they are no dice."""


class InputError(ValueError):
    """What was typed is not an entry; the message says what is expected."""


def building(word: str) -> str:
    """A building type by name (the advice's plural too: `black towers`), its start or first letter."""
    word = word.lower()
    found = (
        LETTERS.get(word)
        if len(word) == 1
        else next((t for t in TYPES if t.startswith(word) or word == f"{t}s"), None)
    )
    if found is None:
        raise InputError(f"{word!r} is no building type ({', '.join(TYPES)}, or p s a c g t)")
    return found


def dice_counts(text: str) -> tuple[int, ...]:
    """The 8 white dice per type from six counts or eight symbol letters."""
    words = text.split()
    if words and all(w.isdecimal() for w in words):
        if len(words) != len(TYPES):
            raise InputError(f"type six counts (pavilion … tower), not {len(words)}")
        counts = tuple(int(w) for w in words)
        if sum(counts) != DICE:
            raise InputError(f"the counts add up to {sum(counts)}: the roll shows all {DICE} dice")
        return counts
    letters = "".join(words).lower()
    bad = sorted({c for c in letters if c not in LETTERS})
    if bad:
        raise InputError(f"{bad[0]!r} is no symbol: p s a c g t, or six counts")
    if len(letters) != DICE:
        raise InputError(f"{len(letters)} symbols typed: the roll shows all {DICE} dice")
    return tuple(letters.count(t[0]) for t in TYPES)


def parse(text: str, state: ad.GameState, rng: random.Random) -> ad.Event:
    """The event the players typed, for the game as it stands (`rng` draws the tiles for `draw`)."""
    exp = ad.expectation(state)
    words = text.strip().split()
    if not words:
        raise InputError(entry_help(exp))
    head, rest = words[0].lower(), words[1:]
    player = exp.player or ""
    if exp.ask is ad.Ask.PREPARE:
        if head == "draw":
            return prepare(ad.fold(state.log), rng)
        if head == "tiles":
            dirk = None
            lowered = [w.lower() for w in rest]  # the screen writes him "Dirk"
            if "dirk" in lowered[:-1]:
                dirk = building(rest[lowered.index("dirk") + 1])
                rest = rest[: lowered.index("dirk")]
            return ad.RoundPrepared(tuple(_tile(w) for w in rest), dirk)
        raise InputError(HELP[exp.ask])
    if exp.ask in (ad.Ask.ROLL, ad.Ask.CHOOSE):
        # The turn's choices go to the engine even before the first roll: it says why they must wait.
        if head == "place" and rest:
            return ad.MarkerPlaced(player, building(rest[0]), displace="displace" in rest[1:])
        if head == "cancel":
            return ad.RollCancelled(player)
        if head == "black" and len(rest) == 1:
            return ad.BlackDieSet(player, building(rest[0]))
        if head in OTHER_WORDS:
            raise InputError(f"{head!r} is not for now: {exp.prompt}")
        return ad.Rolled(player, dice_counts(text), source="keyboard")
    if exp.ask is ad.Ask.PRIZE and head in ("points", "tile"):
        return _prize(head, rest, state, exp)
    raise InputError(f"{short(text.strip())} is no entry now: {exp.prompt}; {entry_help(exp)}")


def next_start_player(words: list[str], names: tuple[str, ...]) -> str:
    """The player `words` name for the start-player tile: as written, else with case ignored (a name typed in
    a hurry); "Ann" names Ann where an older game also seats "ann"."""
    typed = " ".join(words)
    named = [n for n in names if n == typed] or [n for n in names if n.lower() == typed.lower()]
    if named:
        return named[0]
    raise InputError(f"the start-player tile: name the next start player ({', '.join(names)})")


def _tile(word: str) -> str:
    tile = TILE_WORDS.get(word.lower())
    if tile is None:
        raise InputError(f"{word!r} is no bonus tile (vp, exchange, displace, cancel, black, start)")
    return tile


def _prize(head: str, rest: list[str], state: ad.GameState, exp: ad.Expectation) -> ad.Event:
    value: int | None = None
    start: str | None = None
    # Typed without `exchange`, no exchange tile is used: the line says so (the log keeps `"exchange": []`).
    exchange: list[str] = []
    words = [w.lower() for w in rest]  # names are matched without case too
    while "exchange" in words:
        at = words.index("exchange")
        if at + 1 >= len(words):
            raise InputError("exchange TYPE: name the type the building point goes to")
        exchange.append(building(words[at + 1]))
        del words[at : at + 2]
    if head == "tile" and exp.tile == "vp":
        if len(words) != 1 or words[0] not in ("1", "2", "3"):
            raise InputError("a VP tile: type its printed value, `tile 1`, `tile 2` or `tile 3`")
        value = int(words[0])
    elif head == "tile" and exp.tile == "start_player":
        start = next_start_player(words, state.names)
    elif words:
        raise InputError(f"unexpected {' '.join(words)!r}: {entry_help(exp)}")
    assert exp.player is not None and exp.building is not None
    return ad.PrizeTaken(exp.player, exp.building, head, value, tuple(exchange), start)
