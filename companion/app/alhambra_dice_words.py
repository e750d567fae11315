"""Words for what happened in an Alhambra dice game (the standard game and Alcazaba): the lines of the game
log on screen, one event at a time.

Only wording lives here; what an event did is read from the engine's states before and after it.
"""

from __future__ import annotations

from companion.games import alhambra_dice as ad
from companion.games.alhambra.buildings import TYPES
from companion.games.alhambra_dice.engine import DIRK_LINES, field_text
from companion.games.alhambra_dice.events import ALCAZABA, RESERVE, TO_DIRK, BuildingTile, Cell
from companion.games.alhambra_dice.scoring import LETTERS
from companion.games.words import listed

PLURAL = {"pavilion": "pavilions", "seraglio": "seraglios", "garden": "gardens", "tower": "towers"}
"""Arcades and chambers are one building type's name however many dice show it."""
TILES = {"vp": "VP", "black_die": "black-die", "start_player": "start-player"}


def symbols(n: int, building: str) -> str:
    """`2 pavilions`, `1 seraglio`, `3 arcades`."""
    return f"{n} {PLURAL.get(building, building) if n != 1 else building}"


def roll_text(event: ad.Rolled) -> str:
    """The faces a roll showed: `5 towers, 3 gardens`."""
    return ", ".join(symbols(n, b) for b, n in zip(TYPES, event.dice, strict=True) if n)


def tile_text(tile: str) -> str:
    """A bonus tile as the players name it: `the VP tile`, `the black-die tile`."""
    return f"the {TILES.get(tile, tile)} tile"


def building_tile(tile: BuildingTile) -> str:
    """An Alcazaba building tile: `garden (walls NE)`, `tower (no walls)`."""
    return f"{tile.building} ({'walls ' + tile.walls if tile.walls else 'no walls'})"


def cell_text(at: Cell) -> str:
    return f"row {at[0]}, col {at[1]}"


def describe(before: ad.GameState, event: ad.Event, after: ad.GameState) -> list[str]:
    """Log lines for `event`, which turned `before` into `after`: the event in the players' words, then any
    scoring it brought and the end of the game."""
    if isinstance(event, ad.GameStarted):
        names = ", ".join(after.names[: len(event.players)])
        dirk = f", {after.names[after.dirk]} (imaginary)" if after.dirk is not None else ""
        variant = " of Alcazaba" if event.variant == ALCAZABA else ""
        return [f"New game{variant}: {names}{dirk}"]
    lines = _event_lines(before, event, after)
    for n in range(len(before.standings), len(after.standings)):
        lines.append(f"Scoring {LETTERS[n]} is held")
    if after.alcazaba is not None and before.alcazaba is not None:
        for n in range(len(before.alcazaba.holdings), len(after.alcazaba.holdings)):
            lines.append(f"Scoring {LETTERS[n]} is held")
    if after.is_over and not before.is_over:
        lines.append("The game is over after scoring C")
    return lines


def _event_lines(before: ad.GameState, event: ad.Event, after: ad.GameState) -> list[str]:
    assert not isinstance(event, ad.GameStarted), "the set-up is worded by `describe`"
    if isinstance(event, ad.RoundPrepared):
        laid = ", ".join(f"{b} {TILES.get(t, t)}" for b, t in zip(TYPES, event.tiles, strict=True))
        dirk = f"; Dirk's markers from {event.dirk_column} on" if event.dirk_column else ""
        return [f"Round {before.round}: bonus tiles {laid}{dirk}"]
    if isinstance(event, ad.TilesLaid):
        drawn = ", ".join(building_tile(t) for t in event.drawn)
        start = f"; the start-player tile on {event.start_column}" if event.start_column else ""
        # Dirk's markers go on the board with the tiles (`AlcazabaGame`): unsaid, five markers appeared there.
        fields = zip(DIRK_LINES, event.drawn, strict=False)  # a bag run short draws fewer
        dirk = (
            f"; Dirk's markers on {', '.join(f'{t.building} line {n}' for n, t in fields)}"
            if after.dirk is not None
            else ""
        )
        return [f"Round {before.round}: a pile of one tile of each type and {drawn} laid out{start}{dirk}"]
    who = event.player
    if isinstance(event, ad.Rolled):
        source = f", {event.read_by}" if event.read_by else ""
        lines = [f"{who} rolled {roll_text(event)} (roll {after.rolls}{source})"]
        return lines + ([f"  ({event.note})"] if event.note else [])
    if isinstance(event, ad.RollCancelled):
        return [f"{who} cancelled roll {before.rolls} with a cancel tile: the dice are as before it"]
    if isinstance(event, ad.BlackDieSet):
        return [f"{who} set the black die on the {PLURAL.get(event.building, event.building)}"]
    if isinstance(event, ad.MarkerPlaced):
        return [_placed(before, event, after)]
    if isinstance(event, ad.PrizeTaken):
        return [_prize(before, event)]
    if isinstance(event, ad.TileTaken):
        return [_tile_taken(before, event)]
    return [_rebuilt(before, event)]


def _placed(before: ad.GameState, event: ad.MarkerPlaced, after: ad.GameState) -> str:
    t = TYPES.index(event.building)
    who = after.names.index(event.player)
    count = (before.dice or (0,) * len(TYPES))[t] + (before.black == event.building)
    result = f"{symbols(count, event.building)} in {before.rolls} roll{'s' if before.rolls != 1 else ''}"
    old, new = before.board[t], after.board[t]
    slot = next((s for s in range(len(new)) if new[s] == who and old[s] != who), None)
    where = "no field left: out for the round" if slot is None else field_text(slot)
    owner = None if slot is None else old[slot]
    whose = "the" if owner is None else f"{after.names[owner]}'s"
    displaced = f", displacing {whose} marker there" if event.displace else ""
    return f"{event.player} placed a marker on {event.building}, {where} ({result}){displaced}"


def _prize(before: ad.GameState, event: ad.PrizeTaken) -> str:
    expected = ad.expectation(before)
    if event.prize == "points":
        prize = f"2 building points in {event.building}"
    else:
        tile = before.offer[TYPES.index(event.building)] or ""
        prize = f"1 building point in {event.building} and {tile_text(tile)}"
        if event.value is not None:
            prize += f" ({event.value} VP)"
    if event.exchange:
        prize += f", exchanged for {listed(event.exchange)}"
    if event.start_player is not None:
        prize += f": {event.start_player} is the next start player"
    if expected.auto == event:
        why = "Dirk's prize is fixed" if event.player == ad.DIRK else "the only prize left"
        return f"{event.player} is given {prize} ({why})"
    return f"{event.player} took {prize}"


def _tile_taken(before: ad.GameState, event: ad.TileTaken) -> str:
    if event.tile is None:
        return f"{event.player} took the start-player tile: {event.start_player} is the next start player"
    # The engine took the event: the tile it names lay on the column.
    assert before.alcazaba is not None
    laid = before.alcazaba.laid[event.tile]
    assert laid is not None
    tile = building_tile(laid)
    if event.at == RESERVE:
        where = "put it into the reserve"
    elif event.at == TO_DIRK:
        where = "gave it to Dirk"
    elif event.at is None:
        where = "Dirk keeps it"
    else:
        where = f"built it at {cell_text(event.at)}"
    return f"{event.player} took {tile} and {where}"


def _rebuilt(before: ad.GameState, event: ad.Rebuilt) -> str:
    assert before.alcazaba is not None
    reserve = before.alcazaba.reserves[before.names.index(event.player)]
    built = "" if event.build is None else building_tile(reserve[event.build])
    if event.remove is not None and event.build is not None:
        done = f"exchanged the tile at {cell_text(event.remove)} for {built} from the reserve"
    elif event.remove is not None:
        done = f"moved the tile at {cell_text(event.remove)} into the reserve"
    else:
        at = f" at {cell_text(event.at)}" if event.at is not None else ""
        done = f"built {built} from the reserve{at}"
    return f"{event.player} skipped the marker to rebuild: {done}"
