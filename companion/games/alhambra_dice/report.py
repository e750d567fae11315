"""A scored Alhambra dice game as text: per scoring every number with its reason, then the totals."""

from __future__ import annotations

from companion.games.words import standing

from .scoring import AFTER_ROUND, LETTERS, GameScore


def scoring_text(board: GameScore, n: int) -> str:
    """Scoring `n` (0: A): every player's VP per building type and from VP tiles, each with its reason."""
    lines = [f"Scoring {LETTERS[n]} (after round {AFTER_ROUND[n]})"]
    for dirk, player in zip(board.dirk, board.scorings[n], strict=True):
        lines.append(f"  {player.name}{' (imaginary)' if dirk else ''}: {player.vp} VP")
        for b in player.buildings:
            lines.append(f"    {b.building:<9} {b.vp:>3}  {b.why}")
        tiles = " + ".join(map(str, player.tiles)) or "none"
        lines.append(f"    VP tiles  {player.tiles_vp:>3}  {tiles} (each counts at every scoring)")
    return "\n".join(lines)


def scorings_text(board: GameScore) -> str:
    return "\n\n".join(scoring_text(board, n) for n in range(len(board.scorings)))


def reasons_text(board: GameScore) -> str:
    """The game's state and every scoring held so far with its reasons, without the totals (which a table
    beside gives)."""
    return "\n\n".join([state_line(board), *([scorings_text(board)] if board.scorings else [])])


def scorings_columns(board: GameScore) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """Each scoring held: its letter and every player's VP in it, in seat order."""
    return tuple((LETTERS[n], tuple(p.vp for p in scoring)) for n, scoring in enumerate(board.scorings))


def state_line(board: GameScore) -> str:
    held = ", ".join(LETTERS[: len(board.scorings)]) or "none yet"
    state = (
        "over after scoring C" if board.finished else f"in progress, round {board.round} (scorings: {held})"
    )
    return f"Alhambra dice game: {state}"


def totals_line(board: GameScore) -> str:
    """Every player's total and, once the game is over, the winners: the text's last line."""
    totals = ", ".join(
        f"{name}{' (imaginary)' if dirk else ''} {total}"
        for name, dirk, total in zip(board.names, board.dirk, board.totals, strict=True)
    )
    line = f"Totals: {totals}."
    if board.winners:
        line += f" {standing(board.winners, over=True)}"
        if any(board.dirk):
            line += " (the imaginary Dirk cannot win)"
    return line


def game_text(board: GameScore) -> str:
    return "\n".join([reasons_text(board), "", totals_line(board)])
