"""End-state JSON input for `companion score`: the sheets as they are when the game ends, validated.

Errors name the field, e.g. `players[1].grid[3]: must be 6 characters of X (crossed) or . (free)`.
"""

from __future__ import annotations

from pathlib import Path

from companion.games.words import listed
from jsonfile import refuse_unknown, short, shown, whole_number

from .engine import SETUP_BUILDINGS, TWO_BUILDINGS_COST, IllegalMove, start
from .events import GAME_ID, VARIANTS, GameStarted
from .scoring import Completion, EndState, PlayerRecord, ScoreError
from .sheet import (
    BUILDING_TYPES,
    STARTING_COINS,
    Sheet,
    SheetError,
    load_sheet,
    load_shipped_sheet,
    sheet_from_json,
    sheets_in,
    shipped_sheets,
)
from .state import rounds_for


class EndStateError(ValueError):
    """An end-state file is invalid; the message names the field."""


def end_state_from_json(data: object, sheets_dir: Path | None = None) -> EndState:
    """Validate an end-state object and build an `EndState`; a sheet named is looked up among the players'
    own in `sheets_dir` (the app's folder of them; None: none), then the shipped ones."""
    if not isinstance(data, dict):
        raise EndStateError("the end state must be a JSON object")
    refuse_unknown(data, ("game", "sheet", "variant", "players", "completions"), "", EndStateError)
    if data.get("game", GAME_ID) != GAME_ID:
        raise EndStateError(f"game: must be {GAME_ID!r}, got {short(data.get('game'))}")
    try:
        sheet = _sheet(data.get("sheet"), sheets_dir)
    except SheetError as exc:
        raise EndStateError(str(exc)) from exc
    variant = data.get("variant", "standard")
    if variant not in VARIANTS:
        raise EndStateError(f"variant: must be one of {', '.join(VARIANTS)}, got {short(variant)}")
    raw_players = data.get("players")
    if not isinstance(raw_players, list) or not raw_players:
        raise EndStateError("players: must be a non-empty list")
    players = tuple(_player(p, f"players[{i}]", sheet) for i, p in enumerate(raw_players))
    try:
        # The players a game could have been started with: the engine's own set-up rules.
        start(
            GameStarted(
                sheet,
                tuple(p.name for p in players if not p.imaginary),
                tuple(p.name for p in players if p.imaginary),
                variant,
            )
        )
    except IllegalMove as exc:
        raise EndStateError(f"players: {exc}") from exc
    rounds = rounds_for(len(players))
    completions = _completions(data.get("completions", []), players, sheet.boxes, rounds)
    _check_buildings_made(players, rounds)
    return EndState(sheet, variant, players, completions)


def _sheet(data: object, sheets_dir: Path | None) -> Sheet:
    """The sheet an end state gives inline or names: a sheet the players typed (F2) is theirs by name too."""
    if not isinstance(data, str):
        return sheet_from_json(data)
    yours = sheets_in(sheets_dir) if sheets_dir is not None else {}
    if data in yours:
        try:
            return load_sheet(yours[data])
        except SheetError as exc:
            raise SheetError(f"sheet: {exc}") from exc
    if sheets_dir is not None and data not in shipped_sheets():
        raise SheetError(
            f"sheet: no sheet of yours or shipped named {short(data)} (yours, in {sheets_dir}: "
            f"{', '.join(yours) or 'none'}; shipped: {', '.join(shipped_sheets())})"
        )
    return load_shipped_sheet(data)


def _check_buildings_made(players: tuple[PlayerRecord, ...], rounds: int) -> None:
    """Refuse sheets no game ends with: every player crosses 3 buildings at set-up, and an imaginary player
    gets exactly one more each round (rolled again while its type is full, so a round never passes it by);
    a real player crosses at most 2 a turn, the second paid with coins (`_most_buildings`)."""
    for i, p in enumerate(players):
        made = sum(p.counts)
        if p.imaginary and made != SETUP_BUILDINGS + rounds:
            raise EndStateError(
                f"players[{i}].buildings: imaginary {shown(p.name)} has {made} buildings, but gets "
                f"{SETUP_BUILDINGS} at set-up and 1 in each of the {rounds} rounds: "
                f"{SETUP_BUILDINGS + rounds} in all"
            )
        if not p.imaginary and made < SETUP_BUILDINGS:
            raise EndStateError(
                f"players[{i}].grid: {shown(p.name)} has {made} crossed cells, but every player crosses "
                f"{SETUP_BUILDINGS} buildings at set-up"
            )
        most = _most_buildings(p, rounds)
        if not p.imaginary and made > most:
            raise EndStateError(
                f"players[{i}].grid: {shown(p.name)} has {made} crossed cells, but crosses at most {most} in "
                f"{rounds} rounds: {_why_most(p)}"
            )


def _most_buildings(p: PlayerRecord, rnd: int) -> int:
    """The most buildings `p` can hold at the end of round `rnd` (0: set-up)."""
    if p.imaginary:
        return SETUP_BUILDINGS + rnd
    # "Two buildings" is the only second crossing in a turn. Changing pips costs coins too, so the coins
    # spent bound the turns with two buildings from above only.
    return SETUP_BUILDINGS + rnd + min(rnd, p.spent // TWO_BUILDINGS_COST)


def _why_most(p: PlayerRecord) -> str:
    if p.imaginary:
        return f"an imaginary player gets {SETUP_BUILDINGS} at set-up and 1 a round"
    two = f'1 more per "two buildings" ({TWO_BUILDINGS_COST} coins)'
    return f"{SETUP_BUILDINGS} at set-up, 1 a turn, and {two}: {p.spent} spent"


def _player(data: object, where: str, sheet: Sheet) -> PlayerRecord:
    if not isinstance(data, dict):
        raise EndStateError(f"{where}: must be an object")
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        raise EndStateError(f"{where}.name: must be a non-empty string")
    imaginary = data.get("imaginary", False)
    if not isinstance(imaginary, bool):
        raise EndStateError(f"{where}.imaginary: must be true or false, got {short(imaginary)}")
    if imaginary:
        refuse_unknown(data, ("name", "imaginary", "buildings"), where, EndStateError)
        return PlayerRecord(name, True, _buildings(data.get("buildings"), f"{where}.buildings", sheet.boxes))
    refuse_unknown(data, ("name", "imaginary", "grid", "coins"), where, EndStateError)
    crossed = _grid(data.get("grid"), f"{where}.grid")
    coins = data.get("coins")
    if not isinstance(coins, dict):
        raise EndStateError(f'{where}.coins: must be {{"circled": N, "spent": N}}')
    refuse_unknown(coins, ("circled", "spent"), f"{where}.coins", EndStateError)
    # Both are written on the sheet, 0 included: a missing one is a file damaged, not a default.
    # Every real player starts with STARTING_COINS circled, and circled coins are never erased.
    circled = whole_number(
        coins.get("circled"), STARTING_COINS, sheet.coins, f"{where}.coins.circled", EndStateError
    )
    what = f"a whole number 0–{circled} (circled)"
    spent = whole_number(coins.get("spent"), 0, circled, f"{where}.coins.spent", EndStateError, what)
    # The score sheet's marks are the grid's crosses counted by type.
    counts = tuple((crossed & mask).bit_count() for mask in sheet.type_masks)
    return PlayerRecord(name, False, counts, crossed, circled, spent)


def _grid(grid: object, where: str) -> int:
    if not isinstance(grid, list) or len(grid) != 6:
        raise EndStateError(f"{where}: must be 6 strings (yellow 1–6)")
    crossed = 0
    for y, row in enumerate(grid):
        if not isinstance(row, str) or len(row) != 6 or any(ch not in "Xx." for ch in row):
            raise EndStateError(
                f"{where}[{y}]: must be 6 characters of X (crossed) or . (free), got {short(row)}"
            )
        for b, ch in enumerate(row):
            if ch in "Xx":
                crossed |= 1 << (y * 6 + b)
    return crossed


def _buildings(data: object, where: str, boxes: tuple[int, ...]) -> tuple[int, ...]:
    if not isinstance(data, dict):
        raise EndStateError(f"{where}: must map each building type to a count")
    refuse_unknown(data, BUILDING_TYPES, where, EndStateError)
    counts = []
    for t, building in enumerate(BUILDING_TYPES):
        # Written on the score sheet, 0 included: a type left out is a slip, not a default.
        if building not in data:
            raise EndStateError(f"{where}: missing {building} (0 where there is none)")
        what = f"a whole number 0–{boxes[t]} (boxes)"
        counts.append(whole_number(data[building], 0, boxes[t], f"{where}.{building}", EndStateError, what))
    return tuple(counts)


def _completions(
    data: object, players: tuple[PlayerRecord, ...], boxes: tuple[int, ...], rounds: int
) -> tuple[Completion, ...]:
    """Validated completions; entries for the same type and round are one group sharing places."""
    if not isinstance(data, list):
        raise EndStateError("completions: must be a list")
    by_name = {p.name: p for p in players}
    seen: set[tuple[str, str]] = set()
    groups: dict[tuple[str, int], list[str]] = {}
    done: dict[str, list[tuple[int, int, int]]] = {}  # name: (entry, round, type) of each completion
    for i, c in enumerate(data):
        where = f"completions[{i}]"
        if not isinstance(c, dict):
            raise EndStateError(f"{where}: must be an object with type, round and players")
        refuse_unknown(c, ("type", "round", "players"), where, EndStateError)
        building = c.get("type")
        if building not in BUILDING_TYPES:
            raise EndStateError(f"{where}.type: unknown building type {short(building)}")
        t = BUILDING_TYPES.index(building)
        what = f"a round number 1–{rounds}, or 0 for set-up"
        rnd = whole_number(c.get("round"), 0, rounds, f"{where}.round", EndStateError, what)
        if rnd == 0 and boxes[t] > SETUP_BUILDINGS:
            raise EndStateError(
                f"{where}.round: set-up crosses {SETUP_BUILDINGS} buildings, so no one completes the "
                f"{boxes[t]} {building} boxes in it (round 0)"
            )
        who = c.get("players")
        if not isinstance(who, list) or not who or not all(isinstance(n, str) for n in who):
            raise EndStateError(f"{where}.players: must be a non-empty list of names")
        for name in who:
            if name not in by_name:
                raise EndStateError(f"{where}.players: no player named {short(name)}")
            if by_name[name].counts[t] != boxes[t]:
                raise EndStateError(
                    f"{where}: {shown(name)} has {by_name[name].counts[t]} of {boxes[t]} {building} boxes, "
                    "so did not complete it"
                )
            if (name, building) in seen:
                raise EndStateError(f"{where}: {shown(name)} completed {building} twice")
            seen.add((name, building))
        groups.setdefault((building, rnd), []).extend(who)
        for name in who:
            done.setdefault(name, []).append((i, rnd, t))
    for p in players:
        for t, building in enumerate(BUILDING_TYPES):
            if p.counts[t] == boxes[t] and (p.name, building) not in seen:
                raise EndStateError(
                    f"completions: {shown(p.name)} filled every {building} box, so it must say in which round"
                )
        _check_completed_in_time(p, done.get(p.name, []), boxes)
    return tuple(Completion(building, rnd, tuple(who)) for (building, rnd), who in groups.items())


def _check_completed_in_time(
    p: PlayerRecord, done: list[tuple[int, int, int]], boxes: tuple[int, ...]
) -> None:
    """Refuse completions earlier than the buildings a player can hold by then: every type completed by the
    end of a round has all its boxes filled then."""
    for i, rnd, _ in done:
        by_then = [t for _, r, t in done if r <= rnd]
        filled = sum(boxes[t] for t in by_then)
        if filled > _most_buildings(p, rnd):
            raise EndStateError(
                f"completions[{i}]: {shown(p.name)} cannot have completed "
                f"{listed(BUILDING_TYPES[t] for t in by_then)} ({filled} boxes) by round {rnd}: "
                f"at most {_most_buildings(p, rnd)} buildings then ({_why_most(p)})"
            )


__all__ = ["GAME_ID", "EndStateError", "ScoreError", "end_state_from_json"]
