"""Helpers for the Alhambra Roll & Write tests: sheets and scripted set-ups."""

from __future__ import annotations

from companion.games.alhambra_rw import (
    BUILDING_TYPES,
    VARIANTS,
    VERSUS_IMAGINARY,
    Game,
    GameStarted,
    Roll,
    Sheet,
    load_shipped_sheet,
    sheet_from_json,
)
from companion.games.alhambra_rw.engine import IMAGINARY_PLAYERS


def boxes_of(sheet: Sheet, building: str) -> int:
    """A building type's boxes on the score sheet (its cells on the grid)."""
    return sheet.boxes[BUILDING_TYPES.index(building)]


def vp_of(sheet: Sheet, building: str) -> tuple[int, int, int]:
    """A building type's VP row: first, second and third place."""
    return sheet.vp[BUILDING_TYPES.index(building)]


EXAMPLE = load_shipped_sheet("example")
# Example sheet, rows yellow 1–6, columns blue 1–6:
#   P S A C G T / G T P S A C / A C G T P T / S T C A G S / C G T P T A / T A S G C G

# A sheet with only 2 seraglio cells (yellow 1 × blue 1 and yellow 1 × blue 2), to complete a type quickly.
TWO_SERAGLIO = sheet_from_json(
    {
        "name": "two-seraglio",
        "grid": ["SSPPPP", "AAAAAA", "CCCCCC", "GGGGGG", "TTTTTT", "PPPPTG"],
        "coins": 6,
    }
)


REAL = ("Barbara", "Dirk", "Patricia", "Frank", "Ani")
IMAGINARY = ("Marc", "Nora", "Otto", "Pia")
SETUPS = [
    GameStarted(sheet, REAL[:real], IMAGINARY[:imaginary], variant)
    for sheet in (EXAMPLE, TWO_SERAGLIO)
    for real, counts in IMAGINARY_PLAYERS.items()
    for imaginary in counts
    for variant in VARIANTS
    if variant != VERSUS_IMAGINARY or real == 1
]
"""Every set-up the game allows, on two sheets."""

Cell = tuple[int, int]


def roll(name: str, yellow: int, blue: int) -> Roll:
    return Roll(name, (yellow,), (blue,))


def new_game(
    players: tuple[str, ...] = ("Barbara", "Dirk", "Patricia"),
    imaginary: tuple[str, ...] = (),
    variant: str = "standard",
    sheet: object = EXAMPLE,
) -> Game:
    return Game(GameStarted(sheet, players, imaginary, variant))  # type: ignore[arg-type]


def run_setup(
    game: Game,
    crosses: dict[str, list[Cell]] | None = None,
    imaginary_rolls: dict[str, list[Cell]] | None = None,
    fields: dict[str, Cell] | None = None,
    extra: Cell = (1, 1),
) -> None:
    """Feed the whole set-up in the engine's order. Defaults: real player i crosses yellow i+2 × blue 4–6,
    imaginary players roll yellow 6 × blue 6, every pair lands on yellow 1 × blue 1."""
    real = game.setup.players
    crosses = crosses or {n: [((i % 5) + 2, b) for b in (4, 5, 6)] for i, n in enumerate(real)}
    imaginary_rolls = imaginary_rolls or {n: [(6, 6)] * 3 for n in game.setup.imaginary}
    fields = fields or {}
    for k in range(3):
        for name in real:
            game.apply(roll(name, *crosses[name][k]))
    for name in game.setup.imaginary:
        for cell in imaginary_rolls[name]:
            game.apply(roll(name, *cell))
    for name in real:
        game.apply(roll(name, *fields.get(name, (1, 1))))
    game.apply(roll(real[0], *extra))
