"""Final scoring with a breakdown that explains every number.

Scoring works on an `EndState` (what is on the sheets when the game ends), which comes either from the engine
(`end_state_of`) or from an end-state JSON file (`endstate.end_state_from_json`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from companion.games.words import listed

from .events import VERSUS_IMAGINARY
from .places import PLACES, share_places
from .sheet import BUILDING_TYPES, Sheet
from .state import GameState

ROW_COLUMN_VP = {4: 2, 5: 5, 6: 10}
"""Rows and columns: 4 crossed cells = 2 VP, 5 = 5 VP, 6 = 10 VP (need not be adjacent)."""
COINS_PER_VP = 2
"""Coins: 1 VP per 2 circled coins not spent."""
VERSUS_IMAGINARY_EXTRA = {2: 21, 3: 18, 4: 15}
"""Playing against the imaginary players: extra points for each, by the number of imaginary players."""

_ORDINAL = {1: "1st", 2: "2nd", 3: "3rd"}
_IMAGINARY_VP_NOT_WRITTEN = "imaginary players take part in the ranking, but their VP are not written down"


class ScoreError(ValueError):
    """The game cannot be scored (not over, or an end state contradicts itself)."""


@dataclass(frozen=True, slots=True)
class PlayerRecord:
    """One player's sheet at the end: marks per type (`BUILDING_TYPES` order), grid crosses, coins."""

    name: str
    imaginary: bool
    counts: tuple[int, ...]
    crossed: int = 0
    circled: int = 0
    spent: int = 0


@dataclass(frozen=True, slots=True)
class Completion:
    """`players` filled every box of `building` during `round` (an in-game completion award)."""

    building: str
    round: int
    players: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class EndState:
    sheet: Sheet
    variant: str
    players: tuple[PlayerRecord, ...]
    completions: tuple[Completion, ...]


@dataclass(frozen=True, slots=True)
class BuildingScore:
    building: str
    count: int
    place: int | None
    vp: int
    why: str


@dataclass(frozen=True, slots=True)
class PlayerScore:
    name: str
    imaginary: bool
    buildings: tuple[BuildingScore, ...]
    rows_columns: int
    rows_columns_why: str
    coins: int
    coins_why: str
    extra: int
    extra_why: str

    @property
    def buildings_vp(self) -> int:
        return sum(b.vp for b in self.buildings)

    @property
    def total(self) -> int:
        return self.buildings_vp + self.rows_columns + self.coins + self.extra


@dataclass(frozen=True, slots=True)
class Scoreboard:
    sheet: str
    variant: str
    players: tuple[PlayerScore, ...]
    winners: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "game": "alhambra-roll-and-write",
            "sheet": self.sheet,
            "variant": self.variant,
            "players": [
                {
                    "name": p.name,
                    "imaginary": p.imaginary,
                    "buildings": {
                        b.building: {"count": b.count, "place": b.place, "vp": b.vp, "why": b.why}
                        for b in p.buildings
                    },
                    "buildings_vp": p.buildings_vp,
                    "rows_columns": p.rows_columns,
                    "rows_columns_why": p.rows_columns_why,
                    "coins": p.coins,
                    "coins_why": p.coins_why,
                    "extra": p.extra,
                    "extra_why": p.extra_why,
                    "total": p.total,
                }
                for p in self.players
            ],
            "winners": list(self.winners),
        }


def end_state_of(state: GameState) -> EndState:
    """The end state of a finished engine game."""
    if not state.is_over:
        raise ScoreError(f"the game is not over: round {state.round} of {state.rounds}")
    return _as_ended(state)


def _as_ended(state: GameState) -> EndState:
    return EndState(
        sheet=state.sheet,
        variant=state.start.variant,
        players=tuple(
            PlayerRecord(p.name, p.imaginary, p.counts, p.crossed, p.circled, p.spent) for p in state.players
        ),
        completions=tuple(Completion(a.building, a.round, a.players) for a in state.awards),
    )


def score_game(state: GameState) -> Scoreboard:
    """Final scoring of a finished game."""
    return score(end_state_of(state))


def score_so_far(state: GameState) -> Scoreboard:
    """The final scoring as if the game ended now: what each sheet is worth so far (the table's view; once the
    game is over, its final scoring). Until then it names no winner (an export of it named the player ahead
    "Winner")."""
    board = score(_as_ended(state))
    return board if state.is_over else replace(board, winners=())


def score(end: EndState) -> Scoreboard:
    """Final scoring: building types (with in-game awards), rows and columns, coins, extra; winners."""
    versus = end.variant == VERSUS_IMAGINARY
    n_imaginary = sum(p.imaginary for p in end.players)
    per_type = [_score_type(end, t) for t in range(len(BUILDING_TYPES))]
    scores = []
    for i, p in enumerate(end.players):
        buildings = tuple(per_type[t][i] for t in range(len(BUILDING_TYPES)))
        if p.imaginary:
            if not versus:
                buildings = tuple(
                    BuildingScore(
                        b.building,
                        b.count,
                        b.place,
                        0,
                        f"{b.why}; {_IMAGINARY_VP_NOT_WRITTEN}",
                    )
                    for b in buildings
                )
            extra = VERSUS_IMAGINARY_EXTRA[n_imaginary] if versus else 0
            extra_why = (
                f"playing against the imaginary players: {n_imaginary} imaginary players get {extra} each"
                if versus
                else "imaginary players score no VP"
            )
            scores.append(
                PlayerScore(
                    name=p.name,
                    imaginary=True,
                    buildings=buildings,
                    rows_columns=0,
                    rows_columns_why="imaginary players score no rows or columns",
                    coins=0,
                    coins_why="imaginary players have no coins",
                    extra=extra,
                    extra_why=extra_why,
                )
            )
            continue
        rows_columns, rows_why = score_rows_columns(p.crossed)
        coins, coins_why = score_coins(p.circled, p.spent)
        scores.append(PlayerScore(p.name, False, buildings, rows_columns, rows_why, coins, coins_why, 0, ""))
    contenders = [s for s in scores if versus or not s.imaginary]
    best = max(s.total for s in contenders)
    winners = tuple(s.name for s in contenders if s.total == best)
    return Scoreboard(end.sheet.name, end.variant, tuple(scores), winners)


def _score_type(end: EndState, building: int) -> list[BuildingScore]:
    """Places of one building type: in-game awards first (in round order), then the final ranking."""
    name = BUILDING_TYPES[building]
    vp_row = end.sheet.vp[building]
    players = end.players
    index = {p.name: i for i, p in enumerate(players)}
    result: list[BuildingScore | None] = [None] * len(players)
    first_open = 0
    taken_by: list[str] = []
    completions = sorted((c for c in end.completions if c.building == name), key=lambda c: c.round)
    for c in completions:
        places, each = share_places(vp_row, first_open, len(c.players))
        when = "during set-up" if c.round == 0 else f"in round {c.round}"
        for who in c.players:
            others = [o for o in c.players if o != who]
            why = f"completed all {end.sheet.boxes[building]} {when}"
            if others:
                why += f" together with {listed(others)}"
            why += ": " + _places_text(places, vp_row, len(c.players), each, during_game=True)
            i = index[who]
            result[i] = BuildingScore(
                name, players[i].counts[building], places[0] if places else None, each, why
            )
        if places:
            label = "places" if len(places) > 1 else "place"
            taken_by.append(f"{label} {listed(places)} by {listed(c.players)}")
        first_open = min(PLACES, first_open + len(c.players))
    ranked = sorted(
        (i for i, p in enumerate(players) if result[i] is None and p.counts[building] > 0),
        key=lambda i: -players[i].counts[building],
    )
    earlier = f" ({', '.join(taken_by)} taken during the game)" if taken_by else ""
    pos = 0
    while pos < len(ranked):
        count = players[ranked[pos]].counts[building]
        group = [i for i in ranked[pos:] if players[i].counts[building] == count]
        places, each = share_places(vp_row, first_open, len(group))
        for i in group:
            others = [players[o].name for o in group if o != i]
            why = f"{count} building{'s' if count != 1 else ''}"
            if others:
                why += f", tied with {listed(others)}"
            why += ": " + _places_text(places, vp_row, len(group), each, during_game=False) + earlier
            result[i] = BuildingScore(name, count, places[0] if places else None, each, why)
        first_open = min(PLACES, first_open + len(group))
        pos += len(group)
    return [
        r
        if r is not None
        else BuildingScore(name, 0, None, 0, f"no {name}: only a player with at least one can place")
        for r in result
    ]


def _places_text(
    places: tuple[int, ...], vp_row: tuple[int, ...], n: int, each: int, during_game: bool
) -> str:
    if not places:
        return "no place left, 0 VP"
    named = listed(_ORDINAL[p] for p in places)
    if n == 1:
        return f"{named} place{' during the game' if during_game else ''} = {each} VP"
    shared = " + ".join(str(vp_row[p - 1]) for p in places)
    if len(places) > 1:
        shared = f"({shared})"
    return f"{named} place{'s' if len(places) > 1 else ''} shared: {shared} / {n} = {each} VP (rounded down)"


def score_rows_columns(crossed: int) -> tuple[int, str]:
    """Rows and columns with 4, 5 or 6 crossed cells (bit `(yellow-1)*6 + blue-1` of `crossed`)."""
    parts: list[str] = []
    total = 0
    lines = [(f"row yellow {y}", [(y - 1) * 6 + b for b in range(6)]) for y in range(1, 7)]
    lines += [(f"column blue {b}", [y * 6 + b - 1 for y in range(6)]) for b in range(1, 7)]
    for label, cells in lines:
        n = sum(crossed >> c & 1 for c in cells)
        vp = ROW_COLUMN_VP.get(n, 0)
        if vp:
            total += vp
            parts.append(f"{label}: {n} crossed = {vp}")
    if not parts:
        return 0, "no row or column with 4 or more crossed cells"
    return total, "; ".join(parts) + (f" (total {total})" if len(parts) > 1 else "")


def score_coins(circled: int, spent: int) -> tuple[int, str]:
    """1 VP per 2 circled coins not spent (rounded down)."""
    left = circled - spent
    vp = left // COINS_PER_VP
    return vp, f"{left} coin{'s' if left != 1 else ''} left ({circled} circled, {spent} spent): {vp} VP"
