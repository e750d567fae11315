"""Helpers for the Alhambra dice game's tests: dice, whole turns and the prize phase in a line each."""

from __future__ import annotations

from companion.games.alhambra.buildings import TYPES
from companion.games.alhambra_dice import Ask, Game, MarkerPlaced, PrizeTaken, Rolled, RoundPrepared

ROUND = RoundPrepared(("exchange", "displace", "cancel", "black_die", "vp", "start_player"))
"""Round 1–4 bonus fields: one tile of each kind and the start-player tile on tower."""
LAYOUTS = (
    ROUND.tiles,
    ROUND.tiles,
    ("vp", "vp", "cancel", "black_die", "vp", "start_player"),
    ("vp", "vp", "vp", "vp", "vp", "start_player"),
    ("vp",) * 6,
)
"""Rounds 1–5 laid with the game's 26 bonus tiles."""


def dice(rest: str = "tower", **counts: int) -> tuple[int, ...]:
    """8 white dice: the counts given, the others showing `rest`."""
    out = [counts.get(t, 0) for t in TYPES]
    out[TYPES.index(rest)] += 8 - sum(out)
    return tuple(out)


def turn(game: Game, building: str, *rolls: tuple[int, ...], displace: bool = False) -> None:
    """The active player rolls `rolls` (each all 8 dice) and places a marker in `building`."""
    name = game.names[game.active]
    for shown in rolls:
        game.apply(Rolled(name, shown))
    game.apply(MarkerPlaced(name, building, displace))


def fill(game: Game, building: str = "tower") -> None:
    """The remaining turns of the round: 1 symbol of `building` in 3 rolls each (the worst results)."""
    while game.ask is Ask.ROLL:
        turn(
            game,
            building,
            dice("pavilion", **{building: 1}),
            dice("pavilion", **{building: 1}),
            dice("pavilion", **{building: 1}),
        )


def settle(
    game: Game, choices: dict[str, str] | None = None, value: int = 2, start: str | None = None
) -> None:
    """Answer the prize phase: the best marker takes `choices[building]` (default 2 building points), the
    second best the other prize; a VP tile is worth `value`; the start-player tile names `start`."""
    while game.ask is Ask.PRIZE:
        expected = game.expectation()
        if expected.auto is not None:
            game.apply(expected.auto)
            continue
        assert expected.building is not None and expected.player is not None
        prize = (choices or {}).get(expected.building, "points")
        if prize not in expected.prizes:
            prize = expected.prizes[0]
        tile = expected.tile if prize == "tile" else None
        named = None
        if tile == "start_player":
            named = start or game.names[0]
        game.apply(
            PrizeTaken(expected.player, expected.building, prize, value if tile == "vp" else None, (), named)
        )
