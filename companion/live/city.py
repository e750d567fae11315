"""The dispute settler: a photo of a built Carcassonne city read into the turn file's layout, scored, drawn.

`vision.grid` places the read dice on the grid; here each die becomes what the game knows: a city die with
its black area (the taught face's city edges as it lies: top = N, right = E, bottom = S, left = W), a knight
or a catapult. A face reaching no edge that is neither is not a face of this game and is asked about, and so
is a city die not read surely whose black edge meets a neighbour's white one.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from calibration.faces import CATAPULT, KNIGHT
from companion.games.carcassonne_dice import GAME_ID, CityScore
from companion.games.carcassonne_dice.city import EDGES, OPPOSITE, STEP, Areas, Pos, area_text
from companion.games.carcassonne_dice.report import city_text
from vision.grid import GridReading, read_grid
from vision.images import load_image
from vision.reader import DiceReader
from vision.symbols.profile import Sides, SymbolProfile

SURE = 0.95
"""A face read with at least this confidence is not doubted on a seam where black meets white: misreads of a
corner or three-sided face next to a neighbour's black art come out at 0.80-0.90 on rendered cities."""
SIDE_EDGE = {"top": EDGES[0], "right": EDGES[1], "bottom": EDGES[2], "left": EDGES[3]}


@dataclass(frozen=True)
class CityReading:
    """A built city as read: the city dice's black areas per cell, the knights and catapults (on the grid
    or beside it), and every die the photo does not settle, as a question."""

    layout: Mapping[Pos, Areas]
    knights_at: tuple[Pos, ...]
    knights: int
    catapults: int
    asked: tuple[str, ...]
    asked_at: tuple[Pos, ...]

    def turn_json(self, knight: bool) -> dict[str, Any]:
        """The layout as a turn file (`companion score` reads it back)."""
        dice = [
            {"at": list(at), "kind": "city", "areas": [area_text(m) for m in areas]}
            for at, areas in sorted(self.layout.items())
        ] + [{"at": list(at), "kind": "knight"} for at in self.knights_at]
        return {"game": GAME_ID, "knight": knight, "dice": dice}


def city_from_grid(found: GridReading) -> CityReading:
    """The game's view of a grid reading."""
    layout: dict[Pos, Areas] = {}
    knights_at: list[Pos] = []
    catapults = 0
    asked = [f"{_where(a.at, a.box.center)}: {a.why}" for a in found.asked]
    asked_at = [a.at for a in found.asked if a.at is not None]
    for die in found.dice:
        if die.areas:
            layout[die.at] = tuple(area_mask(area) for area in die.areas)
        elif die.face == KNIGHT:
            knights_at.append(die.at)
        elif die.face == CATAPULT:
            catapults += 1
        else:
            asked.append(f"{_where(die.at, die.box.center)}: {die.face!r} is no face of this game")
            asked_at.append(die.at)
    for at in _clashing(found, layout):
        die = next(d for d in found.dice if d.at == at)
        del layout[at]
        asked.append(f"{_where(at, die.box.center)}: its black and white edges do not meet its neighbours'")
        asked_at.append(at)
    loose_knights = sum(d.face == KNIGHT for d in found.loose)
    catapults += sum(d.face == CATAPULT for d in found.loose)
    asked += [
        f"{_where(None, d.box.center)}: {d.face!r} is no face of this game"
        for d in found.loose
        if d.face not in (KNIGHT, CATAPULT)
    ]
    return CityReading(
        layout,
        tuple(knights_at),
        len(knights_at) + loose_knights,
        catapults,
        tuple(asked),
        tuple(asked_at),
    )


def area_mask(sides: Sides) -> int:
    """The game's bit mask of an area's city edges."""
    mask = 0
    for side in sides:
        mask |= SIDE_EDGE[side]
    return mask


def _clashing(found: GridReading, layout: Mapping[Pos, Areas]) -> list[Pos]:
    """The city dice to ask about because a black edge of theirs meets a white one: a player builds black
    against black, so such a seam is far likelier a misread (a corner read as a band, a three-sided face as a
    corner) than a rule break. Only a seam between two sure reads is left to the scorer as a rule break;
    where one side is sure, the other is the misread."""
    sure = {d.at for d in found.dice if d.confidence >= SURE}
    clashing: set[Pos] = set()
    for at, areas in layout.items():
        for edge in (EDGES[1], EDGES[2]):
            dr, dc = STEP[edge]
            other = (at[0] + dr, at[1] + dc)
            if other not in layout:
                continue
            if any(m & edge for m in areas) == any(m & OPPOSITE[edge] for m in layout[other]):
                continue
            clashing |= {at, other} - sure
    return sorted(clashing)


def _where(at: Pos | None, centre: tuple[float, float]) -> str:
    pixel = f"at pixel ({centre[0]:.0f}, {centre[1]:.0f})"
    return f"die at row {at[0]}, col {at[1]} ({pixel})" if at is not None else f"die {pixel}"


def not_a_city_profile(profile: SymbolProfile) -> str:
    """Why `profile` cannot read a city, or "": none of its faces has a city area (another game's dice read
    as no city at all, scored 0 without a word)."""
    if any(face.areas for face in profile.faces):
        return ""
    return (
        f"no face of this profile has a city area ({', '.join(profile.labels)}): taught for another game?"
        " Teach the Carcassonne dice with --preset carcassonne"
    )


def read_city_photo(photo: Path, profile: SymbolProfile) -> CityReading:
    """Read a photo of a built city; an `ImageError` or a `GridError` (vision) says what is wrong."""
    return city_from_grid(read_grid(load_image(photo), DiceReader(symbols=profile)))


def drawing(reading: CityReading, scored: CityScore) -> str:
    """The grid as read, three lines a row: each city die's black edges `#` where closed, `!` where open and
    `x` against a white edge; its city's number in the middle; `K` a knight, `?` a die asked about."""
    city_of = {at: n for n, city in enumerate(scored.survey.cities, start=1) for at in city.dice}
    cells = [*reading.layout, *reading.knights_at, *reading.asked_at]
    if not cells:
        return "(no die on the grid)"
    rows = range(min(r for r, _ in cells), max(r for r, _ in cells) + 1)
    cols = range(min(c for _, c in cells), max(c for _, c in cells) + 1)
    lines = []
    for r in rows:
        top, mid, bottom = [], [], []
        for c in cols:
            at = (r, c)
            if at in reading.layout:
                mark = {e: _edge_mark(reading.layout, at, e) for e in EDGES}
                n, e, s, w = (mark[edge] for edge in EDGES)
                centre = str(city_of.get(at, "?"))[-1]
                top.append(f"+-{n}-+")
                mid.append(f"{w} {centre} {e}")
                bottom.append(f"+-{s}-+")
            elif at in reading.knights_at or at in reading.asked_at:
                sign = "K" if at in reading.knights_at else "?"
                top.append("+---+")
                mid.append(f"| {sign} |")
                bottom.append("+---+")
            else:
                top.append("     ")
                mid.append("     ")
                bottom.append("     ")
        lines += ["".join(top).rstrip(), "".join(mid).rstrip(), "".join(bottom).rstrip()]
    return "\n".join(lines)


def _edge_mark(layout: Mapping[Pos, Areas], at: Pos, edge: int) -> str:
    black = any(m & edge for m in layout[at])
    side = "|" if edge in (EDGES[1], EDGES[3]) else "-"
    if not black:
        return side
    dr, dc = STEP[edge]
    other = layout.get((at[0] + dr, at[1] + dc))
    if other is None:
        return "!"
    return "#" if any(m & OPPOSITE[edge] for m in other) else "x"


def settled_text(seen: str, reading: CityReading, scored: CityScore) -> str:
    """What a picture (`seen` names it: a photo's path, the camera's frame) says the city scores, and why:
    the drawing, the counts, the score, the questions."""
    out = [
        f"{seen}: {len(reading.layout)} city {'die' if len(reading.layout) == 1 else 'dice'} on the grid,"
        f" {reading.knights} "
        f"knight{'s' if reading.knights != 1 else ''}, {reading.catapults} "
        f"catapult{'s' if reading.catapults != 1 else ''}",
        "",
        drawing(reading, scored),
        "",
        "(# black edge against black, ! open black edge, x black against white, K knight, ? asked; "
        "the number is the die's city)",
        "",
        city_text(scored),
    ]
    if reading.asked:
        out += [
            "",
            f"Asked ({len(reading.asked)}): the score above leaves these dice out until they are settled",
        ]
        out += [f"  {q}" for q in reading.asked]
    return "\n".join(out)
