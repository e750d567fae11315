"""The original Alhambra's scorings, named as on the rules page (`rules/alhambra-classic-scoring.md`).

- **Three scorings.** Scoring 1 pays the 1st place of each building type, scoring 2 the 1st and 2nd, scoring
  3 the 1st to 3rd (`buildings.json`). Buildings in the reserve do not count: the counts given are those in
  the Alhambra.
- **Majorities per building type.** The players with at least one building of the type are ranked by how
  many they have.
- **Ties share the places' VP, rounded down.** A group tied over places p..p+g-1 shares the sum of those
  places' VP (0 for a place the scoring does not pay), divided by g and rounded down; the next player takes
  place p+g.
- **Longest connected outer wall.** 1 VP per piece, at every scoring (`walls`).
- **Dirk (2 players).** The imaginary third player takes part in the majorities but scores no wall and
  cannot win. Winners are the real players with the highest total.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from companion.games.words import listed

from .buildings import TYPES, BuildingType, load_buildings
from .walls import Wall

SCORINGS = 3
"""A game has three scorings: its winners are known once the third is held."""


@dataclass(frozen=True, slots=True)
class Holding:
    """A player's Alhambra at one scoring: buildings of each type (in TYPES order) and the wall."""

    name: str
    dirk: bool
    counts: tuple[int, ...]
    wall: int
    layout: Wall | None = None
    """The tiles the wall was found on, when they were given instead of its length."""


@dataclass(frozen=True, slots=True)
class TypeScore:
    building: str
    count: int
    place: int
    """0: no building of the type, no place."""
    vp: int
    why: str


@dataclass(frozen=True, slots=True)
class ScoringScore:
    buildings: tuple[TypeScore, ...]
    wall: int
    wall_vp: int
    layout: Wall | None

    @property
    def vp(self) -> int:
        return sum(b.vp for b in self.buildings) + self.wall_vp

    def to_json(self) -> dict[str, Any]:
        wall: dict[str, Any] = {"length": self.wall, "vp": self.wall_vp}
        if self.layout is not None:
            wall["pieces"] = [{"at": list(at), "side": side} for at, side in self.layout.pieces]
            wall["runs"] = list(self.layout.runs)
        return {
            "buildings": {
                b.building: {"count": b.count, "place": b.place, "vp": b.vp, "why": b.why}
                for b in self.buildings
            },
            "wall": wall,
            "vp": self.vp,
        }


@dataclass(frozen=True, slots=True)
class PlayerResult:
    name: str
    dirk: bool
    scorings: tuple[ScoringScore, ...]

    @property
    def total(self) -> int:
        return sum(s.vp for s in self.scorings)


@dataclass(frozen=True, slots=True)
class Result:
    players: tuple[PlayerResult, ...]
    winners: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "game": "alhambra",
            "players": [
                {
                    "name": p.name,
                    **({"dirk": True} if p.dirk else {}),
                    "scorings": [s.to_json() for s in p.scorings],
                    "total": p.total,
                }
                for p in self.players
            ],
            "winners": list(self.winners),
        }


def ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def _buildings(n: int) -> str:
    return f"{n} building{'s' if n != 1 else ''}"


def majorities(
    counts: Sequence[tuple[str, int]], paid: tuple[int, ...], scoring: int
) -> dict[str, TypeScore]:
    """Majorities per building type, ties sharing the places' VP rounded down, for one type at one scoring:
    `counts` (player, buildings) and `paid` the VP of the places this scoring pays."""
    ranked = sorted((c for c in counts if c[1] >= 1), key=lambda c: -c[1])
    scores = {name: TypeScore("", 0, 0, 0, "no building: 0 VP") for name, count in counts if count < 1}
    place, i = 1, 0
    while i < len(ranked):
        count = ranked[i][1]
        group = [name for name, c in ranked[i:] if c == count]
        places = list(range(place, place + len(group)))
        vps = [paid[p - 1] if p <= len(paid) else 0 for p in places]
        share = sum(vps) // len(group)
        for name in group:
            if len(group) == 1:
                unpaid = f"scoring {scoring} pays up to {ordinal(len(paid))} place"
                pays = f"{ordinal(place)} place = {share} VP" + ("" if vps[0] else f" ({unpaid})")
                why = f"{_buildings(count)}: {pays}"
            else:
                others = listed(n for n in group if n != name)
                spread = listed(ordinal(p) for p in places)
                rounded = " (rounded down)" if sum(vps) % len(group) else ""
                why = (
                    f"{_buildings(count)}, tied with {others} for {spread}: "
                    f"({' + '.join(map(str, vps))}) / {len(group)} = {share} VP{rounded}"
                )
            scores[name] = TypeScore("", count, place, share, why)
        place += len(group)
        i += len(group)
    return scores


def score_scoring(
    holdings: Sequence[Holding], scoring: int, types: Sequence[BuildingType]
) -> list[ScoringScore]:
    """One scoring (1-3) of every player, in the order given."""
    per_type = [
        majorities([(h.name, h.counts[t]) for h in holdings], kind.vp[scoring - 1], scoring)
        for t, kind in enumerate(types)
    ]
    return [
        ScoringScore(
            tuple(
                TypeScore(kind.name, s.count, s.place, s.vp, s.why)
                for kind, s in ((kind, per_type[t][h.name]) for t, kind in enumerate(types))
            ),
            0 if h.dirk else h.wall,
            0 if h.dirk else h.wall,
            h.layout,
        )
        for h in holdings
    ]


def score_game(scorings: Sequence[Sequence[Holding]], types: Sequence[BuildingType] | None = None) -> Result:
    """Every scoring held so far (1-3, each with every player in the same order), and the winners."""
    kinds = tuple(types) if types is not None else load_buildings()
    per_scoring = [score_scoring(holdings, n, kinds) for n, holdings in enumerate(scorings, start=1)]
    first = scorings[0]
    players = tuple(
        PlayerResult(h.name, h.dirk, tuple(per_scoring[n][i] for n in range(len(scorings))))
        for i, h in enumerate(first)
    )
    real = [p for p in players if not p.dirk]
    best = max(p.total for p in real)
    return Result(players, tuple(p.name for p in real if p.total == best))


__all__ = [
    "SCORINGS",
    "TYPES",
    "Holding",
    "PlayerResult",
    "Result",
    "ScoringScore",
    "TypeScore",
    "majorities",
    "score_game",
]
