"""Scorings A, B and C, named as on the rules page (`rules/alhambra-dice-game.md`).

- **Places per scoring.** A (after round 1) pays each building type's 1st place, B (after round 3) the 1st and
  2nd, C (after round 5) the 1st to 3rd (`components.VP_TABLE`). [interpretation] A player without building
  points of a type has no stone on its track and takes no place.
- **Stack order on ties.** Equal building points: the stone lowest in the stack (it reached the field first)
  is better, so there is never a tie. A `Standing` lists each type's stones best first, so among equal points
  the one listed first lies lower.
- **VP tiles.** Each VP tile adds its printed value at every scoring.
- **Dirk** receives VP like a player but cannot win. [interpretation] Equal VP at the end share the win (the
  rulebook names no tie-break).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from companion.games.alhambra.buildings import TYPES
from companion.games.alhambra.scoring import ordinal
from companion.games.words import listed

from .components import VP_TABLE

LETTERS = ("A", "B", "C")
AFTER_ROUND = (1, 3, 5)
"""Scorings A, B and C follow rounds 1, 3 and 5."""


@dataclass(frozen=True, slots=True)
class Standing:
    """The table at one scoring: per building type the stones (player, building points) best first, the
    VP tiles each player holds (printed values), and who is the imaginary Dirk."""

    names: tuple[str, ...]
    dirk: tuple[bool, ...]
    tracks: tuple[tuple[tuple[str, int], ...], ...]
    vp_tiles: tuple[tuple[int, ...], ...]


@dataclass(frozen=True, slots=True)
class TypeVP:
    building: str
    points: int
    place: int
    """0: no stone on the track, no place."""
    vp: int
    why: str


@dataclass(frozen=True, slots=True)
class PlayerScoring:
    name: str
    buildings: tuple[TypeVP, ...]
    tiles: tuple[int, ...]

    @property
    def tiles_vp(self) -> int:
        return sum(self.tiles)

    @property
    def vp(self) -> int:
        return sum(b.vp for b in self.buildings) + self.tiles_vp

    def to_json(self, letter: str) -> dict[str, Any]:
        return {
            "scoring": letter,
            "buildings": {
                b.building: {"points": b.points, "place": b.place, "vp": b.vp, "why": b.why}
                for b in self.buildings
            },
            "vp_tiles": {"values": list(self.tiles), "vp": self.tiles_vp},
            "vp": self.vp,
        }


def _points(n: int) -> str:
    return f"{n} building point{'s' if n != 1 else ''}"


def _pays(paid: int) -> str:
    return "1st only" if paid == 1 else f"1st {'and' if paid == 2 else 'to'} {ordinal(paid)}"


def score_type(t: int, stones: Sequence[tuple[str, int]], scoring: int) -> dict[str, TypeVP]:
    """Building type `t` at scoring `scoring` (0-2): each stone's place, VP and why (stack order on ties)."""
    paid = VP_TABLE[t][scoring]
    out = {}
    for place, (name, points) in enumerate(stones, start=1):
        lower = [n for n, p in stones[: place - 1] if p == points]
        higher = [n for n, p in stones[place:] if p == points]
        tie = "".join(
            f", tied with {listed(names)}, {where} in the stack"
            for names, where in ((lower, "higher"), (higher, "lower"))
            if names
        )
        if place <= len(paid):
            vp = paid[place - 1]
            why = f"{_points(points)}{tie}: {ordinal(place)} place = {vp} VP"
        else:
            vp = 0
            unpaid = f"scoring {LETTERS[scoring]} pays {_pays(len(paid))}"
            why = f"{_points(points)}{tie}: {ordinal(place)} place ({unpaid}) = 0 VP"
        out[name] = TypeVP(TYPES[t], points, place, vp, why)
    return out


def score_standing(standing: Standing, scoring: int) -> tuple[PlayerScoring, ...]:
    """Scoring A, B or C (0-2) of every player, in the standing's order."""
    per_type = [score_type(t, stones, scoring) for t, stones in enumerate(standing.tracks)]
    none = "no building points: no place"
    return tuple(
        PlayerScoring(
            name,
            tuple(places.get(name, TypeVP(TYPES[t], 0, 0, 0, none)) for t, places in enumerate(per_type)),
            tiles,
        )
        for name, tiles in zip(standing.names, standing.vp_tiles, strict=True)
    )


@dataclass(frozen=True, slots=True)
class GameScore:
    """Every scoring held so far, each player's total and, once scoring C is held, the winners."""

    names: tuple[str, ...]
    dirk: tuple[bool, ...]
    standings: tuple[Standing, ...]
    scorings: tuple[tuple[PlayerScoring, ...], ...]
    """Per scoring held, per player."""
    round: int
    """The round being played, or 6 once the game is over."""

    @property
    def finished(self) -> bool:
        return len(self.scorings) == len(LETTERS)

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(sum(s[i].vp for s in self.scorings) for i in range(len(self.names)))

    @property
    def winners(self) -> tuple[str, ...]:
        if not self.finished:
            return ()
        real = [(t, n) for t, n, d in zip(self.totals, self.names, self.dirk, strict=True) if not d]
        best = max(t for t, _ in real)
        return tuple(n for t, n in real if t == best)

    def to_json(self) -> dict[str, Any]:
        return {
            "game": "alhambra-dice",
            "finished": self.finished,
            "players": [
                {
                    "name": name,
                    **({"dirk": True} if dirk else {}),
                    "scorings": [s[i].to_json(LETTERS[n]) for n, s in enumerate(self.scorings)],
                    "total": total,
                }
                for i, (name, dirk, total) in enumerate(zip(self.names, self.dirk, self.totals, strict=True))
            ],
            "stacks": [
                {
                    "scoring": LETTERS[n],
                    "after_round": AFTER_ROUND[n],
                    "buildings": {
                        t: [[p, pts] for p, pts in stones] for t, stones in zip(TYPES, s.tracks, strict=True)
                    },
                }
                for n, s in enumerate(self.standings)
            ],
            "totals": dict(zip(self.names, self.totals, strict=True)),
            "winners": list(self.winners),
        }


def score_standings(
    names: tuple[str, ...], dirk: tuple[bool, ...], standings: Sequence[Standing], round_: int = 6
) -> GameScore:
    """Score the standings of the scorings held so far (A, then B, then C; none yet before round 1 ends)."""
    return GameScore(
        names,
        dirk,
        tuple(standings),
        tuple(score_standing(s, n) for n, s in enumerate(standings)),
        round_,
    )
