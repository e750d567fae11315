"""A random legal player: plays whole games through the real fold (for tests, the benchmark and examples).

Dice are rolled here with a seeded `random.Random`, never inside the engine: every roll becomes a `Rolled`
event, exactly like a camera reading. The player chases the building type most dice show (setting those
aside and rolling the rest), stops at random once it has a few, and uses its bonus tiles when they help, so
that every rule is exercised. In the Alcazaba variant it lays out tiles with walls at random, builds a tile
taken where it fits (now and then into the reserve) and, after roll 1 or 2, sometimes rebuilds from the
reserve.
"""

from __future__ import annotations

import random

from companion.games import folding
from companion.games.alhambra.buildings import TYPES
from companion.games.alhambra.walls import LayoutError

from .alcazaba import BAG, DRAWN, FOUNTAIN, REBUILD_ROLLS, AlcazabaGame, check_alhambra, may_build_beside
from .components import BONUS_TILES, START_TILE, TILE_KINDS
from .engine import BLACK, CANCEL, DICE, DISPLACE, EXCHANGE, MAX_ROLLS, N_TYPES, ROUNDS, Game
from .events import (
    RESERVE,
    SIDES,
    TO_DIRK,
    BlackDieSet,
    BuildingTile,
    Cell,
    Event,
    GameStarted,
    MarkerPlaced,
    PrizeTaken,
    Rebuilt,
    RollCancelled,
    Rolled,
    RoundPrepared,
    TilesLaid,
    TileTaken,
    Where,
)
from .play import new_game
from .state import Ask


def roll(player: str, kept: tuple[int, ...] | None, rng: random.Random) -> Rolled:
    """The dice `kept` set aside (per type) and the others rolled: each shows one of the 6 types."""
    counts = list(kept) if kept else [0] * N_TYPES
    rand = rng.random
    for _ in range(DICE - sum(counts)):
        counts[int(rand() * N_TYPES)] += 1
    return Rolled(player, tuple(counts))


def keep_for(dice: tuple[int, ...], t: int) -> tuple[int, ...]:
    """Set aside the dice showing type t, roll the rest."""
    kept = [0] * N_TYPES
    kept[t] = dice[t]
    return tuple(kept)


def best_type(game: Game) -> int:
    """The type with the most symbols now (the black die included); on equal counts the first."""
    assert game.dice is not None
    counts = list(game.dice)
    if game.black >= 0:
        counts[game.black] += 1
    return counts.index(max(counts))


def prepare(game: Game, rng: random.Random) -> RoundPrepared:
    """Fill the bonus fields from the tiles not yet laid; rounds 1–4 also the start-player tile."""
    pool = [k for i, k in enumerate(TILE_KINDS) for _ in range(BONUS_TILES.counts[k] - game.used[i])]
    final = game.round == ROUNDS
    tiles = rng.sample(pool, N_TYPES if final else N_TYPES - 1)
    if not final:
        tiles.insert(rng.randrange(N_TYPES), START_TILE)
    dirk = TYPES[rng.randrange(N_TYPES)] if game.dirk >= 0 else None
    return RoundPrepared(tuple(tiles), dirk)


def turn_event(game: Game, rng: random.Random) -> Event:
    """The next event of the player whose turn it is (a roll, a bonus tile or the marker)."""
    who = game.active
    name = game.names[who]
    if game.ask is Ask.ROLL:
        return roll(name, None, rng)
    held = game.held[who]
    t = best_type(game)
    if game.black < 0 and held[BLACK]:
        return BlackDieSet(name, TYPES[t])
    if held[CANCEL] and game.rolls > 1 and game.count_of(t) < 3 and rng.random() < 0.5:
        return RollCancelled(name)
    if game.rolls < MAX_ROLLS and game.count_of(t) < 4 + int(rng.random() * 3):
        assert game.dice is not None
        return roll(name, keep_for(game.dice, t), rng)
    slot = game.target_slot(t)
    there = game.board[t][slot]
    return MarkerPlaced(name, TYPES[t], displace=bool(held[DISPLACE]) and there >= 0 and there != who)


def prize_event(game: Game, rng: random.Random) -> Event:
    expected = game.expectation()
    if expected.auto is not None:
        return expected.auto
    who = game.active
    name = game.names[who]
    prize = rng.choice(expected.prizes)
    tile = expected.tile if prize == "tile" else None
    value = rng.randint(1, 3) if tile == "vp" else None
    start = None
    if tile == START_TILE:
        start = game.names[1 - game.caliph] if who == game.dirk else game.names[rng.randrange(game.real)]
    # Now and then an exchange; with two tiles and two points received, now and then both.
    exchange: tuple[str, ...] = ()
    held = game.held[who][EXCHANGE]
    if held and rng.random() < 0.5:
        others = [b for b in TYPES if b != expected.building]
        exchange = (rng.choice(others),)
        if held > 1 and prize == "points" and rng.random() < 0.5:
            exchange += (rng.choice(others),)
    assert expected.building is not None
    return PrizeTaken(name, expected.building, prize, value, exchange, start)


def _tile(building: str, rng: random.Random) -> BuildingTile:
    """A building tile with a wall on each side at random (a third of the sides), as the original's vary."""
    return BuildingTile(building, "".join(side for side in SIDES if rng.random() < 0.3))


def lay_tiles(game: AlcazabaGame, rng: random.Random) -> TilesLaid:
    """Alcazaba: a pile of one tile of each type, 5 drawn from what is left in the bag, and (rounds 1–4) a
    column rolled for the start-player tile."""
    bag = [t for i, t in enumerate(TYPES) for _ in range(BAG[i] - game.drawn_used[i])]
    start = TYPES[rng.randrange(N_TYPES)] if game.round < ROUNDS else None
    return TilesLaid(
        tuple(_tile(t, rng) for t in TYPES), tuple(_tile(t, rng) for t in rng.sample(bag, DRAWN)), start
    )


def place_for(game: AlcazabaGame, who: int, tile: BuildingTile, rng: random.Random) -> Cell | None:
    """A free place next to the player's Alhambra where `tile` may be built (edges matching), or None."""
    alhambra = game.alhambras[who]
    built = [FOUNTAIN, *alhambra]
    around = {(r + dr, c + dc) for r, c in built for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))}
    free = sorted(around - set(built))
    rng.shuffle(free)
    for at in free:
        if not may_build_beside(alhambra, at, tile):
            continue
        try:
            check_alhambra({**alhambra, at: tile})
        except LayoutError:
            continue
        return at
    return None


def alcazaba_event(game: AlcazabaGame, rng: random.Random) -> Event:
    """Alcazaba's own choices: the tiles laid out, a rebuild action now and then, a tile taken and built."""
    if game.ask is Ask.PREPARE:
        return lay_tiles(game, rng)
    who = game.active
    name = game.names[who]
    if game.ask is Ask.CHOOSE:
        reserve = game.reserves[who]
        at = place_for(game, who, reserve[0], rng) if reserve and game.rolls in REBUILD_ROLLS else None
        if at is not None and rng.random() < 0.5:
            return Rebuilt(name, build=0, at=at)
        return turn_event(game, rng)
    expected = game.expectation()
    if expected.auto is not None:
        return expected.auto
    assert expected.building is not None
    if "start_player" in expected.prizes and ("tile" not in expected.prizes or rng.random() < 0.2):
        return TileTaken(name, expected.building, None, start_player=game.names[rng.randrange(game.real)])
    column = [
        k for k, tile in enumerate(game.laid) if tile is not None and tile.building == expected.building
    ]
    i = rng.choice(column)
    tile = game.laid[i]
    assert tile is not None
    # Now and then into the reserve, so that rebuild actions have tiles to build; with Dirk, now and then his.
    place = place_for(game, who, tile, rng) if rng.random() < 0.85 else None
    where: Where = (
        place if place is not None else TO_DIRK if game.dirk >= 0 and rng.random() < 0.3 else RESERVE
    )
    return TileTaken(name, expected.building, i, where)


def next_event(game: Game, rng: random.Random) -> Event:
    if isinstance(game, AlcazabaGame) and game.ask is not Ask.ROLL:
        return alcazaba_event(game, rng)
    if game.ask is Ask.PREPARE:
        return prepare(game, rng)
    if game.ask is Ask.PRIZE:
        return prize_event(game, rng)
    return turn_event(game, rng)


def play_random_game(setup: GameStarted, rng: random.Random) -> tuple[Game, list[Event]]:
    """A whole random game through the fold: the finished game and its events (`GameStarted` first)."""
    game = new_game(setup)
    play_out(game, rng)
    return game, list(game.log)


def play_out(game: Game, rng: random.Random) -> None:
    """Play `game` on to its end with the random player's choices (its log keeps the events)."""
    folding.play_out(game, lambda: (next_event(game, rng),))
