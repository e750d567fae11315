"""The original Alhambra's scorings as text: per scoring, every number with its reason, then the totals."""

from __future__ import annotations

from companion.games.words import ahead, standing

from .scoring import SCORINGS, Result


def scoring_text(result: Result, n: int) -> str:
    """Scoring `n` (0: the first): every player's VP per building type and for the wall, with reasons."""
    lines = [f"Scoring {n + 1}"]
    for player in result.players:
        scoring = player.scorings[n]
        lines.append(f"  {player.name}{' (imaginary)' if player.dirk else ''}: {scoring.vp} VP")
        for b in scoring.buildings:
            lines.append(f"    {b.building:<9} {b.vp:>3}  {b.why}")
        if player.dirk:
            lines.append("    wall        0  Dirk scores no wall")
        else:
            runs = scoring.layout.runs if scoring.layout else ()
            found = " on the tiles" if runs else ""
            if len(runs) > 1:
                found += f", the longest of {len(runs)} separate outer walls ({', '.join(map(str, runs))})"
            pieces = "piece" if scoring.wall == 1 else "pieces"
            lines.append(f"    wall      {scoring.wall_vp:>3}  {scoring.wall} {pieces}{found}")
    return "\n".join(lines)


def scorings_text(result: Result) -> str:
    """Every scoring held with its reasons, without the totals (which a table beside may give)."""
    return "\n\n".join(scoring_text(result, n) for n in range(len(result.players[0].scorings)))


def scorings_columns(result: Result) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """Each scoring held: its number and every player's VP in it, in seat order."""
    held = len(result.players[0].scorings)
    return tuple((str(n + 1), tuple(p.scorings[n].vp for p in result.players)) for n in range(held))


def totals_line(result: Result) -> str:
    """Every player's total and who leads or, after the last scoring, who won: the text's last line."""
    totals = ", ".join(f"{p.name}{' (imaginary)' if p.dirk else ''} {p.total}" for p in result.players)
    held = len(result.players[0].scorings)
    if held >= SCORINGS:
        return f"Totals: {totals}. {standing(result.winners, over=True)}"
    # No winner before the last scoring: the best so far lead, none while all are level (at 0 each, every
    # player was said to lead).
    leaders = standing(ahead((p.name, p.total) for p in result.players if not p.dirk), over=False)
    so_far = f"Totals after scoring {held} of {SCORINGS}: {totals}."
    return f"{so_far} {leaders}" if leaders else so_far


def result_text(result: Result) -> str:
    held = [scorings_text(result), ""] if result.players[0].scorings else []
    return "\n".join([*held, totals_line(result)])
