"""Lists in the players' words, shared by every game's reasons and reports."""

from __future__ import annotations

from collections.abc import Iterable


def listed(items: Iterable[object]) -> str:
    """`Ann`, `Ann and Ben`, `Ann, Ben and Cleo`: never `Ann and Ben and Cleo`."""
    words = [str(item) for item in items]
    if len(words) < 2:
        return "".join(words)
    return f"{', '.join(words[:-1])} and {words[-1]}"


def counted(n: int, one: str, many: str) -> str:
    """`1 older demo`, `3 older demos`."""
    return f"{n} {one if n == 1 else many}"
