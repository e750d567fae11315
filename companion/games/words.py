"""Lists in the players' words, shared by every game's reasons and reports."""

from __future__ import annotations

from collections.abc import Iterable, Sequence


def listed(items: Iterable[object]) -> str:
    """`Ann`, `Ann and Ben`, `Ann, Ben and Cleo`: never `Ann and Ben and Cleo`."""
    words = [str(item) for item in items]
    if len(words) < 2:
        return "".join(words)
    return f"{', '.join(words[:-1])} and {words[-1]}"


def counted(n: int, one: str, many: str) -> str:
    """`1 older demo`, `3 older demos`."""
    return f"{n} {one if n == 1 else many}"


def standing(leaders: Sequence[str], over: bool) -> str:
    """Who leads a game being played or, once it is over, who won, in the same words in every game's view:
    `Leading: Ann`, `Leading: Ann and Ben`, `Winner: Ann`, `Winners: Ann and Ben` ('' for no one)."""
    if not leaders:
        return ""
    said = "Winners" if over and len(leaders) > 1 else "Winner" if over else "Leading"
    return f"{said}: {listed(leaders)}"


def ahead(points: Iterable[tuple[str, int]]) -> tuple[str, ...]:
    """Who has the most points of those who can win (each a name and its points): no one while no one has a
    point, nor while all are level (Roll & Write's sheets are worth a point each at the start)."""
    scored = list(points)
    best = max((p for _, p in scored), default=0)
    leaders = tuple(name for name, p in scored if p == best)
    return leaders if best > 0 and len(leaders) < len(scored) else ()
