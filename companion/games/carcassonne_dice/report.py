"""A scored turn or game as readable text, with the reason for every number."""

from __future__ import annotations

from ..cells import cells, padded
from ..words import standing
from .city import area_text
from .scoring import CityScore, GameScore


def city_text(scored: CityScore) -> str:
    """One built layout: the points and why, then every city with its dice and what keeps it open."""
    out = [
        f"Carcassonne dice game: {scored.points} point{'s' if scored.points != 1 else ''} ({scored.why})",
        "",
    ]
    for n, city in enumerate(scored.survey.cities, start=1):
        state = "completed" if city.completed else "open"
        dice = ", ".join(
            f"({r},{c}) {'+'.join(area_text(m) for m in scored.layout[(r, c)])}" for r, c in city.dice
        )
        out.append(f"City {n}: {city.size} {'die' if city.size == 1 else 'dice'}, {state}: {dice}")
        out.extend(f"  {o.text}" for o in city.open_edges)
        out.extend(f"  rule broken: {b.text}" for b in city.rule_breaks)
    out.extend(f"Rule broken: {a.text}" for a in scored.survey.apart)
    if not scored.survey.cities:
        out.append("No city dice.")
    return "\n".join(out)


def game_text(board: GameScore) -> str:
    """A game's score pad: every player's total, then each turn's points and why."""
    width = max(cells(p.name) for p in board.players)
    out = [state_line(board), ""]
    out.extend(f"{padded(p.name, width)}  {p.total:>3}" for p in board.players)
    if board.winner:
        out += ["", standing((board.winner,), over=True)]
    return "\n".join([*out, "", turns_text(board)])


def state_line(board: GameScore) -> str:
    return "Carcassonne dice game: " + (f"over, {board.why_over}" if board.finished else "in progress")


def reasons_text(board: GameScore) -> str:
    """The game's state and each turn's points and why, without the totals (which a table beside gives)."""
    return f"{state_line(board)}\n\n{turns_text(board)}"


def turns_text(board: GameScore) -> str:
    out = ["Turns:"]
    for p in board.players:
        out.append(f"  {p.name}")
        out.extend(f"    turn {t.turn:>3}: {t.points:>3}  {t.why}" for t in p.turns)
    return "\n".join(out)
