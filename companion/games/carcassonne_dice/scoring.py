"""Scoring a turn: only the largest completed city counts, by the points table (data: `points.json`), doubled
when the player began the turn holding a knight; and a game's totals, turn by turn.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Any

from jsonfile import JsonFileError, loads, refuse_unknown, whole_number

from .city import Areas, City, Pos, Survey, area_text, survey
from .state import GameState, TurnRecord

DICE = 9
"""The game has 9 dice: no city is larger."""
SMALLEST_SCORING = 3
MAX_POINTS = 99


class PointsTableError(ValueError):
    """The shipped points table is damaged; the message names the field."""


def load_points(text: str, where: str = "points.json") -> tuple[int, ...]:
    """Points by the dice in a city (index = dice, 0–9), from the points table's JSON text."""
    try:
        data = loads(text.encode("utf-8"))
    except JsonFileError as exc:
        raise PointsTableError(f"{where}: {exc}") from exc
    if not isinstance(data, dict):
        raise PointsTableError(f"{where}: must be an object with points")
    refuse_unknown(data, ("about", "points"), where, PointsTableError)
    table = data.get("points")
    sizes = tuple(str(n) for n in range(SMALLEST_SCORING, DICE + 1))
    if not isinstance(table, dict):
        raise PointsTableError(f"{where}: points: must map dice {sizes[0]}–{sizes[-1]} to points")
    refuse_unknown(table, sizes, f"{where}: points", PointsTableError)
    points = [0] * SMALLEST_SCORING
    for size in sizes:
        what = f"a whole number {points[-1]}–{MAX_POINTS} (no fewer than for a smaller city)"
        points.append(
            whole_number(
                table.get(size), points[-1], MAX_POINTS, f"{where}: points.{size}", PointsTableError, what
            )
        )
    return tuple(points)


POINTS = load_points(resources.files(__package__).joinpath("points.json").read_text(encoding="utf-8"))
"""Points by dice in the largest completed city: 3 -> 1, 4 -> 3, …, 9 -> 28; 2 or fewer -> 0."""


@dataclass(frozen=True, slots=True)
class CityScore:
    """A built layout scored: every city, the largest completed one, and the points with the reason."""

    layout: Mapping[Pos, Areas]
    survey: Survey
    doubled: bool
    city_points: int
    points: int
    why: str

    @property
    def largest(self) -> City | None:
        return self.survey.largest_completed

    def to_json(self) -> dict[str, Any]:
        largest = self.largest
        return {
            "game": "carcassonne-dice",
            "knight": self.doubled,
            "largest_completed_city": largest.size if largest else 0,
            "largest_completed_city_at": [list(at) for at in largest.dice] if largest else [],
            "city_points": self.city_points,
            "doubled": self.doubled,
            "points": self.points,
            "why": self.why,
            "cities": [
                {
                    "dice": [list(at) for at in city.dice],
                    "areas": [
                        {"at": list(at), "areas": [area_text(m) for m in self.layout[at]]} for at in city.dice
                    ],
                    "size": city.size,
                    "completed": city.completed,
                    "open_edges": [o.text for o in city.open_edges],
                    "rule_breaks": [b.text for b in city.rule_breaks],
                }
                for city in self.survey.cities
            ],
            "rule_breaks": [
                *(b.text for b in self.survey.rule_breaks),
                *(a.text for a in self.survey.apart),
            ],
        }


def turn_points(city: int, doubled: bool, built: bool) -> tuple[int, str]:
    """A turn's points for a largest completed city of `city` dice (0: none), and why."""
    city_points = POINTS[city]
    if city:
        why = f"largest completed city: {city} dice = {city_points} point{'s' if city_points != 1 else ''}"
    else:
        why = "no completed city: 0 points" if built else "no city built: 0 points"
    if doubled:
        why += f", doubled (a knight held from the last turn) = {2 * city_points}"
    return city_points * (2 if doubled else 1), why


def score_layout(layout: Mapping[Pos, Areas], doubled: bool) -> CityScore:
    """Score a built layout (cell -> black areas of the city die there)."""
    found = survey(layout)
    largest = found.largest_completed
    size = largest.size if largest else 0
    points, why = turn_points(size, doubled, bool(layout))
    return CityScore(layout, found, doubled, POINTS[size], points, why)


@dataclass(frozen=True, slots=True)
class PlayerTotal:
    name: str
    total: int
    turns: tuple[TurnRecord, ...]


@dataclass(frozen=True, slots=True)
class GameScore:
    """The score pad of a game (finished or not): every player's turns and total, and the winner if any."""

    players: tuple[PlayerTotal, ...]
    finished: bool
    winner: str | None
    why_over: str

    def to_json(self) -> dict[str, Any]:
        return {
            "game": "carcassonne-dice",
            "finished": self.finished,
            "winner": self.winner,
            # As every other game's scoring names them (a race has one winner): a tool reads one field.
            "winners": [self.winner] if self.winner else [],
            "why_over": self.why_over,
            "players": [
                {
                    "name": p.name,
                    "total": p.total,
                    "turns": [
                        {
                            "turn": t.turn,
                            "rolls": t.rolls,
                            "city": t.city,
                            "doubled": t.doubled,
                            "held_knight": t.held_knight,
                            "points": t.points,
                            "why": t.why,
                        }
                        for t in p.turns
                    ],
                }
                for p in self.players
            ],
        }


def score_game(state: GameState) -> GameScore:
    """The totals of a game, turn by turn (a game in progress gives its totals so far)."""
    players = tuple(
        PlayerTotal(name, state.scores[i], tuple(t for t in state.turns if t.player == name))
        for i, name in enumerate(state.names)
    )
    winner = state.names[state.winner] if state.winner is not None else None
    return GameScore(players, state.is_over, winner, state.why_over)
